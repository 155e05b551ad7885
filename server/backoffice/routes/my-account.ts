/**
 * The signed-in user's own account, `/me/…`, for every role: their sessions (`GET /me/sessions`), ending one
 * (`DELETE /me/sessions/:id`, by its public id; the caller's own is a sign-out) or all others (`DELETE
 * /me/sessions`), and changing their password (`POST /me/password`, the current one required; every other session
 * ends, the caller's goes on under a new cookie). A session ended here ends its live streams with it, as a sign-out
 * does (./session.ts). Each change is recorded in the audit trail. The bearer token has no sessions nor password: 400.
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { requestClient } from '../../http/client-address';
import { parseJson } from '../../http/json-body';
import { recorded } from '../../accounts/audit';
import { sessionNotFound } from '../../accounts/errors';
import type { OwnPassword } from '../../accounts/own-password';
import { MAX_PASSWORD_LENGTH } from '../../accounts/passwords';
import type { SessionList } from '../../accounts/session-list';
import { invalidRequest } from '../../payments/errors';
import type { Actor, BackOfficeEnv } from '../actor';
import { clearSessionCookie, setSessionCookie } from '../auth';
import type { BackOfficeStreams } from '../stream';
import type { AccountSessions, EndedSessions, PasswordChanged, PasswordChangeInput } from '../../../core/backoffice';
import { taking } from '../wire-check';

/** What a public session id looks like (`ses_` and base64url or hex); anything else is a 404 without a query. */
const SESSION_ID = /^ses_[A-Za-z0-9_-]{1,64}$/;

const passwordBody = taking<PasswordChangeInput>()(
  z.object({ currentPassword: z.string().max(MAX_PASSWORD_LENGTH), newPassword: z.string().max(MAX_PASSWORD_LENGTH) }).strict(),
);

export interface MyAccountRouteOptions {
  sessionList: SessionList;
  ownPassword: OwnPassword;
  streams: BackOfficeStreams;
  trustProxy: number;
  secureCookies: boolean;
}

/** The caller as a signed-in user with a session; the bearer token is refused. */
function signedInUser(c: Context<BackOfficeEnv>): Actor & { session: string } {
  const actor = c.get('actor');
  if (actor.kind !== 'user' || actor.session === undefined)
    throw invalidRequest('The admin token has no sessions nor password: sign in as a user to manage them.');
  return { ...actor, session: actor.session };
}

export function myAccountRoutes({ sessionList, ownPassword, streams, trustProxy, secureCookies }: MyAccountRouteOptions) {
  return new Hono<BackOfficeEnv>()
    .get('/me/sessions', async (c) => {
      const actor = signedInUser(c);
      return c.json({ sessions: await sessionList.list(actor.id, actor.session) } satisfies AccountSessions);
    })
    .delete('/me/sessions/:id', async (c) => {
      const actor = signedInUser(c);
      const id = c.req.param('id');
      await recorded(c.get('audit'), 'session.end', id, async () => {
        if (!SESSION_ID.test(id)) throw sessionNotFound();
        const hash = await sessionList.end(actor.id, id);
        streams.end({ session: hash });
        if (hash === actor.session) clearSessionCookie(c, secureCookies);
        return { result: undefined, details: { own: hash === actor.session } };
      });
      return c.body(null, 204);
    })
    .delete('/me/sessions', async (c) => {
      const actor = signedInUser(c);
      const ended = await sessionList.endOthers(actor.id, actor.session);
      for (const hash of ended) streams.end({ session: hash });
      await c.get('audit')({ action: 'session.end_others', target: actor.name, outcome: 'ok', details: { ended: ended.length } });
      return c.json({ ended: ended.length } satisfies EndedSessions);
    })
    .post('/me/password', async (c) => {
      const actor = signedInUser(c);
      const { currentPassword, newPassword } = await parseJson(c, passwordBody);
      const result = await ownPassword.change(
        {
          userId: actor.id,
          session: actor.session,
          address: requestClient(c, trustProxy),
          userAgent: c.req.header('user-agent'),
          currentPassword,
          newPassword,
        },
        c.get('audit'),
      );
      if (!result.ok) {
        if (result.retryAfterSeconds !== undefined) c.header('retry-after', String(result.retryAfterSeconds));
        throw result.error;
      }
      // Every session of the user ended with the change, this one's token too: its streams end, and it goes on anew.
      streams.end({ userId: actor.id });
      setSessionCookie(c, result.session.token, secureCookies);
      return c.json({ expiresAt: result.session.expiresAt, ended: result.ended } satisfies PasswordChanged);
    });
}
