/**
 * What every request meets before a route: security headers, refusal of bytes no database or JSON writer should see,
 * JSON-only state changes, a deadline on reading a body, and per-client limits on status streams and on checkout
 * creation. Each refusal is the BFF's envelope with a 4xx (or 503 when the whole server is full).
 */
import { IncomingMessage } from 'node:http';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { clientAddress, clientKey, type RateLimiter, type StreamLimiter } from '../lib/limits';
import { ApiError, errorBody } from './errors';
import { onRawStreamEnd } from './stream';

/** For responses that are not pages (JSON, scripts): nothing may load from them, frame them or submit to them. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The headers every answer carries, also those written by hand on a raw socket (see `server/server.ts`). */
export const BASE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'content-security-policy': API_CSP,
};

/**
 * Paths other origins load: the element's module (`/widget/…`) and the public checkout API it calls. They get
 * `Cross-Origin-Resource-Policy: cross-origin`, so a storefront with COEP can still embed them; everything else is
 * `same-origin`.
 */
const sharedAcrossOrigins = (path: string) => /(^|\/)widget\//.test(path) || /\/checkouts(\/|$)/.test(path);

export interface SecurityHeaderOptions {
  /** Content-Security-Policy of HTML answers; JSON answers get `API_CSP`. */
  pageCsp?: string;
  /** Add Strict-Transport-Security (only when the public address is https). */
  https?: boolean;
}

/** hono/secure-headers with our choices, plus a CSP on pages and JSON, and CORP by path. */
export function securityHeaders({ pageCsp = API_CSP, https = false }: SecurityHeaderOptions = {}): MiddlewareHandler {
  const base = secureHeaders({
    referrerPolicy: 'no-referrer',
    xFrameOptions: 'DENY',
    strictTransportSecurity: https ? 'max-age=15552000' : false,
    crossOriginResourcePolicy: false,
  });
  return async (c, next) => {
    await base(c, next);
    const headers = c.res.headers;
    headers.set('cross-origin-resource-policy', sharedAcrossOrigins(c.req.path) ? 'cross-origin' : 'same-origin');
    // A policy governs documents: pages get theirs; JSON gets `default-src 'none'` should it ever be opened as one.
    // Scripts, styles, images and PDFs are left alone (a policy on a PDF can stop the browser's viewer).
    const type = headers.get('content-type') ?? '';
    if (type.startsWith('text/html')) headers.set('content-security-policy', pageCsp);
    else if (type.startsWith('application/json')) headers.set('content-security-policy', API_CSP);
  };
}

/** The peer of the socket (@hono/node-server), or undefined outside Node (`app.request` in tests). */
function peerAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

/** The key the limits count this request under; see `clientAddress` for `trustProxy`. */
export function requestClient(c: Context, trustProxy: number): string {
  return clientKey(clientAddress(peerAddress(c), c.req.header('x-forwarded-for'), trustProxy));
}

/** U+0000 (PostgreSQL refuses it in text and JSON) or a UTF-16 half without its pair (not encodable as UTF-8). */
// eslint-disable-next-line no-control-regex
const UNSAFE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isUnsafeText = (text: string) => UNSAFE_TEXT.test(text);

function decodedOrUndefined(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

/**
 * Refuses a path or query that decodes to U+0000 or a lone surrogate, or that is not valid percent-encoding, before
 * it reaches a route, a database or a log.
 */
export function safeAddress(): MiddlewareHandler {
  return async (c, next) => {
    const url = new URL(c.req.url);
    const parts = [
      ...url.pathname.split('/'),
      ...url.search
        .slice(1)
        .split(/[&=]/)
        .map((p) => p.replaceAll('+', ' ')),
    ];
    for (const part of parts) {
      if (!part.includes('%')) continue;
      const decoded = decodedOrUndefined(part);
      if (decoded === undefined || isUnsafeText(decoded)) {
        throw new ApiError(400, 'invalid_request', 'The address contains an encoding or character that is not allowed.');
      }
    }
    await next();
  };
}

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

/** Passes `body` through and calls `done` once, when it ends, fails or its reader cancels (the client left). */
function onEnd(body: ReadableStream<Uint8Array>, done: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          done();
          controller.close();
        } else {
          controller.enqueue(chunk.value);
        }
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
}

/**
 * Holds a slot of `limiter` for as long as an event stream stays open. Over the client's share: 429; the whole
 * server full: 503. Both say when to come back (`Retry-After`); the element meanwhile polls.
 */
export function streamLimit(limiter: StreamLimiter, trustProxy: number, retryAfterSeconds = 30): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== 'GET') return next();
    const slot = limiter.acquire(requestClient(c, trustProxy));
    if ('refused' in slot) {
      c.header('retry-after', String(retryAfterSeconds));
      return slot.refused === 'client'
        ? c.json(errorBody('ApiError', 'too_many_streams', 'Too many open status streams from this address.'), 429)
        : c.json(errorBody('ApiError', 'server_busy', 'Too many open status streams. Try again shortly.'), 503);
    }
    try {
      await next();
    } catch (error) {
      slot.release();
      throw error;
    }
    if (c.res.status === 200 && c.res.headers.get('content-type')?.startsWith('text/event-stream')) {
      // Written straight to Node's response (see `eventStreamResponse`): the slot is freed when it ends.
      if (onRawStreamEnd(c, slot.release)) return;
      const body = c.res.body;
      if (body) {
        c.res = new Response(onEnd(body, slot.release), c.res);
        return;
      }
    }
    slot.release();
  };
}

/** One token of `limiter` per POST from a client; without one, 429 with `Retry-After`. */
export function rateLimit(limiter: RateLimiter, trustProxy: number): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== 'POST') return next();
    const verdict = limiter.take(requestClient(c, trustProxy));
    if (!verdict.ok) {
      c.header('retry-after', String(Math.max(1, Math.ceil(verdict.retryAfterMs / 1000))));
      return c.json(errorBody('ApiError', 'rate_limited', 'Too many checkouts from this address. Try again in a moment.'), 429);
    }
    await next();
  };
}
