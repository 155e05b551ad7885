/**
 * Who is calling the back office: the authentication middleware that `index.ts` puts in front of every route but the
 * sign-in. A request is opened either by `Authorization: Bearer <ADMIN_TOKEN>` (an owner, recorded as `api-token`;
 * a wrong token is refused, never tried as a cookie) or by the console's session cookie `pix_admin` (the user it
 * belongs to, with the role it has now). Cross-site writes: a cookie-opened request other than GET or HEAD must carry
 * an `Origin` that is the console's own, else 403 `cross_site_write` (SameSite=Strict stops that too; two defences,
 * not one). Bearer requests are not checked: nothing ambient sends a header. The middleware then sets the actor and
 * a recorder writing the audit trail as that actor, from its address (`requestClient`, under the BFF's `trustProxy`).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Clock } from '../lib/clock';
import { safeEqual } from '../lib/secrets';
import { requestClient } from '../http/client-address';
import type { AuditStore } from '../store/accounts';
import { auditRecorder } from '../accounts/audit';
import { adminUnauthorized, crossSiteWrite } from '../accounts/errors';
import { SESSION_MAX_MS, type Sessions } from '../accounts/sessions';
import type { Actor, BackOfficeEnv } from './actor';

/** The console's session cookie. */
export const SESSION_COOKIE = 'pix_admin';

export interface AuthOptions {
  adminToken: string;
  store: AuditStore;
  clock: Clock;
  sessions: Sessions;
  trustProxy: number;
  /** The origins a cookie-opened write may come from: the console's own. */
  allowedOrigins: readonly string[];
  log: { error(...args: unknown[]): void };
}

const SAFE_METHODS = ['GET', 'HEAD'];

/** True when `origin` (the request's `Origin`) is one of `allowed`; a missing or `null` origin never is. */
export const originAllowed = (origin: string | undefined, allowed: readonly string[]) =>
  origin !== undefined && origin !== 'null' && allowed.includes(origin);

/** Sets the session cookie: HttpOnly, SameSite=Strict, Path=/, 12 hours, and Secure when the console is served over https. */
export function setSessionCookie(c: Context, token: string, secure: boolean): void {
  setCookie(c, SESSION_COOKIE, token, { httpOnly: true, sameSite: 'Strict', path: '/', maxAge: SESSION_MAX_MS / 1000, secure });
}

/** Tells the browser to drop the session cookie. */
export function clearSessionCookie(c: Context, secure: boolean): void {
  deleteCookie(c, SESSION_COOKIE, { httpOnly: true, sameSite: 'Strict', path: '/', secure });
}

/** The actor of the request's credentials; a 401 `admin_unauthorized` without valid ones, a 403 `cross_site_write`. */
async function actorOf(c: Context, { adminToken, sessions, allowedOrigins }: AuthOptions, ip: string, secure: boolean): Promise<Actor> {
  const header = c.req.header('authorization');
  if (header !== undefined) {
    const token = header.startsWith('Bearer ') ? header.slice(7) : undefined;
    if (!safeEqual(token, adminToken)) throw adminUnauthorized();
    return { kind: 'token', id: 'api-token', name: 'api-token', role: 'owner', ip };
  }
  const cookie = getCookie(c, SESSION_COOKIE);
  const live = await sessions.resolve(cookie);
  if (!live) {
    if (cookie !== undefined) clearSessionCookie(c, secure);
    throw adminUnauthorized();
  }
  if (!SAFE_METHODS.includes(c.req.method) && !originAllowed(c.req.header('origin'), allowedOrigins)) throw crossSiteWrite();
  const { user } = live;
  return { kind: 'user', id: user.id, name: user.email, role: user.role, ip, sessionExpiresAt: live.expiresAt, session: live.hash };
}

/** The middleware: sets `actor` and `audit` on the context, or refuses the request. */
export function authenticate(options: AuthOptions & { secureCookies: boolean }): MiddlewareHandler<BackOfficeEnv> {
  const { store, clock, log, trustProxy, secureCookies } = options;
  return async (c, next) => {
    const ip = requestClient(c, trustProxy);
    const actor = await actorOf(c, options, ip, secureCookies);
    c.set('actor', actor);
    c.set('audit', auditRecorder({ store, clock, log, who: { actor: actor.name, role: actor.role, ip } }));
    await next();
  };
}
