/**
 * Refuses requests from other sites on the demo's API and on the emulator it mounts. Their state changes need no
 * credential a foreign page lacks (the sandbox panel completes or cancels any payment by its transaction id, the shop
 * places orders), so without this a form posted by any page a visitor opens would act on a public demo, and a page
 * on a name of its own pointed at the demo's address (DNS rebinding) would drive it from the visitor's machine.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { errorBody } from '../server/http/error-envelope';

/** Methods that change nothing; every other one is a write. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What a `Host` header may hold: a name or an address, and a port; nothing else is parsed. */
const HOST_HEADER = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** The name of the `Host` header, without its port, lower-cased; undefined when it is no host. */
function hostName(c: Context): string | undefined {
  const host = c.req.header('host');
  return host !== undefined && HOST_HEADER.test(host) ? new URL(`http://${host}`).hostname : undefined;
}

/**
 * Lets a request through only when it names one of `ownOrigins`' hosts (the public address, the listening one and
 * their loopback spellings), whatever its port, else 403 `host_not_allowed`: under DNS rebinding the attacker's page
 * and its requests share the attacker's name, so the browser's `Origin` and `Sec-Fetch-Site` vouch for it and only
 * the `Host` tells; reads too, since the emulator's reads are its data. Then lets a write through only from our own
 * origin, as the browser tells it: `Sec-Fetch-Site: same-origin` when the browser sends that header (every current
 * one does, and a page cannot set it), else an `Origin` in `ownOrigins`. A request with neither header comes from no
 * browser page (a script, curl, the tests) and passes: it could send anything anyway. Refused: 403
 * `cross_site_refused`, before the route reads anything.
 */
export function sameOriginWrites(ownOrigins: readonly string[]): MiddlewareHandler {
  const ownHosts = new Set(ownOrigins.map((origin) => new URL(origin).hostname));
  return async (c, next) => {
    const host = hostName(c);
    if (host === undefined || !ownHosts.has(host)) {
      // The demo's own refusals, outside the BFF's contract (like its other codes).
      const message = 'This demo answers at its own address only (PUBLIC_BASE_URL or the loopback one).';
      return c.json(errorBody('Forbidden', 'host_not_allowed', message), 403);
    }
    if (READS.has(c.req.method)) return next();
    const site = c.req.header('sec-fetch-site');
    const origin = c.req.header('origin');
    const fromHere = site !== undefined ? site === 'same-origin' : origin === undefined || ownOrigins.includes(origin);
    if (!fromHere) {
      return c.json(errorBody('Forbidden', 'cross_site_refused', 'This demo takes writes from its own pages only.'), 403);
    }
    await next();
  };
}
