/**
 * The body types a state change may carry: JSON, or nothing. A `text/plain` body is JSON too when a storefront sent
 * it (`plainTextAllowed`), which spares the shopper's browser a CORS preflight.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { hasBody } from '../lib/node-body';
import { unsupportedMediaType } from '../payments/errors';

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
 * a cross-site form or a "simple" request (text/plain, no preflight) never reaches a route. `plainTextFrom` names the
 * storefront origins whose `text/plain` body is read as JSON (see `plainTextAllowed`).
 */
export function jsonOnly({ plainTextFrom = [] }: { plainTextFrom?: readonly string[] } = {}): MiddlewareHandler {
  return async (c, next) => {
    if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(c.req.method)) {
      const type = c.req.header('content-type');
      if ((type !== undefined || hasBody(c)) && !isJsonType(type) && !plainTextAllowed(c, plainTextFrom)) {
        throw unsupportedMediaType();
      }
    }
    await next();
  };
}
