/**
 * `Cross-Origin-Resource-Policy` of every route, from one table: which answers a page on another origin may load
 * (`cross-origin`) and which only our own pages may (`same-origin`). A route the table does not name is `same-origin`,
 * so a new route is never shared by accident. `securityHeaders` (security-headers.ts) sets the header from it on every answer.
 *
 * Shared are only what the element loads from a storefront on another origin: its module under `/widget/`, and the
 * public checkout API it calls (create, read, status stream, the order lookup). The provider's webhook, the back office
 * (its CSV export included), `/healthz`, the demo and the emulator are for our own origin or for servers, never for a
 * foreign page.
 */

export type ResourcePolicy = 'cross-origin' | 'same-origin';

/**
 * Route patterns as the product mounts them (server/server.ts: the BFF at `/api`, the back office at `/api/admin`, the
 * element at `/widget`): `:name` is one path segment, a final `*` anything below. The first match wins.
 */
export const RESOURCE_POLICIES: readonly (readonly [pattern: string, policy: ResourcePolicy])[] = [
  // The element's module and its manifest, loaded as a module script by storefronts.
  ['/widget/*', 'cross-origin'],
  // The public checkout API the element calls from a storefront (CORS for ALLOWED_ORIGINS on top).
  ['/api/checkouts', 'cross-origin'],
  ['/api/checkouts/:id', 'cross-origin'],
  ['/api/checkouts/:id/events', 'cross-origin'],
  // The order lookup: also read without CORS (`no-cors`) by the element, to tell "this page is not allowed" from
  // "the service is unreachable"; a same-origin policy would make both look alike.
  ['/api/orders/:orderId/checkout', 'cross-origin'],
  // Named so that no broader rule ever shares them.
  ['/api/webhooks/*', 'same-origin'],
  ['/api/admin/*', 'same-origin'],
  ['/healthz', 'same-origin'],
];

/** The default of a route the table does not name. */
export const DEFAULT_RESOURCE_POLICY: ResourcePolicy = 'same-origin';

/** A pattern as a regular expression over the whole path (a trailing slash allowed). */
function patternRegExp(pattern: string): RegExp {
  const body = pattern
    .split('/')
    .map((segment) => {
      if (segment === '*') return '.*';
      if (segment.startsWith(':')) return '[^/]+';
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${body}/?$`);
}

const compiled = RESOURCE_POLICIES.map(([pattern, policy]) => [patternRegExp(pattern), policy] as const);

/** The policy of an answer to `path` (the request's path, as the root app sees it). */
export function resourcePolicy(path: string): ResourcePolicy {
  return compiled.find(([regexp]) => regexp.test(path))?.[1] ?? DEFAULT_RESOURCE_POLICY;
}
