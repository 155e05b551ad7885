/**
 * The sign-in's second step, open without a session (index.ts mounts it before the authentication): the password's
 * step (session.ts) left a pending record in the store and its random token in the `pix_sign_in` cookie (HttpOnly,
 * SameSite=Strict, 5 minutes; not a session: it opens nothing else). `POST /session/mfa { code }` (a TOTP or a
 * recovery code) or `POST /session/passkey/options` then `POST /session/passkey { response }` (a passkey assertion)
 * start the session, its proof noted for the step-up. A wrong code is a 401 `mfa_code_invalid`; the fifth ends the
 * pending sign-in. Every outcome is in the audit trail.
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import { requestClient } from '../../http/client-address';
import { parseJson } from '../../http/json-body';
import { auditRecorder } from '../../accounts/audit';
import { crossSiteWrite, mfaCodeInvalid, mfaSignInExpired } from '../../accounts/errors';
import { PENDING_MS, type Mfa } from '../../accounts/mfa';
import { relyingPartyOf, type Passkeys } from '../../accounts/passkeys';
import { tokenHash, type Sessions } from '../../accounts/sessions';
import type { Clock } from '../../lib/clock';
import type { AccountStore } from '../../store/accounts';
import { originAllowed, setSessionCookie } from '../auth';
import type { SignedIn } from '../../../core/backoffice';

export const PENDING_COOKIE = 'pix_sign_in';
const COOKIE_PATH = '/api/admin/session';

export function setPendingCookie(c: Context, token: string, secure: boolean): void {
  setCookie(c, PENDING_COOKIE, token, { httpOnly: true, sameSite: 'Strict', path: COOKIE_PATH, maxAge: PENDING_MS / 1000, secure });
}

const codeBody = z.object({ code: z.string().min(1).max(64) });
/** A WebAuthn answer as `@simplewebauthn/browser` gives it; checked field by field by its verifier. */
export const passkeyBody = z.object({ response: z.looseObject({ id: z.string().max(1024), response: z.looseObject({}) }) });

export interface SecondStepOptions {
  mfa: Mfa;
  passkeys: Passkeys;
  sessions: Sessions;
  store: AccountStore;
  clock: Clock;
  trustProxy: number;
  secureCookies: boolean;
  allowedOrigins: readonly string[];
  log: { error(...args: unknown[]): void };
}

export function secondStepRoutes(options: SecondStepOptions) {
  const { mfa, passkeys, sessions, store, clock, trustProxy, secureCookies, allowedOrigins, log } = options;

  /** The pending sign-in of the request's cookie, from the console's own origin; else a refusal. */
  async function pendingOf(c: Context) {
    const origin = c.req.header('origin');
    if (!originAllowed(origin, allowedOrigins)) throw crossSiteWrite();
    const token = getCookie(c, PENDING_COOKIE);
    const pending = await mfa.pendingOf(token, 'sign_in');
    const user = pending && (await store.getUser(pending.userId));
    if (!token || !user || user.disabledAt !== null) throw mfaSignInExpired();
    const audit = auditRecorder({ store, clock, log, who: { actor: user.email, role: user.role, ip: requestClient(c, trustProxy) } });
    return { token, user, audit, rp: relyingPartyOf(origin!) };
  }

  /** After a proof passed: the session, its proof noted, the pending sign-in ended. */
  async function open(c: Context, { token, user, audit }: Awaited<ReturnType<typeof pendingOf>>, method: string) {
    await mfa.endPending(token);
    deleteCookie(c, PENDING_COOKIE, { path: COOKIE_PATH, secure: secureCookies });
    const session = await sessions.start(user, { address: requestClient(c, trustProxy), userAgent: c.req.header('user-agent') });
    await mfa.noteProof(tokenHash(session.token));
    setSessionCookie(c, session.token, secureCookies);
    await audit({ action: 'session.sign_in', target: user.email, outcome: 'ok', details: { method } });
    return c.json({ user: { email: user.email, role: user.role }, expiresAt: session.expiresAt } satisfies SignedIn);
  }

  async function refuse(pending: Awaited<ReturnType<typeof pendingOf>>, method: string): Promise<never> {
    await mfa.failPending(pending.token);
    await pending.audit({
      action: 'session.sign_in',
      target: pending.user.email,
      outcome: 'refused',
      details: { code: 'mfa_code_invalid', method },
    });
    throw mfaCodeInvalid();
  }

  return new Hono()
    .post('/session/mfa', async (c) => {
      const pending = await pendingOf(c);
      const { code } = await parseJson(c, codeBody);
      if (!(await mfa.verifyCode(pending.user.id, code))) return refuse(pending, 'code');
      return open(c, pending, 'code');
    })
    .post('/session/passkey/options', async (c) => {
      const { user, rp } = await pendingOf(c);
      return c.json(await passkeys.authenticationOptions(user.id, 'passkey_sign_in', rp));
    })
    .post('/session/passkey', async (c) => {
      const pending = await pendingOf(c);
      const { response } = await parseJson(c, passkeyBody);
      if (!(await passkeys.authenticate(pending.user.id, 'passkey_sign_in', pending.rp, response as never)))
        return refuse(pending, 'passkey');
      return open(c, pending, 'passkey');
    });
}
