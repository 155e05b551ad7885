/**
 * The HTTP side of the metrics: the duration of every answer by its route pattern (`routePath` after the handlers ran:
 * the pattern of the one that answered, so `/api/checkouts/:id`, never a checkout's id), and `GET /metrics` itself.
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, Handler, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { errorBody } from '../http/error-envelope';
import { secretMatcher } from '../lib/secrets';
import type { Metrics } from './metrics';
import type { MetricsRegistry } from './registry';

/** Times each request to its answer (an event stream's: to its headers). */
export function httpMetrics(metrics: Metrics, now: () => number = () => performance.now()): MiddlewareHandler {
  return async (c, next) => {
    const started = now();
    try {
      await next();
    } finally {
      metrics.httpRequest(routePath(c) || 'unmatched', c.req.method, c.res.status, (now() - started) / 1000);
    }
  };
}

/** Who may scrape: the bearer of `token`; without one, any local client (the demo) or nobody (production). */
export type ScrapeAccess = { token: string } | { loopbackOnly: true } | { closed: true };

/** Whether the socket's peer is this machine (outside Node, as in `app.request`, it is not). */
function fromLoopback(c: Context): boolean {
  let address: string | undefined;
  try {
    address = getConnInfo(c).remote.address;
  } catch {
    return false;
  }
  return address !== undefined && /^(127\.|::1$|::ffff:127\.)/.test(address);
}

/** Whether the request says it carries a body (a length above 0, or chunks). */
const hasBody = (c: Context) => Number(c.req.header('content-length') ?? 0) > 0 || c.req.header('transfer-encoding') !== undefined;

const notFound = (c: Context) => c.json(errorBody('NotFound', 'not_found', 'No such route.'), 404);

/**
 * `GET /metrics` in Prometheus's text format. A wrong or missing token is a 401 in the error envelope, compared in
 * constant time; closed (no METRICS_TOKEN in production), or open to the loopback only and asked from elsewhere, the
 * route answers as if it did not exist.
 */
export function metricsRoute(registry: Pick<MetricsRegistry, 'expose' | 'contentType'>, access: ScrapeAccess): Handler {
  const matches = 'token' in access ? secretMatcher(access.token) : undefined;
  return async (c) => {
    if ('closed' in access) return notFound(c);
    if ('loopbackOnly' in access && !fromLoopback(c)) return notFound(c);
    if (matches) {
      const given = /^Bearer (.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
      if (!matches(given)) {
        c.header('www-authenticate', 'Bearer realm="metrics"');
        return c.json(errorBody('AuthenticationError', 'metrics_unauthorized', 'Send the metrics token as a bearer token.'), 401);
      }
    }
    // A scrape sends no body. One sent anyway is refused with a short answer rather than left unread under a long one:
    // the fuzz suite's GETs with a 70 KB and a 1 MB body saw the exposition cut short (the connection closed while the
    // body was still unread), which a short answer, as /healthz gives, does not meet.
    if (hasBody(c)) return c.json(errorBody('ApiError', 'bad_request', 'GET /metrics takes no body.'), 400);
    c.header('cache-control', 'no-store');
    return c.body(await registry.expose(), 200, { 'content-type': registry.contentType });
  };
}
