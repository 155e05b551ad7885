/**
 * Refuses writes from other sites on the demo's API and on the emulator it mounts. Their state changes need no
 * credential a foreign page lacks (the sandbox panel completes or cancels any payment by its transaction id, the shop
 * places orders), so without this a form posted by any page a visitor opens would act on a public demo.
 */
import type { MiddlewareHandler } from 'hono';
import { errorBody } from '../server/payments/errors';

/** Methods that change nothing; every other one is a write. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Lets a write through only from our own origin, as the browser tells it: `Sec-Fetch-Site: same-origin` when the
 * browser sends that header (every current one does, and a page cannot set it), else an `Origin` that is the address
 * the request came to or one of `ownOrigins` (the public address and its loopback spellings). A request with neither
 * header comes from no browser page (a script, curl, the tests) and passes: it could send anything anyway. Refused:
 * 403 `cross_site_refused`, before the route reads anything.
 */
export function sameOriginWrites(ownOrigins: readonly string[]): MiddlewareHandler {
  return async (c, next) => {
    if (READS.has(c.req.method)) return next();
    const site = c.req.header('sec-fetch-site');
    const origin = c.req.header('origin');
    const fromHere =
      site !== undefined
        ? site === 'same-origin'
        : origin === undefined || origin === new URL(c.req.url).origin || ownOrigins.includes(origin);
    if (!fromHere) {
      // The demo's own refusal, outside the BFF's contract (like its other codes).
      return c.json(errorBody('Forbidden', 'cross_site_refused', 'This demo takes writes from its own pages only.'), 403);
    }
    await next();
  };
}
