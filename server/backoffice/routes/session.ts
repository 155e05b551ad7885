/**
 * The console's session, `/session`: sign in with an e-mail and a password (`POST`, the one back-office route open
 * without credentials: `index.ts` mounts it before the authentication middleware), see who is signed in (`GET`), sign
 * out (`DELETE`). The session token travels only in the `pix_admin` cookie (HttpOnly, SameSite=Strict, Path=/, 12
 * hours, Secure on https); the answers never carry it. Sign-ins and sign-outs are recorded in the audit trail. A
 * sign-out ends the session's live streams with it.
 */
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { z } from 'zod';
import { requestClient } from '../../http/client-address';
import { parseJson } from '../../http/json-body';
import { crossSiteWrite } from '../../accounts/errors';
import { MAX_PASSWORD_LENGTH } from '../../accounts/passwords';
import type { Sessions } from '../../accounts/sessions';
import type { Mfa } from '../../accounts/mfa';
import type { SignIn } from '../../accounts/sign-in';
import type { BackOfficeEnv } from '../actor';
import { clearSessionCookie, originAllowed, SESSION_COOKIE, setSessionCookie } from '../auth';
import type { BackOfficeStreams } from '../stream';
import type { MfaMethod, SecondStepRequired, Session, SignedIn, SignInInput } from '../../../core/backoffice';
import { setPendingCookie } from './mfa-sign-in';
import { taking } from '../wire-check';

const signInBody = taking<SignInInput>()(z.object({ email: z.string().max(320), password: z.string().max(MAX_PASSWORD_LENGTH) }));

export interface SignInRouteOptions {
  signIn: SignIn;
  /** Keeps the pending sign-in when a second factor is on (./mfa-sign-in.ts takes it on). */
  mfa: Mfa;
  trustProxy: number;
  secureCookies: boolean;
  allowedOrigins: readonly string[];
}

/** `POST /session`: the sign-in. A browser's sign-in from another site's page (its Origin) is refused. */
export function signInRoutes({ signIn, mfa, trustProxy, secureCookies, allowedOrigins }: SignInRouteOptions) {
  return new Hono().post('/session', async (c) => {
    const origin = c.req.header('origin');
    if (origin !== undefined && !originAllowed(origin, allowedOrigins)) throw crossSiteWrite();
    const { email, password } = await parseJson(c, signInBody);
    const result = await signIn.signIn({ email, password, address: requestClient(c, trustProxy), userAgent: c.req.header('user-agent') });
    if (!result.ok) {
      if (result.retryAfterSeconds !== undefined) c.header('retry-after', String(result.retryAfterSeconds));
      throw result.error;
    }
    if ('methods' in result) {
      setPendingCookie(c, await mfa.startPending(result.user.id, 'sign_in'), secureCookies);
      return c.json({ mfaRequired: true, methods: result.methods as MfaMethod[] } satisfies SecondStepRequired);
    }
    setSessionCookie(c, result.session.token, secureCookies);
    return c.json({ user: { email: result.user.email, role: result.user.role }, expiresAt: result.session.expiresAt } satisfies SignedIn);
  });
}

/** `GET /session` and `DELETE /session`, behind the authentication middleware. */
export function sessionRoutes({
  sessions,
  streams,
  secureCookies,
}: {
  sessions: Sessions;
  streams: BackOfficeStreams;
  secureCookies: boolean;
}) {
  return new Hono<BackOfficeEnv>()
    .get('/session', (c) => {
      const { kind, name, role, sessionExpiresAt } = c.get('actor');
      return c.json({ actor: { kind, name, role }, expiresAt: sessionExpiresAt ?? null } satisfies Session);
    })
    .delete('/session', async (c) => {
      const actor = c.get('actor');
      if (actor.kind === 'user') {
        await sessions.end(getCookie(c, SESSION_COOKIE));
        if (actor.session) streams.end({ session: actor.session });
        clearSessionCookie(c, secureCookies);
        await c.get('audit')({ action: 'session.sign_out', target: actor.name, outcome: 'ok' });
      }
      return c.body(null, 204);
    });
}
