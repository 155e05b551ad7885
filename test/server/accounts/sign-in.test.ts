/**
 * Signing in (server/accounts/sign-in.ts) and its brake (sign-in-limiter.ts), on both databases: a wrong password, an
 * unknown e-mail and a disabled user get the same refusal; failures are braked per e-mail-and-address pair (5 free,
 * then a wait doubling from 2 s) and per address (30 free), counted when they start (a burst sent at once checks no
 * more passwords), a braked pair is refused even with the right password, while another address signs in;
 * every attempt is in the audit trail as the e-mail tried, never with the password.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSessions } from '../../../server/accounts/sessions';
import { createSignIn, type SignIn } from '../../../server/accounts/sign-in';
import { attemptPlan, brakeWait, DEFAULT_SIGN_IN_LIMITS } from '../../../server/accounts/sign-in-limiter';
import type { SignInBrake } from '../../../server/store/sign-in-brakes';
import { verifyPassword } from '../../../server/accounts/passwords';
import { addUser, changeUser } from '../../../server/accounts/users';
import { ManualClock } from '../../../server/lib/clock';
import type { Store } from '../../../server/store/types';
import { accountStores, noAudit } from './stores';

const PASSWORD = 'a long enough password';
const MINUTE = 60_000;

describe('the sign-in brake', () => {
  const rule = DEFAULT_SIGN_IN_LIMITS.pair;
  const brake = (failures: number, lastFailureAt: number): SignInBrake => ({
    key: 'pair:10.0.0.1 ana@example.com',
    failures,
    lastFailureAt: new Date(lastFailureAt).toISOString(),
    reportedUntil: null,
  });

  it('lets the free failures through, then doubles the wait after each one, up to 15 minutes', () => {
    expect(brakeWait(brake(4, 0), rule, 0)).toBe(0);
    expect(brakeWait(brake(5, 0), rule, 0)).toBe(2_000);
    expect(brakeWait(brake(6, 0), rule, 0)).toBe(4_000);
    expect(brakeWait(brake(6, 0), rule, 3_000)).toBe(1_000);
    expect(brakeWait(brake(40, 0), rule, 0)).toBe(15 * MINUTE);
  });

  it('forgets a brake a day after its last failure', () => {
    expect(brakeWait(brake(40, 0), rule, 24 * 60 * MINUTE)).toBe(0);
    const plan = attemptPlan([brake(40, 0)], [rule], 24 * 60 * MINUTE);
    expect(plan.result).toBe('counted');
    expect(plan.write[0]!.failures).toBe(1);
  });

  it('reports a refusal once per wait', () => {
    const first = attemptPlan([brake(5, 0)], [rule], 0);
    expect(first.result).toEqual({ retryAfterMs: 2_000, report: true });
    expect(attemptPlan(first.write, [rule], 1_000).result).toEqual({ retryAfterMs: 1_000, report: false });
  });
});

describe.each(accountStores())('signing in (%s)', (_name, open) => {
  let store: Store;
  let clock: ManualClock;
  let desk: SignIn;
  let email: string;
  beforeEach(async () => {
    ({ store } = await open());
    clock = new ManualClock();
    desk = createSignIn({ store, clock, sessions: createSessions({ store, clock }) });
    email = `${randomUUID()}@example.com`;
    await addUser({ store, clock }, { email, role: 'operator', password: PASSWORD }, noAudit);
  });
  afterEach(async () => {
    await store.close();
  });

  it('signs in with the right password (any case of the e-mail) and records it', async () => {
    const result = await desk.signIn({ email: email.toUpperCase(), password: PASSWORD, address: '10.1.0.1' });
    expect(result).toMatchObject({ ok: true, user: { email, role: 'operator' }, session: { token: expect.any(String) } });
    expect(await store.listAudit({ limit: 5, actor: email })).toMatchObject([
      { action: 'session.sign_in', target: email, outcome: 'ok', role: 'operator', ip: '10.1.0.1' },
    ]);
  });

  it('refuses a wrong password, an unknown e-mail and a disabled user alike, and records each as the e-mail tried', async () => {
    const other = `${randomUUID()}@example.com`;
    const wrong = await desk.signIn({ email, password: `${PASSWORD}?`, address: '10.1.0.2' });
    const unknown = await desk.signIn({ email: other, password: PASSWORD, address: '10.1.0.2' });
    const user = (await store.findUserByEmail(email))!;
    await changeUser({ store, clock }, user.id, { disabled: true }, noAudit);
    const disabled = await desk.signIn({ email, password: PASSWORD, address: '10.1.0.2' });
    const refusals = [wrong, unknown, disabled].map((r) => (r.ok ? r : { ...r, error: { ...r.error, message: r.error.message } }));
    expect(refusals[0]).toMatchObject({ ok: false, error: { code: 'invalid_credentials', status: 401 } });
    expect(refusals[1]).toEqual(refusals[0]);
    expect(refusals[2]).toEqual(refusals[0]);
    const entries = [...(await store.listAudit({ limit: 5, actor: email })), ...(await store.listAudit({ limit: 5, actor: other }))];
    expect(entries).toHaveLength(3);
    for (const entry of entries) {
      expect(entry).toMatchObject({ action: 'session.sign_in', outcome: 'refused', role: null, details: { code: 'invalid_credentials' } });
      expect(JSON.stringify(entry)).not.toContain(PASSWORD);
    }
  });

  it('brakes a pair after 5 failures with a growing wait, and never the right password from another address', async () => {
    for (let i = 0; i < 5; i++) expect((await desk.signIn({ email, password: 'wrong password!', address: '10.2.0.1' })).ok).toBe(false);
    const braked = await desk.signIn({ email, password: PASSWORD, address: '10.2.0.1' });
    expect(braked).toMatchObject({ ok: false, error: { code: 'sign_in_rate_limited', status: 429 }, retryAfterSeconds: 2 });
    expect((await store.listAudit({ limit: 1, actor: email }))[0]).toMatchObject({
      outcome: 'refused',
      details: { code: 'sign_in_rate_limited' },
    });
    expect((await desk.signIn({ email, password: PASSWORD, address: '10.2.0.9' })).ok).toBe(true);
    clock.advance(2_000);
    expect((await desk.signIn({ email, password: 'wrong password!', address: '10.2.0.1' })).ok).toBe(false);
    expect(await desk.signIn({ email, password: PASSWORD, address: '10.2.0.1' })).toMatchObject({ retryAfterSeconds: 4 });
    clock.advance(4_000);
    expect((await desk.signIn({ email, password: PASSWORD, address: '10.2.0.1' })).ok).toBe(true);
  });

  it('brakes an address spraying many e-mails after 30 failures', async () => {
    for (let i = 0; i < 30; i++) await desk.signIn({ email: `${i}-${email}`, password: PASSWORD, address: '10.4.0.1' });
    expect(await desk.signIn({ email, password: PASSWORD, address: '10.4.0.1' })).toMatchObject({ ok: false, retryAfterSeconds: 2 });
    expect((await desk.signIn({ email, password: PASSWORD, address: '10.4.0.2' })).ok).toBe(true);
  });

  it.each([60, 200])('checks at most 5 of %i passwords sent at once from one address, the right one among them braked', async (burst) => {
    let checks = 0;
    const counted = createSignIn({
      store,
      clock,
      sessions: createSessions({ store, clock }),
      verify: (password, stored) => ((checks += 1), verifyPassword(password, stored)),
    });
    const right = Math.floor(burst / 2);
    const passwords = Array.from({ length: burst }, (_, i) => (i === right ? PASSWORD : `wrong password ${i}`));
    const results = await Promise.all(passwords.map((password) => counted.signIn({ email, password, address: '10.3.0.1' })));
    expect(checks).toBeLessThanOrEqual(5);
    expect(results.filter((r) => r.ok)).toEqual([]);
    const codes = results.map((r) => (r.ok ? 'ok' : (r.error as { code?: string }).code));
    expect(codes.filter((code) => code === 'invalid_credentials').length).toBe(checks);
    expect(codes.filter((code) => code === 'sign_in_rate_limited').length).toBe(burst - checks);
  });
});
