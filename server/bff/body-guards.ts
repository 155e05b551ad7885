/**
 * The guards of a request's body: JSON-only state changes, and a deadline on reading the body (a slow sender gets
 * 408 and loses the connection). Each refusal is the BFF's envelope with a 4xx.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { hasBody, nodeIncoming, preloadText, readableIncoming, readIncoming, streamWithDeadline } from '../lib/node-body';
import { bodyTimeout, unsupportedMediaType } from '../payments/errors';

/** `application/json`, with parameters or without. */
export const isJsonType = (type: string | undefined) => type !== undefined && /^application\/json\s*(;|$)/i.test(type.trim());

/** `text/plain`, with parameters or without: the one body type a cross-origin `fetch` sends without a preflight. */
export const isPlainTextType = (type: string | undefined) => type !== undefined && /^text\/plain\s*(;|$)/i.test(type.trim());

/**
 * Whether a `text/plain` body may be read as JSON: only from a page whose origin is one of `origins`, which a browser
 * proves with the `Origin` header it always sends on a cross-origin `fetch`. A form posted from any other page (its
 * `Origin` is that page's, or `null`), or a script that sends no `Origin`, gets the usual 415 and never reaches the
 * route. The element sends its create this way from a storefront on another origin, which saves the shopper the
 * CORS preflight: a whole round trip before the QR on a phone's network.
 */
export function plainTextAllowed(c: Context, origins: readonly string[]): boolean {
  const origin = c.req.header('origin');
  return isPlainTextType(c.req.header('content-type')) && origin !== undefined && origins.includes(origin);
}

/**
 * State-changing calls carry JSON or nothing: a body or a content type other than `application/json` is a 415, so
 * a cross-site form or a "simple" request (text/plain, no preflight) never reaches a route. `plainTextFrom` names,
 * for a request, the storefront origins whose `text/plain` body it reads as JSON (see `plainTextAllowed`).
 */
export function jsonOnly({
  except = () => false,
  plainTextFrom = () => [],
}: { except?: (c: Context) => boolean; plainTextFrom?: (c: Context) => readonly string[] } = {}): MiddlewareHandler {
  return async (c, next) => {
    if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(c.req.method) && !except(c)) {
      const type = c.req.header('content-type');
      if ((type !== undefined || hasBody(c)) && !isJsonType(type) && !plainTextAllowed(c, plainTextFrom(c))) {
        throw unsupportedMediaType();
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
      return bodyTimeout();
    };
    const deadline = { ms, onTimeout: timeout, setTimer: (t: ReturnType<typeof setTimeout>) => (timer = t) };
    const incoming = readableIncoming(c, maxBytes);
    if (incoming) preloadText(c, readIncoming(incoming, deadline));
    else streamWithDeadline(c, deadline);
    try {
      await next();
    } finally {
      clearTimeout(timer);
    }
    // The rest of the body may still be on its way: don't keep the connection for it.
    if (expired) c.res.headers.set('connection', 'close');
  };
}
