/**
 * What every request meets before a route: security headers, refusal of bytes no database or JSON writer should see,
 * and per-client limits on status streams and on checkout creation (the body's guards are in `body-guards.ts`). Each
 * refusal is the BFF's envelope with a 4xx (or 503 when the whole server is full).
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { clientAddress, clientKey, type RateLimiter, type StreamLimiter } from '../lib/limits';
import { invalidRequest, originNotAllowed, rateLimited, serverBusy, tooManyStreams } from '../payments/errors';
import { resourcePolicy } from './resource-policy';
import { sendError } from './respond';
import { onRawStreamEnd } from './stream';

/** For responses that are not pages (JSON, scripts): nothing may load from them, frame them or submit to them. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The headers every answer carries, also those written by hand on a raw socket (see `server/server.ts`). */
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
 * webhook, ./webhook-node.ts). A test holds the two equal.
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

/** The peer of the socket (@hono/node-server), or undefined outside Node (`app.request` in tests). */
function peerAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

/** The key the limits count this request under; see `clientAddress` for `trustProxy`. */
export function requestClient(c: Context, trustProxy: number): string {
  return clientKey(clientAddress(peerAddress(c), c.req.header('x-forwarded-for'), trustProxy));
}

/** U+0000 (PostgreSQL refuses it in text and JSON) or a UTF-16 half without its pair (not encodable as UTF-8). */
// eslint-disable-next-line no-control-regex
const UNSAFE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isUnsafeText = (text: string) => UNSAFE_TEXT.test(text);

function decodedOrUndefined(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

/**
 * Refuses a path or query that decodes to U+0000 or a lone surrogate, or that is not valid percent-encoding, before
 * it reaches a route, a database or a log.
 */
export function safeAddress(): MiddlewareHandler {
  return async (c, next) => {
    const url = new URL(c.req.url);
    const parts = [
      ...url.pathname.split('/'),
      ...url.search
        .slice(1)
        .split(/[&=]/)
        .map((p) => p.replaceAll('+', ' ')),
    ];
    for (const part of parts) {
      if (!part.includes('%')) continue;
      const decoded = decodedOrUndefined(part);
      if (decoded === undefined || isUnsafeText(decoded)) {
        throw invalidRequest('The address contains an encoding or character that is not allowed.');
      }
    }
    await next();
  };
}

/** Passes `body` through and calls `done` once, when it ends, fails or its reader cancels (the client left). */
function onEnd(body: ReadableStream<Uint8Array>, done: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          done();
          controller.close();
        } else {
          controller.enqueue(chunk.value);
        }
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
}

/**
 * Holds a slot of `limiter` for as long as an event stream stays open. Over the client's share: 429; the whole
 * server full: 503. Both say when to come back (`Retry-After`); the element meanwhile polls. A HEAD holds no slot:
 * its answer is the headers alone (see `headersOnly`); any other method is the route's to refuse.
 */
export function streamLimit(limiter: StreamLimiter, trustProxy: number, retryAfterSeconds = 30): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method === 'HEAD') return headersOnly(c, next);
    if (c.req.method !== 'GET') return next();
    const slot = limiter.acquire(requestClient(c, trustProxy));
    if ('refused' in slot) {
      c.header('retry-after', String(retryAfterSeconds));
      return sendError(c, slot.refused === 'client' ? tooManyStreams() : serverBusy());
    }
    try {
      await next();
    } catch (error) {
      slot.release();
      throw error;
    }
    if (c.res.status === 200 && c.res.headers.get('content-type')?.startsWith('text/event-stream')) {
      // Written straight to Node's response (see `eventStreamResponse`): the slot is freed when it ends.
      if (onRawStreamEnd(c, slot.release)) return;
      const body = c.res.body;
      if (body) {
        c.res = new Response(onEnd(body, slot.release), c.res);
        return;
      }
    }
    slot.release();
  };
}

/**
 * A HEAD (which Hono routes to the GET handler) answered with the headers alone: a body the route made anyway is
 * cancelled, so nothing it opened (a subscription, timers) outlives an answer that sends none of it.
 */
async function headersOnly(c: Context, next: () => Promise<void>) {
  await next();
  const body = c.res.body;
  if (!body) return;
  c.res = new Response(null, c.res);
  await body.cancel().catch(() => undefined);
}

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
