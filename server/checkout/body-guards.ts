/**
 * The guards of a request's body: JSON-only state changes, and a deadline on reading the body (a slow sender gets
 * 408 and loses the connection). Each refusal is the BFF's envelope with a 4xx.
 */
import { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { ApiError } from './errors';

/** `application/json`, with parameters or without. */
export const isJsonType = (type: string | undefined) => type !== undefined && /^application\/json\s*(;|$)/i.test(type.trim());

const hasBody = (c: Context) => Number(c.req.header('content-length') ?? 0) > 0 || c.req.header('transfer-encoding') !== undefined;

/**
 * State-changing calls carry JSON or nothing: a body or a content type other than `application/json` is a 415, so
 * a cross-site form or a "simple" request (text/plain, no preflight) never reaches a route.
 */
export function jsonOnly({ except = () => false }: { except?: (c: Context) => boolean } = {}): MiddlewareHandler {
  return async (c, next) => {
    if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(c.req.method) && !except(c)) {
      const type = c.req.header('content-type');
      if ((type !== undefined || hasBody(c)) && !isJsonType(type)) {
        throw new ApiError(415, 'unsupported_media_type', 'Send the body as application/json.');
      }
    }
    await next();
  };
}

/**
 * The body must arrive within `ms` of the request reaching the app, or the read fails with 408 `body_timeout` and
 * the connection is closed after the answer. (Node's `requestTimeout` bounds every request, streamed uploads too.)
 *
 * Under Node, a body of a known length up to `maxBytes` is read once straight from the socket's `IncomingMessage`
 * and handed to the route as Hono's cached text (`c.req.text()`, `c.req.json()`): no Web stream and no second
 * `Request` on the hot path. Requests without a body are not touched at all. Anything else (chunked bodies,
 * `app.request` without Node, bodies longer than `maxBytes`, which the size limit refuses by their header) is read
 * through a wrapping stream with the same deadline.
 */
export function bodyDeadline(
  ms: number,
  { except = () => false, maxBytes = Infinity }: { except?: (c: Context) => boolean; maxBytes?: number } = {},
): MiddlewareHandler {
  return async (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || except(c)) return next();
    // Over HTTP/1.1 a request without Content-Length or Transfer-Encoding has no body.
    if (nodeIncoming(c) && !hasBody(c)) return next();
    let expired = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = () => {
      expired = true;
      return new ApiError(408, 'body_timeout', 'The request body did not arrive in time.');
    };
    const incoming = readableIncoming(c, maxBytes);
    if (incoming) {
      const text = readIncoming(incoming, ms, timeout, (t) => (timer = t));
      text.catch(() => undefined);
      (c.req.bodyCache as { text?: Promise<string> }).text = text;
    } else {
      const original = c.req.raw.body;
      if (!original) return next();
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(timeout()), ms);
      });
      deadline.catch(() => undefined);
      let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            reader ??= original.getReader();
            const chunk = await Promise.race([reader.read(), deadline]);
            if (chunk.done) {
              clearTimeout(timer);
              controller.close();
            } else {
              controller.enqueue(chunk.value);
            }
          } catch (error) {
            clearTimeout(timer);
            controller.error(error);
          }
        },
        cancel(reason) {
          clearTimeout(timer);
          return reader?.cancel(reason) ?? original.cancel(reason);
        },
      });
      c.req.raw = new Request(c.req.raw, { body, duplex: 'half' } as RequestInit);
    }
    try {
      await next();
    } finally {
      clearTimeout(timer);
    }
    // The rest of the body may still be on its way: don't keep the connection for it.
    if (expired) c.res.headers.set('connection', 'close');
  };
}

/** The socket's request under @hono/node-server; undefined elsewhere (`app.request`). */
function nodeIncoming(c: Context): IncomingMessage | undefined {
  const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming;
  return incoming instanceof IncomingMessage ? incoming : undefined;
}

/**
 * Node's request when its body can be read from it directly: @hono/node-server's bindings, a `Content-Length` of at
 * most `maxBytes` (Node's parser holds the body to it) and no `Transfer-Encoding`, nothing read yet, and no other
 * middleware has replaced the request.
 */
function readableIncoming(c: Context, maxBytes: number): IncomingMessage | undefined {
  const incoming = nodeIncoming(c);
  if (!incoming || incoming.readableDidRead || incoming.readableEnded) return undefined;
  if (c.req.header('transfer-encoding') !== undefined) return undefined;
  const length = Number(c.req.header('content-length'));
  if (!(length > 0 && length <= maxBytes)) return undefined;
  // Still @hono/node-server's lightweight request over this socket (not one rebuilt by an earlier middleware), whose
  // own body stream has not been made: it holds the IncomingMessage under a symbol and its Request once made under
  // another, `requestCache`.
  const raw = c.req.raw as unknown as Record<symbol, unknown>;
  let carries = false;
  for (const key of Object.getOwnPropertySymbols(raw)) {
    if (key.description === 'requestCache' && raw[key] !== undefined) return undefined;
    if (raw[key] === incoming) carries = true;
  }
  return carries ? incoming : undefined;
}

const utf8 = new TextDecoder();

/** The body as text (decoded as `Request.text()` does), or `onTimeout()`'s error when it is not all in within `ms`. */
function readIncoming(
  incoming: IncomingMessage,
  ms: number,
  onTimeout: () => ApiError,
  setTimer: (timer: ReturnType<typeof setTimeout>) => void,
): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const done = () => {
      clearTimeout(timer);
      incoming.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onAborted);
    };
    const onData = (chunk: Buffer) => chunks.push(chunk);
    const onEnd = () => {
      done();
      resolve(utf8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    };
    const onError = (error: Error) => {
      done();
      reject(error);
    };
    const onAborted = () => onError(new Error('The request was aborted.'));
    const timer = setTimeout(() => {
      done();
      // Stop taking the rest in; the answer closes the connection.
      incoming.pause();
      reject(onTimeout());
    }, ms);
    setTimer(timer);
    incoming.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onAborted);
  });
}
