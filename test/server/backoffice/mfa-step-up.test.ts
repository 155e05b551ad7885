/**
 * The step-up over HTTP, on both databases: an owner whose last proof is over 5 minutes old is asked for the factor
 * again (403 `step_up_required`) before each guarded action (a user, an API key, a webhook endpoint changed; an
 * approval; a refund and a cash-out above APPROVAL_ABOVE), and not below the limit nor after a new proof; bearer
 * callers (the ADMIN_TOKEN, a named API key) are never asked, having no person to ask.
 */
import { Secret, TOTP } from 'otpauth';
import { beforeAll, describe, expect, it } from 'vitest';
import { DATABASES } from '../merchant-webhooks/databases';
import { consoleWorld } from './auth-helpers';

const MINUTE = 60_000;
const key = () => ({ 'idempotency-key': crypto.randomUUID() });

/** Each guarded action, as a call of the back office: path, body, headers. */
const GUARDED: [string, string, string, () => unknown, () => Record<string, string>][] = [
  [
    'a new user',
    'POST',
    '/users',
    () => ({ email: `u-${crypto.randomUUID()}@example.com`, role: 'viewer', password: 'a long enough password' }),
    () => ({}),
  ],
  ['a new API key', 'POST', '/api-keys', () => ({ name: `k-${crypto.randomUUID()}`, role: 'viewer' }), () => ({})],
  ['a new webhook endpoint', 'POST', '/webhook-endpoints', () => ({ url: 'https://hooks.example.com/pix' }), () => ({})],
  ['an approval', 'POST', '/approvals/no-such-key/approve', () => ({}), () => ({})],
  ['a refund above the limit', 'POST', '/checkouts/chk_none/refunds', () => ({ amount: '500.00' }), key],
  ['a cash-out above the limit', 'POST', '/cashouts', () => ({ amount: '500.00', pixKey: 'a@example.com', pixKeyType: 'EMAIL' }), key],
];

describe.each(DATABASES)('the step-up (%s)', (_name, database) => {
  const world = consoleWorld(database, { env: { MFA_REQUIRED: 'owner', APPROVAL_ABOVE: '100.00' } });
  let owner: { cookie: string; secret: string };
  const codeOf = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: world.clock.now().getTime() });
  const asOwner = (method: string, path: string, body: unknown, headers: Record<string, string>) =>
    world.client.withCookie(owner.cookie, method, path, body, headers);
  const askedStepUp = (answer: { status: number; body: unknown }) =>
    answer.status === 403 && (answer.body as { error?: { code?: string } }).error?.code === 'step_up_required';

  beforeAll(async () => {
    const { email } = await world.client.user('owner');
    const cookie = await world.client.session(email);
    const { secret } = (await world.client.withCookie(cookie, 'POST', '/me/mfa/totp')).body as { secret: string };
    expect((await world.client.withCookie(cookie, 'POST', '/me/mfa/totp/confirm', { code: codeOf(secret) })).status).toBe(200);
    owner = { cookie, secret };
  });

  it('asks for the factor before each guarded action once the proof is 6 minutes old, then lets it through', async () => {
    world.clock.advance(6 * MINUTE);
    for (const [what, method, path, body, headers] of GUARDED)
      expect(askedStepUp(await asOwner(method, path, body(), headers())), what).toBe(true);
    // At or below the limit, nothing is asked.
    const small = await asOwner('POST', '/checkouts/chk_none/refunds', { amount: '100.00' }, key());
    expect(askedStepUp(small)).toBe(false);

    expect((await world.client.withCookie(owner.cookie, 'POST', '/session/step-up', { code: codeOf(owner.secret) })).status).toBe(204);
    for (const [what, method, path, body, headers] of GUARDED)
      expect(askedStepUp(await asOwner(method, path, body(), headers())), what).toBe(false);
    const trail = await world.server.store.listAudit({ limit: 20, action: 'access.step_up' });
    expect(trail.filter((line) => line.outcome === 'refused')).toHaveLength(GUARDED.length);
  });

  it('never asks a bearer caller: the ADMIN_TOKEN and a named API key', async () => {
    const made = await world.client.withToken('POST', '/api-keys', { name: `owner-${crypto.randomUUID()}`, role: 'owner' });
    expect(made.status).toBe(201);
    const apiKey = (made.body as { key: string }).key;
    world.clock.advance(6 * MINUTE);
    for (const [what, method, path, body, headers] of GUARDED) {
      expect(askedStepUp(await world.client.withToken(method, path, body(), headers())), `${what}, ADMIN_TOKEN`).toBe(false);
      const withKey = await world.server.json(method, `/api/admin${path}`, body(), { authorization: `Bearer ${apiKey}`, ...headers() });
      expect(askedStepUp(withKey), `${what}, API key`).toBe(false);
    }
  });
});
