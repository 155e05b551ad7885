/**
 * The guards of a sub-app whose bodies are small JSON (the shoppers' routes, the provider's webhook, the back office):
 * the body type (`body-type.ts`), the deadline (`body-deadline.ts`) and the size limit, in that order. Each sub-app
 * that reads JSON puts them in front of its routes; a route that streams its body (the back office's invoice upload)
 * answers before them.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { payloadTooLarge } from '../payments/errors';
import { bodyDeadline } from './body-deadline';
import { jsonOnly } from './body-type';
import { sendError } from './error-envelope';

/** The largest JSON body any route takes. */
export const JSON_BODY_MAX_BYTES = 64 * 1024;

export interface JsonBodyOptions {
  /** A body must arrive within this (`BODY_TIMEOUT_MS`). */
  timeoutMs: number;
  /** Storefront origins whose `text/plain` body is JSON too (the create and the order lookup). */
  plainTextFrom?: readonly string[];
  /** Any declared type is read as JSON: for a sender proven otherwise (the provider's webhook, by its secret header). */
  anyContentType?: boolean;
}

/** No body, or one the deadline guard has read already (it is then Hono's cached text). */
const bodyRead = (c: Context) =>
  c.req.method === 'GET' || c.req.method === 'HEAD' || (c.req.bodyCache as { text?: unknown }).text !== undefined;

export function jsonBodyGuards({ timeoutMs, plainTextFrom = [], anyContentType = false }: JsonBodyOptions): MiddlewareHandler[] {
  const limit = bodyLimit({ maxSize: JSON_BODY_MAX_BYTES, onError: (c) => sendError(c, payloadTooLarge()) });
  return [
    ...(anyContentType ? [] : [jsonOnly({ plainTextFrom })]),
    bodyDeadline(timeoutMs, { maxBytes: JSON_BODY_MAX_BYTES }),
    // A request without a body, or one whose body the deadline guard already read (its length within the limit), has
    // nothing for the size limit to look at; touching `c.req.raw.body` would only build a Web stream for it.
    (c, next) => (bodyRead(c) ? next() : limit(c, next)),
  ];
}
