/**
 * A request body read straight from Node's `IncomingMessage` under @hono/node-server, handed to the route as Hono's
 * cached text (`c.req.text()`, `c.req.json()`): no Web stream and no second `Request` on the hot path (making them
 * costs more than the rest of a small JSON request). Used by the BFF's body deadline and by the emulator.
 */
import { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

/** Over HTTP/1.1 a request without Content-Length or Transfer-Encoding has no body. */
export const hasBody = (c: Context) => Number(c.req.header('content-length') ?? 0) > 0 || c.req.header('transfer-encoding') !== undefined;

/** The socket's request under @hono/node-server; undefined elsewhere (`app.request`). */
export function nodeIncoming(c: Context): IncomingMessage | undefined {
  const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming;
  return incoming instanceof IncomingMessage ? incoming : undefined;
}

/**
 * Node's request when its body can be read from it directly: @hono/node-server's bindings, a `Content-Length` of at
 * most `maxBytes` (Node's parser holds the body to it) and no `Transfer-Encoding`, nothing read yet, and no other
 * middleware has replaced the request.
 */
export function readableIncoming(c: Context, maxBytes: number): IncomingMessage | undefined {
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

/** What a request whose client left mid-body is logged with (nginx's "client closed request"); nobody reads the answer. */
export const CLIENT_LEFT_STATUS = 499;

/** The read of a body whose client closed the connection before it was all in. */
export class ClientLeftError extends Error {
  constructor() {
    super('The client closed the connection before its request body was in.');
    this.name = 'ClientLeftError';
  }
}

/**
 * Whether `error` is what a body read met because the client left before its body was in: our reader's
 * `ClientLeftError`, or any failure of a read (a Web stream's) while Node's request was given up unfinished.
 */
export function clientLeft(c: Context, error: unknown): boolean {
  if (error instanceof ClientLeftError) return true;
  const incoming = nodeIncoming(c);
  return incoming !== undefined && !incoming.complete && incoming.readableAborted;
}

/** The answer to a request whose client left: nothing to say, only the status the request log shows. */
export const clientLeftAnswer = (c: Context) => c.body(null, CLIENT_LEFT_STATUS as Parameters<typeof c.body>[1]);

export interface BodyDeadline {
  ms: number;
  /** The error the read rejects with when the body is not all in within `ms`. */
  onTimeout: () => Error;
  setTimer?: (timer: ReturnType<typeof setTimeout>) => void;
}

/** The body as text (decoded as `Request.text()` does); with a deadline, its error when the body comes too slowly. */
export function readIncoming(incoming: IncomingMessage, deadline?: BodyDeadline): Promise<string> {
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
    const onAborted = () => onError(new ClientLeftError());
    const timer =
      deadline &&
      setTimeout(() => {
        done();
        // Stop taking the rest in; the answer closes the connection.
        incoming.pause();
        reject(deadline.onTimeout());
      }, deadline.ms);
    if (timer) deadline.setTimer?.(timer);
    incoming.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onAborted);
  });
}

/** Hands `text` to the route as the request's body (what `c.req.text()` and `c.req.json()` then read). */
export function preloadText(c: Context, text: Promise<string>): void {
  text.catch(() => undefined);
  (c.req.bodyCache as { text?: Promise<string> }).text = text;
}

/** Puts `deadline` on a body read as a Web stream (chunked, or not under Node): a read past it fails with its error. */
export function streamWithDeadline(c: Context, deadline: BodyDeadline): void {
  const original = c.req.raw.body;
  if (!original) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(deadline.onTimeout()), deadline.ms);
  });
  expired.catch(() => undefined);
  if (timer) deadline.setTimer?.(timer);
  const reader = original.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await Promise.race([reader.read(), expired]);
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
      return reader.cancel(reason);
    },
  });
  c.req.raw = new Request(c.req.raw, { body, duplex: 'half' } as RequestInit);
}

/**
 * `body` with a deadline on its silence rather than on its whole: a read that waits more than `idleMs` for the next
 * chunk fails with `onTimeout()`, and the source is cancelled. For the large streamed uploads (an invoice, up to
 * 10 MB) that a slow link may take long to send whole, but whose sender must not stop halfway (a `Content-Length`
 * larger than what it sends) and hold the request open until Node's request timeout.
 */
export function withIdleDeadline(body: ReadableStream<Uint8Array>, idleMs: number, onTimeout: () => Error): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const silence = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(onTimeout()), idleMs);
      });
      try {
        const chunk = await Promise.race([reader.read(), silence]);
        if (chunk.done) controller.close();
        else controller.enqueue(chunk.value);
      } catch (error) {
        reader.cancel(error).catch(() => undefined);
        controller.error(error);
      } finally {
        clearTimeout(timer);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}
