/**
 * One line per request (`GET /api/checkouts/co_1 200 4ms`), through the `log` the server was started with (tests pass
 * a quiet one). Only the method and the path are written: a query string may carry what a log must not keep, so it
 * shows as `?…`. A client that left before its body was in is a 499 line and nothing more (`clientLeft` of
 * server/lib/node-body.ts): no error was ours.
 */
import type { MiddlewareHandler } from 'hono';

export type LineLog = Pick<Console, 'log'>;

/** The request's path as logged: never its query string. */
export function loggedPath(url: string): string {
  const { pathname, search } = new URL(url);
  return search ? `${pathname}?…` : pathname;
}

/** The request log's line: `GET /api/checkouts/co_1 200 4ms` (the path as `loggedPath` writes it). */
export const requestLine = (method: string, path: string, status: number, ms: number) => `${method} ${path} ${status} ${Math.round(ms)}ms`;

/** Logs each request once its answer is known (for an event stream: when it starts). */
export function requestLog(log: LineLog, now: () => number = () => performance.now()): MiddlewareHandler {
  return async (c, next) => {
    const started = now();
    try {
      await next();
    } finally {
      // An error a handler threw has become the app's error answer by now; its status is the one sent.
      log.log(requestLine(c.req.method, loggedPath(c.req.url), c.res.status, now() - started));
    }
  };
}
