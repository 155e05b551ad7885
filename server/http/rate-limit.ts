/** A per-client rate limit on state changes (the shoppers' checkout creation): a 429 with `Retry-After` past it. */
import type { MiddlewareHandler } from 'hono';
import type { RateLimiter } from '../lib/limits';
import { rateLimited } from '../payments/errors';
import { requestClient } from './client-address';
import { sendError } from './error-envelope';

/** One token of `limiter` per POST from a client; without one, 429 with `Retry-After`. */
export function rateLimit(limiter: RateLimiter, trustProxy: number): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== 'POST') return next();
    const verdict = limiter.take(requestClient(c, trustProxy));
    if (!verdict.ok) {
      c.header('retry-after', String(Math.max(1, Math.ceil(verdict.retryAfterMs / 1000))));
      return sendError(c, rateLimited());
    }
    await next();
  };
}
