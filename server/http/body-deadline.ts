/** A deadline on reading a request's body: a slow sender gets 408 `body_timeout` and loses the connection. */
import type { MiddlewareHandler } from 'hono';
import { hasBody, nodeIncoming, preloadText, readableIncoming, readIncoming, streamWithDeadline } from '../lib/node-body';
import { bodyTimeout } from '../payments/errors';

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
export function bodyDeadline(ms: number, { maxBytes = Infinity }: { maxBytes?: number } = {}): MiddlewareHandler {
  return async (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next();
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
