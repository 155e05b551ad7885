/**
 * The signed-in user's second factor, `/me/mfa`: see it (`GET`), set up TOTP (`POST /me/mfa/totp` → the seed and its
 * `otpauth://` URL; `POST /me/mfa/totp/confirm { code }` → ten recovery codes, shown once), add a passkey
 * (`POST /me/mfa/passkeys/options`, then `POST /me/mfa/passkeys { response }`) or remove one (`DELETE
 * /me/mfa/passkeys/:id`); and the step-up, `POST
 * /session/step-up { code }` or `{ response }` (a passkey assertion to `POST /session/step-up/options`), which renews
 * the session's proof. A user that already has a factor proves it (the step-up) before adding another. Audited.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { parseJson } from '../../http/json-body';
import { mfaCodeInvalid, passkeyNotFound, stepUpRequired } from '../../accounts/errors';
import { mfaRequiredFor, type Mfa, type MfaPolicy } from '../../accounts/mfa';
import { relyingPartyOf, type Passkeys } from '../../accounts/passkeys';
import type { MfaStore } from '../../store/mfa';
import type { BackOfficeEnv } from '../actor';
import type { MfaStatus, RecoveryCodes, TotpEnrolment } from '../../../core/backoffice';
import { passkeyBody } from './mfa-sign-in';
import type { Context } from 'hono';

const codeBody = z.object({ code: z.string().min(1).max(64) });
const stepUpBody = z.union([codeBody, passkeyBody]);

export function mfaRoutes({ mfa, passkeys, store, policy }: { mfa: Mfa; passkeys: Passkeys; store: MfaStore; policy: MfaPolicy }) {
  /** The signed-in user (the bearer token has no second factor). */
  const userOf = (c: Context<BackOfficeEnv>) => {
    const actor = c.get('actor');
    if (actor.kind !== 'user' || !actor.session) throw mfaCodeInvalid();
    return { id: actor.id, email: actor.name, session: actor.session, role: actor.role };
  };
  const rpOf = (c: Context) => relyingPartyOf(c.req.header('origin')!);

  /** A user with a factor proves it before changing its factors. */
  async function freshProof(c: Context<BackOfficeEnv>) {
    const user = userOf(c);
    const methods = await mfa.methods(user.id);
    if (methods.length > 0 && !(await mfa.proofFresh(user.session))) throw stepUpRequired(methods);
    return user;
  }

  return new Hono<BackOfficeEnv>()
    .get('/me/mfa', async (c) => {
      const user = userOf(c);
      const list = await store.listPasskeys(user.id);
      return c.json({
        methods: await mfa.methods(user.id),
        required: mfaRequiredFor(policy, user.role),
        passkeys: list.map(({ id, createdAt, lastUsedAt }) => ({ id, createdAt, lastUsedAt })),
        recoveryCodesLeft: await mfa.unusedRecoveryCodes(user.id),
      } satisfies MfaStatus);
    })
    .post('/me/mfa/totp', async (c) => {
      const user = await freshProof(c);
      return c.json((await mfa.startTotp(user)) satisfies TotpEnrolment);
    })
    .post('/me/mfa/totp/confirm', async (c) => {
      const user = userOf(c);
      const { code } = await parseJson(c, codeBody);
      const recoveryCodes = await mfa.confirmTotp(user.id, code).catch(async (error: unknown) => {
        await c.get('audit')({ action: 'mfa.totp_enable', target: user.email, outcome: 'refused' });
        throw error;
      });
      await mfa.noteProof(user.session);
      await c.get('audit')({ action: 'mfa.totp_enable', target: user.email, outcome: 'ok' });
      return c.json({ recoveryCodes } satisfies RecoveryCodes);
    })
    .post('/me/mfa/passkeys/options', async (c) => {
      const user = await freshProof(c);
      return c.json(await passkeys.registrationOptions(user, rpOf(c)));
    })
    .post('/me/mfa/passkeys', async (c) => {
      const user = await freshProof(c);
      const { response } = await parseJson(c, passkeyBody);
      const added = await passkeys.register(user.id, rpOf(c), response as never);
      await mfa.noteProof(user.session);
      await c.get('audit')({ action: 'mfa.passkey_add', target: user.email, outcome: 'ok', details: { passkey: added.id.slice(0, 16) } });
      return c.json(added, 201);
    })
    .delete('/me/mfa/passkeys/:id', async (c) => {
      const user = await freshProof(c);
      if (!(await store.removePasskey(user.id, c.req.param('id')))) throw passkeyNotFound();
      await c.get('audit')({
        action: 'mfa.passkey_remove',
        target: user.email,
        outcome: 'ok',
        details: { passkey: c.req.param('id').slice(0, 16) },
      });
      return c.body(null, 204);
    })
    .post('/session/step-up/options', async (c) => {
      const user = userOf(c);
      return c.json(await passkeys.authenticationOptions(user.id, 'passkey_step_up', rpOf(c)));
    })
    .post('/session/step-up', async (c) => {
      const user = userOf(c);
      const body = await parseJson(c, stepUpBody);
      const ok =
        'code' in body
          ? await mfa.verifyCode(user.id, body.code)
          : await passkeys.authenticate(user.id, 'passkey_step_up', rpOf(c), body.response as never);
      const method = 'code' in body ? 'code' : 'passkey';
      await c.get('audit')({ action: 'session.step_up', target: user.email, outcome: ok ? 'ok' : 'refused', details: { method } });
      if (!ok) throw mfaCodeInvalid();
      await mfa.noteProof(user.session);
      return c.body(null, 204);
    });
}
