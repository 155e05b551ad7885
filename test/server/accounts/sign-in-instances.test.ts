/**
 * The sign-in brake on two instances sharing one PostgreSQL database (two stores, two sign-in desks): the failures of
 * a pair are counted once for both, a burst split between them checks no more passwords than one instance would,
 * and five wrong passwords from one address do not stop the owner signing in from another.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSessions } from '../../../server/accounts/sessions';
import { createSignIn, type SignIn } from '../../../server/accounts/sign-in';
import { verifyPassword } from '../../../server/accounts/passwords';
import { addUser } from '../../../server/accounts/users';
import { ManualClock } from '../../../server/lib/clock';
import type { Store } from '../../../server/store/types';
import { openTestStore } from '../helpers/store';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../store/pg-test-database';
import { noAudit } from './stores';

const PASSWORD = 'a long enough password';

describe.skipIf(!TEST_DATABASE_URL)('the sign-in brake on two instances (PostgreSQL)', () => {
  let pg: TestDatabase;
  let stores: Store[];
  let clock: ManualClock;
  let checks: number;
  let desks: SignIn[];
  let email: string;
  beforeAll(async () => {
    pg = await createTestDatabase(TEST_DATABASE_URL!);
  });
  afterAll(async () => {
    await pg.drop();
  });
  beforeEach(async () => {
    stores = [await openTestStore({ databaseUrl: pg.url }), await openTestStore({ databaseUrl: pg.url })];
    clock = new ManualClock();
    checks = 0;
    const verify = (password: string, stored: string) => ((checks += 1), verifyPassword(password, stored));
    desks = stores.map((store) => createSignIn({ store, clock, sessions: createSessions({ store, clock }), verify }));
    email = `${randomUUID()}@example.com`;
    await addUser({ store: stores[0]!, clock }, { email, role: 'owner', password: PASSWORD }, noAudit);
  });
  afterEach(async () => {
    await Promise.all(stores.map((store) => store.close()));
  });

  it('counts the failures of a pair once for both instances', async () => {
    for (let i = 0; i < 5; i++) {
      const result = await desks[i % 2]!.signIn({ email, password: 'wrong password!', address: '10.9.0.1' });
      expect(result).toMatchObject({ ok: false, error: { code: 'invalid_credentials' } });
    }
    for (const desk of desks) {
      expect(await desk.signIn({ email, password: PASSWORD, address: '10.9.0.1' })).toMatchObject({
        ok: false,
        error: { code: 'sign_in_rate_limited' },
        retryAfterSeconds: 2,
      });
    }
  });

  it('lets the owner in from another address after five wrong passwords from one', async () => {
    for (let i = 0; i < 5; i++) await desks[0]!.signIn({ email, password: 'wrong password!', address: '10.9.0.1' });
    expect(await desks[0]!.signIn({ email, password: PASSWORD, address: '10.9.0.1' })).toMatchObject({ ok: false });
    expect(await desks[1]!.signIn({ email, password: PASSWORD, address: '10.9.0.2' })).toMatchObject({ ok: true, user: { email } });
  });

  it('checks at most 5 passwords of a burst split between the instances', async () => {
    const results = await Promise.all(
      Array.from({ length: 80 }, (_, i) => desks[i % 2]!.signIn({ email, password: `wrong password ${i}`, address: '10.9.0.3' })),
    );
    expect(checks).toBeLessThanOrEqual(5);
    expect(results.filter((r) => !r.ok && (r.error as { code?: string }).code === 'invalid_credentials')).toHaveLength(checks);
  });
});
