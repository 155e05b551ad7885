/**
 * Who is calling the back office: the authentication middleware that `index.ts` puts in front of every route but the
 * sign-in. A request is opened by `Authorization: Bearer <ADMIN_TOKEN>` (the bootstrap owner key, recorded as
 * `api-token`), by `Authorization: Bearer pck_live_…` (a named API key, read from the store on every request so a
 * revocation holds at once on every instance: its role, recorded as `key:<name>`; revoked, expired or unknown: 401),
 * or by the console's session cookie `pix_admin` (the user it belongs to, with the role it has now). A wrong bearer
 * is refused, never tried as a cookie. A key's first use in a minute is recorded as `api_key.use` (its method and
 * path), beside what its requests record themselves. Cross-site writes: a cookie-opened request other than GET or HEAD must carry
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
import type { ApiKeyStore } from '../store/api-keys';
import { keyActor, looksLikeApiKey, useApiKey } from '../accounts/api-keys';
import { auditRecorder } from '../accounts/audit';
import { adminUnauthorized, crossSiteWrite } from '../accounts/errors';
import { SESSION_MAX_MS, type Sessions } from '../accounts/sessions';
import type { Actor, BackOfficeEnv } from './actor';

/** The console's session cookie. */
export const SESSION_COOKIE = 'pix_admin';

export interface AuthOptions {
  adminToken: string;
  store: AuditStore & ApiKeyStore;
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

/** The actor of a bearer token: the ADMIN_TOKEN, or a live named key (and whether this use was noted); else a 401. */
async function bearerActor(token: string | undefined, { adminToken, store, clock }: AuthOptions, ip: string) {
  if (safeEqual(token, adminToken)) return { actor: { kind: 'token', id: 'api-token', name: 'api-token', role: 'owner', ip } as Actor };
  const use = token !== undefined && looksLikeApiKey(token) ? await useApiKey({ store, clock }, token) : undefined;
  if (!use) throw adminUnauthorized();
  const { key, noted } = use;
  return { actor: { kind: 'token', id: key.id, name: keyActor(key), role: key.role, ip } as Actor, noted };
}

/** The actor of the request's credentials; a 401 `admin_unauthorized` without valid ones, a 403 `cross_site_write`. */
async function actorOf(c: Context, options: AuthOptions, ip: string, secure: boolean): Promise<{ actor: Actor; noted?: boolean }> {
  const { sessions, allowedOrigins } = options;
  const header = c.req.header('authorization');
  if (header !== undefined) return bearerActor(header.startsWith('Bearer ') ? header.slice(7) : undefined, options, ip);
  const cookie = getCookie(c, SESSION_COOKIE);
  const live = await sessions.resolve(cookie);
  if (!live) {
    if (cookie !== undefined) clearSessionCookie(c, secure);
    throw adminUnauthorized();
  }
  if (!SAFE_METHODS.includes(c.req.method) && !originAllowed(c.req.header('origin'), allowedOrigins)) throw crossSiteWrite();
  const { user } = live;
  return {
    actor: { kind: 'user', id: user.id, name: user.email, role: user.role, ip, sessionExpiresAt: live.expiresAt, session: live.hash },
  };
}

/** The middleware: sets `actor` and `audit` on the context, or refuses the request. */
export function authenticate(options: AuthOptions & { secureCookies: boolean }): MiddlewareHandler<BackOfficeEnv> {
  const { store, clock, log, trustProxy, secureCookies } = options;
  return async (c, next) => {
    const ip = requestClient(c, trustProxy);
    const { actor, noted } = await actorOf(c, options, ip, secureCookies);
    const audit = auditRecorder({ store, clock, log, who: { actor: actor.name, role: actor.role, ip } });
    c.set('actor', actor);
    c.set('audit', audit);
    if (noted) await audit({ action: 'api_key.use', target: actor.id, outcome: 'ok', details: { method: c.req.method, path: c.req.path } });
    await next();
  };
}
