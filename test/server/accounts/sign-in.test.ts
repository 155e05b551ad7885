/**
 * Signing in (server/accounts/sign-in.ts) and its brake (sign-in-limiter.ts), on both databases: a wrong password, an
 * unknown e-mail and a disabled user get the same refusal; failures are braked per e-mail (5 in 15 minutes) and per
 * address (10), counted when they start (a burst sent at once checks no more passwords), a braked sign-in is refused
 * even with the right password, and the brake lifts when the window passes;
 * every attempt is in the audit trail as the e-mail tried, never with the password.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSessions } from '../../../server/accounts/sessions';
import { createSignIn, type SignIn } from '../../../server/accounts/sign-in';
import { createSignInLimiter } from '../../../server/accounts/sign-in-limiter';
import { verifyPassword } from '../../../server/accounts/passwords';
import { addUser, changeUser } from '../../../server/accounts/users';
import { ManualClock } from '../../../server/lib/clock';
import type { Store } from '../../../server/store/types';
import { accountStores, noAudit } from './stores';

const PASSWORD = 'a long enough password';
const MINUTE = 60_000;

describe('the sign-in brake', () => {
  it('refuses an e-mail after 5 failures and an address after 10, each for the rest of its 15-minute window', () => {
    const clock = new ManualClock();
    const limiter = createSignInLimiter(clock);
    for (let i = 0; i < 5; i++) {
      expect(limiter.begin('10.0.0.1', 'ana@example.com').retryAfterMs).toBe(0);
      clock.advance(MINUTE);
    }
    // The first failure was 5 minutes ago: 10 minutes to wait, from another address too.
    expect(limiter.begin('10.0.0.2', 'ana@example.com')).toEqual({ retryAfterMs: 10 * MINUTE, report: true });
    expect(limiter.begin('10.0.0.2', 'ana@example.com')).toEqual({ retryAfterMs: 10 * MINUTE, report: false });
    expect(limiter.begin('10.0.0.1', 'bia@example.com').retryAfterMs).toBe(0);
    for (let i = 0; i < 4; i++) limiter.begin('10.0.0.1', `other${i}@example.com`);
    expect(limiter.begin('10.0.0.1', 'bia@example.com').retryAfterMs).toBe(10 * MINUTE);
    clock.advance(10 * MINUTE);
    expect(limiter.begin('10.0.0.2', 'ana@example.com').retryAfterMs).toBe(0);
  });

  it('counts an attempt when it starts: five begun and not yet settled brake the sixth', () => {
    const limiter = createSignInLimiter(new ManualClock());
    const begun = Array.from({ length: 5 }, (_, i) => limiter.begin(`10.0.0.${i}`, 'ana@example.com'));
    expect(begun.map((attempt) => attempt.retryAfterMs)).toEqual([0, 0, 0, 0, 0]);
    expect(limiter.begin('10.0.0.9', 'ana@example.com').retryAfterMs).toBeGreaterThan(0);
  });

  it("forgets an e-mail's failures, and takes back the address's count, after its sign-in succeeds", () => {
    const limiter = createSignInLimiter(new ManualClock(), { perAddress: 2 });
    for (let i = 0; i < 4; i++) limiter.begin(`10.0.0.${i}`, 'ana@example.com');
    const right = limiter.begin('10.0.0.8', 'ana@example.com');
    if (!('succeeded' in right)) throw new Error('the fifth attempt was braked');
    right.succeeded();
    limiter.begin('10.0.0.9', 'ana@example.com');
    expect(limiter.begin('10.0.0.9', 'ana@example.com').retryAfterMs).toBe(0);
    // 10.0.0.8's one attempt succeeded: it has its two left.
    expect(limiter.begin('10.0.0.8', 'bia@example.com').retryAfterMs).toBe(0);
    expect(limiter.begin('10.0.0.8', 'bia@example.com').retryAfterMs).toBe(0);
    expect(limiter.begin('10.0.0.8', 'bia@example.com').retryAfterMs).toBeGreaterThan(0);
  });

  it('keeps at most maxKeys counters, the oldest forgotten first', () => {
    const limiter = createSignInLimiter(new ManualClock(), { maxKeys: 4, perEmail: 1 });
    limiter.begin('10.0.0.1', 'a@example.com');
    expect(limiter.begin('10.0.0.9', 'a@example.com').retryAfterMs).toBeGreaterThan(0);
    limiter.begin('10.0.0.2', 'b@example.com');
    limiter.begin('10.0.0.3', 'c@example.com');
    expect(limiter.begin('10.0.0.9', 'a@example.com').retryAfterMs).toBe(0);
    expect(limiter.begin('10.0.0.9', 'c@example.com').retryAfterMs).toBeGreaterThan(0);
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

  it('brakes an e-mail after 5 failures, even the right password, and lifts after 15 minutes', async () => {
    for (let i = 0; i < 5; i++) expect((await desk.signIn({ email, password: 'wrong password!', address: `10.2.0.${i}` })).ok).toBe(false);
    const braked = await desk.signIn({ email, password: PASSWORD, address: '10.2.0.9' });
    expect(braked).toMatchObject({ ok: false, error: { code: 'sign_in_rate_limited', status: 429 }, retryAfterSeconds: 900 });
    expect((await store.listAudit({ limit: 1, actor: email }))[0]).toMatchObject({
      outcome: 'refused',
      details: { code: 'sign_in_rate_limited' },
    });
    clock.advance(15 * MINUTE);
    expect((await desk.signIn({ email, password: PASSWORD, address: '10.2.0.9' })).ok).toBe(true);
  });

  it.each([60, 200])('checks at most 5 of %i passwords sent at once, and the right one among them is braked', async (burst) => {
    let checks = 0;
    const counted = createSignIn({
      store,
      clock,
      sessions: createSessions({ store, clock }),
      verify: (password, stored) => ((checks += 1), verifyPassword(password, stored)),
    });
    const right = Math.floor(burst / 2);
    const passwords = Array.from({ length: burst }, (_, i) => (i === right ? PASSWORD : `wrong password ${i}`));
    const results = await Promise.all(
      passwords.map((password, i) => counted.signIn({ email, password, address: `10.3.${i >> 8}.${i & 255}` })),
    );
    expect(checks).toBeLessThanOrEqual(5);
    expect(results.filter((r) => r.ok)).toEqual([]);
    const codes = results.map((r) => (r.ok ? 'ok' : (r.error as { code?: string }).code));
    expect(codes.filter((code) => code === 'invalid_credentials').length).toBe(checks);
    expect(codes.filter((code) => code === 'sign_in_rate_limited').length).toBe(burst - checks);
  });
});
