/**
 * The demo's way to the emulator's admin routes (the provider's portal stand-in), `/demo/api/sandbox-admin/*`, used by
 * the sandbox portal page (demo/pages/sandbox-portal.ts): review receivers and accounts, approve or reject payment
 * requests, complete or fail cash-outs. Only paths below the emulator's `/sandbox/admin` are reached, and the browser
 * never holds the emulator's admin key: it is added here.
 *
 * Opened by the bearer ADMIN_TOKEN (scripts, tests) or by the console's session cookie of an operator or an owner,
 * looked up as the product itself does (server/accounts/sessions.ts): a viewer may drive nothing. A cookie-borne write
 * must also carry the page's own `Origin`, as the back office asks; refusals are the back office's envelopes
 * (`admin_unauthorized` 401, `admin_forbidden` 403, `cross_site_write` 403).
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { getCookie } from 'hono/cookie';
import { adminForbidden, adminUnauthorized, crossSiteWrite } from '../server/accounts/errors';
import { createSessions } from '../server/accounts/sessions';
import { hasRole } from '../server/backoffice/actor';
import { originAllowed, SESSION_COOKIE } from '../server/backoffice/auth';
import { sendError } from '../server/bff/respond';
import type { Clock } from '../server/lib/clock';
import { safeEqual } from '../server/lib/secrets';
import { ApiError, errorBody, methodNotAllowed } from '../server/payments/errors';
import { ADMIN_KEY_HEADER, type Sandbox } from '../server/sandbox';
import type { Store } from '../server/store/types';

/** Largest body the portal sends to the emulator's admin routes (the emulator takes up to 64 KiB of JSON). */
const SANDBOX_ADMIN_MAX_BODY = 64 * 1024;

/** What the emulator's admin routes take, so what the proxy forwards (fetch's Request refuses TRACE and the like). */
const PROXIED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'];

const READS = ['GET', 'HEAD'];

export interface SandboxAdminOptions {
  /** The bearer token of the back office (ADMIN_TOKEN, or the one kept in DATA_DIR). */
  adminToken: string;
  /** The product's store: the console's sessions and users are read from it. */
  store: Store;
  clock: Clock;
  /** The origins a cookie-borne write may come from: the demo's own (its public address and loopback spellings). */
  allowedOrigins: readonly string[];
  /** The embedded emulator: its admin routes are reached in process, with its admin key added here. */
  sandbox: Pick<Sandbox, 'app' | 'adminKey'>;
}

/** Lets through the bearer admin token, or the session of an operator or owner; refuses anything else. */
function portalAccess({ adminToken, store, clock, allowedOrigins }: SandboxAdminOptions): MiddlewareHandler {
  const sessions = createSessions({ store, clock });
  return async (c, next) => {
    const header = c.req.header('authorization');
    if (header !== undefined) {
      // A wrong token is refused, never tried as a cookie (as the back office does).
      if (!safeEqual(header.startsWith('Bearer ') ? header.slice(7) : undefined, adminToken)) throw adminUnauthorized();
      return next();
    }
    const live = await sessions.resolve(getCookie(c, SESSION_COOKIE));
    if (!live) throw adminUnauthorized();
    if (!hasRole(live.user.role, 'operator')) throw adminForbidden('operator');
    if (!READS.includes(c.req.method) && !originAllowed(c.req.header('origin'), allowedOrigins)) throw crossSiteWrite();
    await next();
  };
}

/** Forwards the request below `/admin` of the emulator, with its admin key, and answers what it answers (not cached). */
async function forward(c: Context, sandbox: SandboxAdminOptions['sandbox']) {
  const url = new URL(c.req.url);
  const rest = /\/sandbox-admin(\/.*)?$/.exec(url.pathname)?.[1] ?? '';
  const target = new URL(`/admin${rest}${url.search}`, 'http://sandbox.invalid');
  if (target.pathname !== '/admin' && !target.pathname.startsWith('/admin/')) throw new ApiError('not_found', 'No such route.');
  const method = c.req.method;
  if (!PROXIED_METHODS.includes(method)) {
    c.header('allow', PROXIED_METHODS.join(', '));
    return sendError(c, methodNotAllowed());
  }
  const headers: Record<string, string> = { [ADMIN_KEY_HEADER]: sandbox.adminKey };
  for (const name of ['content-type', 'accept']) {
    const value = c.req.header(name);
    if (value !== undefined) headers[name] = value;
  }
  const body = READS.includes(method) ? undefined : await c.req.arrayBuffer();
  const answer = await sandbox.app.request(target.pathname + target.search, { method, headers, body });
  const forwarded = new Headers(answer.headers);
  forwarded.set('cache-control', 'no-store');
  return new Response(answer.body, { status: answer.status, headers: forwarded });
}

/** The proxy's routes; mount at `/demo/api`, after the demo's same-origin write guard and body deadline. */
export function sandboxAdminProxy(options: SandboxAdminOptions) {
  return new Hono()
    .onError((error, c) => {
      if (error instanceof ApiError) return sendError(c, error);
      throw error;
    })
    .all(
      '/sandbox-admin/*',
      portalAccess(options),
      bodyLimit({
        maxSize: SANDBOX_ADMIN_MAX_BODY,
        onError: (c) => c.json(errorBody('PayloadTooLarge', 'payload_too_large', 'The request body is too large.'), 413),
      }),
      (c) => forward(c, options.sandbox),
    );
}
