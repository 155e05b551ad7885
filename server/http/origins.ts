/**
 * Which pages may call the shoppers' API from a browser: the storefront origins (`ALLOWED_ORIGINS`, else the public
 * address's own), the CORS answer they get, and the readable refusal any other page gets before a route runs.
 */
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { originNotAllowed } from '../payments/errors';
import { sendError } from './error-envelope';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost'];

/**
 * The storefront origins when ALLOWED_ORIGINS is unset: the origin of the public base URL. On a loopback address,
 * `localhost` and `127.0.0.1` are the same development storefront, so both spellings are allowed (same scheme and port).
 */
export function defaultAllowedOrigins(publicBaseUrl: string): string[] {
  const own = new URL(publicBaseUrl);
  if (!LOOPBACK_NAMES.includes(own.hostname)) return [own.origin];
  const spellings = [own.hostname, ...LOOPBACK_NAMES.filter((name) => name !== own.hostname)];
  return spellings.map((hostname) => {
    const origin = new URL(own.origin);
    origin.hostname = hostname;
    return origin.origin;
  });
}

/**
 * CORS for the storefronts: `GET` and `POST` from `allowedOrigins` with the request headers `allowHeaders`, the
 * preflight kept for ten minutes. The element sets its countdown by the server's clock, from the `Date` header, which
 * CORS hides unless exposed.
 */
export const storefrontCors = (allowedOrigins: readonly string[], allowHeaders: string[]): MiddlewareHandler =>
  cors({
    origin: (origin) => (allowedOrigins.includes(origin) ? origin : null),
    allowMethods: ['GET', 'POST'],
    allowHeaders,
    exposeHeaders: ['date'],
    maxAge: 600,
  });

/**
 * Refuses, before any route, a browser's request from a page on another origin that `allowedOrigins` does not name:
 * `403 origin_not_allowed`, which that page may read (`Access-Control-Allow-Origin: *`, no credentials). CORS would
 * hide any other answer from it, and a hidden answer looks to the page exactly like a network failure: this way the
 * element tells its shopper that the page may not take payments, and the page's console why, instead of blaming the
 * connection. The answer holds the refusal alone, which the CORS headers of any answer show anyway, and the route
 * never runs for such a page. Only requests the browser marks as coming from another origin (`Sec-Fetch-Site:
 * same-site` or `cross-site`, with an `Origin`) are refused; the BFF's own pages, servers and tools (which send no
 * `Sec-Fetch-Site`) meet the routes as before, and preflights are left to CORS.
 */
export function refuseForeignOrigins(allowedOrigins: readonly string[]): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header('origin');
    const site = c.req.header('sec-fetch-site');
    const foreign = site === 'cross-site' || site === 'same-site';
    if (c.req.method === 'OPTIONS' || !origin || !foreign || allowedOrigins.includes(origin)) return next();
    c.header('access-control-allow-origin', '*');
    c.header('vary', 'Origin');
    c.header('cache-control', 'no-store');
    return sendError(c, originNotAllowed());
  };
}
