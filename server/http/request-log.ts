/**
 * One line per request, through the `log` the server was started with (tests pass a quiet one): the fields `method`,
 * `path`, `status` and `ms`, and the message `GET /api/checkouts/co_1 200`; the log adds the request's id and the
 * payment ids it learnt (server/lib/request-scope.ts). Only the method and the path are written: a query string may
 * carry what a log must not keep, so it shows as `?…`; never a header or a body. A client that left before its body
 * was in is a 499 line and nothing more (`clientLeft` of server/lib/node-body.ts): no error was ours.
 */
import type { MiddlewareHandler } from 'hono';

export type LineLog = Pick<Console, 'log'>;

/** The request's path as logged: never its query string. */
export function loggedPath(url: string): string {
  const { pathname, search } = new URL(url);
  return search ? `${pathname}?…` : pathname;
}

/** The fields of a request's line. */
export interface RequestLine {
  method: string;
  path: string;
  status: number;
  ms: number;
}

/** Writes the request's line: its fields, and `GET /api/checkouts/co_1 200` as its message. */
export function logRequest(log: LineLog, method: string, path: string, status: number, ms: number): void {
  const line: RequestLine = { method, path, status, ms: Math.round(ms) };
  log.log(line, `${method} ${path} ${status}`);
}

/** Logs each request once its answer is known (for an event stream: when it starts). */
export function requestLog(log: LineLog, now: () => number = () => performance.now()): MiddlewareHandler {
  return async (c, next) => {
    const started = now();
    try {
      await next();
    } finally {
      // An error a handler threw has become the app's error answer by now; its status is the one sent.
      logRequest(log, c.req.method, loggedPath(c.req.url), c.res.status, now() - started);
    }
  };
}
