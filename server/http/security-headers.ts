/**
 * The security headers of every answer, the product's and the demo's (the emulator's under it too): hono/secure-headers
 * with our choices, a CSP on pages and JSON, and `Cross-Origin-Resource-Policy` per route from the table of
 * `resource-policy.ts`. Answers written without the app (on a raw socket, by the fast webhook route) take theirs from
 * `BASE_SECURITY_HEADERS` and `jsonAnswerHeaders`.
 */
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { resourcePolicy } from './resource-policy';

/** For responses that are not pages (JSON, scripts): nothing may load from them, frame them or submit to them. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The headers every answer carries, also those written by hand on a raw socket (see server/node/listen.ts). */
export const BASE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'content-security-policy': API_CSP,
};

export interface SecurityHeaderOptions {
  /** Content-Security-Policy of HTML answers; JSON answers get `API_CSP`. */
  pageCsp?: string;
  /** Add Strict-Transport-Security (only when the public address is https). */
  https?: boolean;
}

/** hono/secure-headers' headers that only a document (a page, a frame, a download) acts on. */
const DOCUMENT_ONLY_HEADERS = [
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

/**
 * What `securityHeaders` puts on a JSON answer at `path`, for an answer written without the app (the provider's
 * webhook, server/node/webhook-route.ts). A test holds the two equal.
 */
export function jsonAnswerHeaders(path: string, { https = false }: { https?: boolean } = {}): Record<string, string> {
  return {
    'content-security-policy': API_CSP,
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': resourcePolicy(path),
    'origin-agent-cluster': '?1',
    'referrer-policy': 'no-referrer',
    ...(https && { 'strict-transport-security': 'max-age=15552000' }),
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'DENY',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  };
}

/**
 * hono/secure-headers with our choices, plus a CSP on pages and JSON, and `Cross-Origin-Resource-Policy` per route from
 * the table of `resource-policy.ts` (`same-origin` unless the route is one a storefront loads).
 */
export function securityHeaders({ pageCsp = API_CSP, https = false }: SecurityHeaderOptions = {}): MiddlewareHandler {
  const base = secureHeaders({
    referrerPolicy: 'no-referrer',
    xFrameOptions: 'DENY',
    strictTransportSecurity: https ? 'max-age=15552000' : false,
    crossOriginResourcePolicy: false,
  });
  return async (c, next) => {
    await base(c, next);
    const headers = c.res.headers;
    headers.set('cross-origin-resource-policy', resourcePolicy(c.req.path));
    // A policy governs documents: pages get theirs; JSON gets `default-src 'none'` should it ever be opened as one.
    // Scripts, styles, images and PDFs are left alone (a policy on a PDF can stop the browser's viewer). A route that
    // set a policy of its own keeps it (the console's page, the emulator's bank page).
    const type = headers.get('content-type') ?? '';
    const own = headers.has('content-security-policy');
    if (type.startsWith('text/html') && !own) headers.set('content-security-policy', pageCsp);
    else if (type.startsWith('application/json') && !own) headers.set('content-security-policy', API_CSP);
    // A script is never a document: headers that only govern documents are dead weight on the element's cold load.
    else if (type.startsWith('text/javascript')) for (const name of DOCUMENT_ONLY_HEADERS) headers.delete(name);
  };
}
