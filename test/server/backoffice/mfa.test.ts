/**
 * The console's second factor over HTTP, on both databases: under MFA_REQUIRED=operator an operator without a factor
 * can only enrol; TOTP enrolment with its ten recovery codes; the two-step sign-in (no session cookie after the
 * password, a wrong code 401, a recovery code once); the step-up of a refund above APPROVAL_ABOVE after 5 minutes on a
 * ManualClock; `npm run admin -- user reset-mfa`, audited; the TOTP seed never in clear in the SQLite file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { runAdminCli } from '../helpers/admin-cli';
import { DATABASES } from '../merchant-webhooks/databases';
import { keyed } from '../helpers/secrets-key';
import { consoleWorld, sessionCookie } from './auth-helpers';

const MINUTE = 60_000;

/** The `name=value` of the pending sign-in's cookie. */
const pendingCookie = (setCookie: string | null) => /(pix_sign_in=[^;]*)/.exec(setCookie ?? '')![1]!;

describe.each(DATABASES)('the second factor (%s)', (name, database) => {
  const world = consoleWorld(database, { env: { MFA_REQUIRED: 'operator', APPROVAL_ABOVE: '100.00' } });
  const codeOf = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: world.clock.now().getTime() });

  /** An operator enrolled in TOTP: its e-mail, secret, recovery codes and a session cookie proven at `clock`'s now. */
  async function enrolled() {
    const { email } = await world.client.user('operator');
    const cookie = await world.client.session(email);
    const start = await world.client.withCookie(cookie, 'POST', '/me/mfa/totp');
    const { secret } = start.body as { secret: string };
    const confirmed = await world.client.withCookie(cookie, 'POST', '/me/mfa/totp/confirm', { code: codeOf(secret) });
    return { email, secret, cookie, recoveryCodes: (confirmed.body as { recoveryCodes: string[] }).recoveryCodes };
  }

  /** Signs in with the password: the answer and the pending cookie. */
  async function firstStep(email: string) {
    const response = await world.client.signIn(email);
    return { response, pending: pendingCookie(response.headers.get('set-cookie')) };
  }
  const secondStepAt = (pending: string, code: string) =>
    world.server.json('POST', '/api/admin/session/mfa', { code }, { cookie: pending, origin: world.client.origin });

  it('keeps an operator without a factor to the enrolment, then enrols TOTP with ten recovery codes', async () => {
    const { email } = await world.client.user('operator');
    const cookie = await world.client.session(email);
    const refused = await world.client.withCookie(cookie, 'GET', '/checkouts');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { code: 'mfa_enrolment_required' } });
    expect((await world.client.withCookie(cookie, 'GET', '/me/mfa')).body).toMatchObject({ methods: [], required: true });

    const start = await world.client.withCookie(cookie, 'POST', '/me/mfa/totp');
    expect(start.status).toBe(200);
    const { secret, otpauthUrl } = start.body as { secret: string; otpauthUrl: string };
    expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    const wrong = await world.client.withCookie(cookie, 'POST', '/me/mfa/totp/confirm', {
      code: '000000' === codeOf(secret) ? '111111' : '000000',
    });
    expect(wrong.status).toBe(401);
    const confirmed = await world.client.withCookie(cookie, 'POST', '/me/mfa/totp/confirm', { code: codeOf(secret) });
    expect(confirmed.status).toBe(200);
    const { recoveryCodes } = confirmed.body as { recoveryCodes: string[] };
    expect(new Set(recoveryCodes).size).toBe(10);
    expect((await world.client.withCookie(cookie, 'GET', '/checkouts')).status).toBe(200);
  });

  it('signs in in two steps: no session after the password, a wrong code 401, the TOTP code opens it once', async () => {
    const { email, secret } = await enrolled();
    world.clock.advance(MINUTE);
    const { response, pending } = await firstStep(email);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ mfaRequired: true, methods: ['totp', 'recovery_code'] });
    expect(response.headers.get('set-cookie')).not.toMatch(/pix_admin=/);
    expect((await world.client.withCookie(pending, 'GET', '/session')).status).toBe(401);

    const code = codeOf(secret);
    const wrong = await secondStepAt(pending, code === '123456' ? '654321' : '123456');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ error: { code: 'mfa_code_invalid' } });
    const opened = await secondStepAt(pending, code);
    expect(opened.status).toBe(200);
    const cookie = sessionCookie(opened.headers.get('set-cookie'));
    expect((await world.client.withCookie(cookie, 'GET', '/session')).status).toBe(200);

    // The same code does not open a second sign-in.
    const again = await firstStep(email);
    expect((await secondStepAt(again.pending, code)).status).toBe(401);
  });

  it('takes a recovery code once', async () => {
    const { email, recoveryCodes } = await enrolled();
    const first = await firstStep(email);
    expect((await secondStepAt(first.pending, recoveryCodes[3]!)).status).toBe(200);
    const second = await firstStep(email);
    expect((await secondStepAt(second.pending, recoveryCodes[3]!)).status).toBe(401);
    expect((await secondStepAt(second.pending, recoveryCodes[4]!.toUpperCase())).status).toBe(200);
  });

  it('asks for the factor again before a refund above APPROVAL_ABOVE once the proof is over 5 minutes old', async () => {
    const { cookie, secret } = await enrolled();
    const refund = (amount: string) =>
      world.client.withCookie(cookie, 'POST', '/checkouts/chk_none/refunds', { amount }, { 'idempotency-key': crypto.randomUUID() });
    // Fresh proof (the enrolment): the refund reaches its route (no such checkout).
    expect((await refund('500.00')).body).not.toMatchObject({ error: { code: 'step_up_required' } });
    world.clock.advance(4 * MINUTE);
    expect((await refund('500.00')).body).not.toMatchObject({ error: { code: 'step_up_required' } });
    world.clock.advance(2 * MINUTE);
    const asked = await refund('500.00');
    expect(asked.status).toBe(403);
    expect(asked.body).toMatchObject({ error: { code: 'step_up_required', details: { methods: ['totp', 'recovery_code'] } } });
    // At or below the limit nothing is asked.
    expect((await refund('100.00')).body).not.toMatchObject({ error: { code: 'step_up_required' } });
    expect(
      (await world.client.withCookie(cookie, 'POST', '/session/step-up', { code: '000000' === codeOf(secret) ? '111111' : '000000' }))
        .status,
    ).toBe(401);
    world.clock.advance(30_000);
    expect((await world.client.withCookie(cookie, 'POST', '/session/step-up', { code: codeOf(secret) })).status).toBe(204);
    expect((await refund('500.00')).body).not.toMatchObject({ error: { code: 'step_up_required' } });
  });

  it('removes a lost factor with `npm run admin -- user reset-mfa`, audited', async () => {
    const { email } = await enrolled();
    const env = keyed({ PATH: process.env.PATH ?? '', DATA_DIR: world.server.dataDir, ...world.db.env });
    const result = await runAdminCli(['user', 'reset-mfa', email], env);
    expect(result).toMatchObject({ code: 0 });
    expect(result.stdout).toContain(`Second factor removed for ${email}`);
    const trail = await world.server.store.listAudit({ limit: 5, action: 'user.reset_mfa' });
    expect(trail[0]).toMatchObject({ actor: 'cli', target: email, outcome: 'ok' });
    const response = await world.client.signIn(email);
    expect(response.headers.get('set-cookie')).toMatch(/pix_admin=/);
  });

  it.runIf(name === 'SQLite')('keeps the TOTP seed sealed, never in clear, in the database file', async () => {
    const { secret } = await enrolled();
    const file = join(world.server.dataDir, 'checkout.sqlite');
    const bytes = [file, `${file}-wal`]
      .filter(existsSync)
      .map((f) => readFileSync(f).toString('latin1'))
      .join('');
    expect(bytes).toContain('sealed:v1:');
    expect(bytes).not.toContain(secret);
  });
});
