import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresHub, HUB_APPLICATION_NAME } from '../../../server/store/hub';
import { migrations } from '../../../server/store/migrations';
import { openPostgresStore } from '../../../server/store/postgres';
import type { StatusHub } from '../../../server/store/types';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from './pg-test-database';
import { describeBackOfficeContract } from './back-office-contract';
import { describeCompanyPaymentContract } from './company-payments-contract';
import { describeStoreContract, draftFor } from './store-contract';

if (!TEST_DATABASE_URL) {
  console.warn('PostgreSQL store tests SKIPPED: set TEST_DATABASE_URL (scripts/ci-postgres.sh prints one).');
}

/** Resolves with the first seq the hub delivers for the checkout, or rejects after `ms`. */
function nextSeq(hub: StatusHub, checkoutId: string, ms = 5_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`no event for ${checkoutId} within ${ms} ms`));
    }, ms);
    const unsubscribe = hub.subscribe(checkoutId, (seq) => {
      clearTimeout(timer);
      unsubscribe();
      resolve(seq);
    });
  });
}

describe.skipIf(!TEST_DATABASE_URL)('PostgreSQL (TEST_DATABASE_URL)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(TEST_DATABASE_URL!);
  });
  afterAll(async () => {
    await db?.drop();
  });

  describeStoreContract('PostgreSQL', async () => {
    const store = await openPostgresStore({ connectionString: db.url });
    // DELETE, not TRUNCATE: on tables this small it skips TRUNCATE's file rewrites and is several times faster.
    await db.query('DELETE FROM cashouts; DELETE FROM checkout_events; DELETE FROM checkouts');
    return { store, teardown: () => store.close() };
  });

  describeBackOfficeContract('PostgreSQL', async () => {
    const store = await openPostgresStore({ connectionString: db.url });
    await db.query('DELETE FROM cashouts; DELETE FROM checkout_events; DELETE FROM checkouts');
    return { store, teardown: () => store.close() };
  });

  describeCompanyPaymentContract('PostgreSQL', async () => {
    const store = await openPostgresStore({ connectionString: db.url });
    await db.query('DELETE FROM company_payments');
    return { store, teardown: () => store.close() };
  });

  describe('several instances on one database', () => {
    it('apply the migrations once when they start together', async () => {
      const fresh = await createTestDatabase(TEST_DATABASE_URL!);
      try {
        const stores = await Promise.all(Array.from({ length: 4 }, () => openPostgresStore({ connectionString: fresh.url })));
        await Promise.all(stores.map((store) => store.close()));
        expect((await fresh.query('SELECT version FROM schema_migrations')).rows).toEqual(migrations.map((m) => ({ version: m.version })));
      } finally {
        await fresh.drop();
      }
    });

    it('never both reserve the same order', async () => {
      const stores = await Promise.all([1, 2].map(() => openPostgresStore({ connectionString: db.url })));
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => stores[i % 2]!.reserveCheckout(draftFor('shared-order'))));
      expect(results.filter((result) => result.created)).toHaveLength(1);
      expect(new Set(results.map((result) => result.checkout.id)).size).toBe(1);
      await Promise.all(stores.map((store) => store.close()));
    });

    it('have the database refuse a second live checkout for an order even when code skips the check', async () => {
      const store = await openPostgresStore({ connectionString: db.url });
      await store.reserveCheckout(draftFor('raw-order'));
      await store.close();
      const insert = `INSERT INTO checkouts (id, order_id, method, state, amount_cents, currency, details, created_at, updated_at)
        VALUES ($1, 'raw-order', 'pix', $2, 100, 'BRL', '{}', now(), now())`;
      await expect(db.query(insert, ['other-live', 'Registered'])).rejects.toThrow(/checkouts_one_per_order/);
      await expect(db.query(insert, ['old-cancelled', 'Cancelled'])).resolves.toBeDefined();
    });
  });

  it('schema step 2 moves the method fields of existing checkouts into details and keeps their events', async () => {
    const old = await createTestDatabase(TEST_DATABASE_URL!);
    try {
      await old.query(
        `CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      await old.query(migrations[0]!.postgres);
      await old.query(`INSERT INTO schema_migrations (version, name) VALUES (1, 'v1')`);
      await old.query(`INSERT INTO checkouts (id, order_id, method, state, amount_cents, currency, qr_code, qr_code_location,
          checkout_url, return_url, transaction_id, seq, created_at, updated_at)
        VALUES ('co-pix', 'A-1', 'pix', 'Created', 100, 'BRL', '000201', 'https://qr/1', NULL, NULL, 'tx-1', 1, now(), now()),
               ('co-of', 'A-2', 'openfinance', 'Registered', 100, 'BRL', NULL, NULL, 'https://bank/2', 'https://shop/2', 'tx-2', 1, now(), now())`);
      await old.query(`INSERT INTO checkout_events VALUES ('co-pix', 1, 'Created', 'create', now(), '{"transactionId":"tx-1"}')`);
      const store = await openPostgresStore({ connectionString: old.url });
      expect((await store.getCheckout('co-pix'))!.details).toEqual({ qrCode: '000201', qrCodeLocation: 'https://qr/1' });
      expect((await store.getCheckout('co-of'))!.details).toEqual({ checkoutUrl: 'https://bank/2', returnUrl: 'https://shop/2' });
      expect(await store.eventsAfter('co-pix', 0)).toHaveLength(1);
      expect((await store.reserveCheckout(draftFor('A-1'))).created).toBe(false);
      await store.close();
    } finally {
      await old.drop();
    }
  });

  it('schema step 4 gives checkouts stored before it the default payment window', async () => {
    const old = await createTestDatabase(TEST_DATABASE_URL!);
    try {
      await old.query(
        `CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      for (const migration of migrations.slice(0, 3)) {
        await old.query(migration.postgres);
        await old.query(`INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
      }
      await old.query(`INSERT INTO checkouts (id, order_id, method, state, amount_cents, currency, details, transaction_id, seq,
          created_at, updated_at)
        VALUES ('co-live', 'A-1', 'pix', 'Registered', 100, 'BRL', '{}', 'tx-1', 1, '2026-01-15T12:00:00Z', '2026-01-15T12:00:00Z')`);
      const store = await openPostgresStore({ connectionString: old.url });
      expect((await store.getCheckout('co-live'))!.expiresAt).toBe('2026-01-15T12:30:00.000Z');
      expect((await store.listExpiredCheckouts('2026-01-15T12:30:00.000Z', 10)).map((c) => c.id)).toEqual(['co-live']);
      await store.close();
    } finally {
      await old.drop();
    }
  });

  describe('createPostgresHub', () => {
    it('tells subscribers of everything about publishes on any instance (the back-office live lists)', async () => {
      const [a, b] = await Promise.all([1, 2].map(() => createPostgresHub({ connectionString: db.url })));
      const heard: [string, number][] = [];
      const unsubscribe = a!.subscribeAll((id, seq) => heard.push([id, seq]));
      b!.publish('c-9', 4);
      b!.publish('cashout:k-1', 0);
      await expect.poll(() => heard.length, { timeout: 5_000 }).toBe(2);
      expect(heard).toEqual([
        ['c-9', 4],
        ['cashout:k-1', 0],
      ]);
      unsubscribe();
      await Promise.all([a!.close(), b!.close()]);
    });

    it('delivers an event published by another hub instance, and its own only once', async () => {
      const [a, b] = await Promise.all([1, 2].map(() => createPostgresHub({ connectionString: db.url })));
      const heardByA = nextSeq(a!, 'c-1');
      b!.publish('c-1', 7);
      expect(await heardByA).toBe(7);

      const own: number[] = [];
      const unsubscribe = a!.subscribe('c-2', (seq) => own.push(seq));
      const heardByB = nextSeq(b!, 'c-2');
      a!.publish('c-2', 1);
      expect(await heardByB).toBe(1);
      // Notifications reach a listener in commit order: once A hears B's later one, its own echo has come and gone.
      const barrier = nextSeq(a!, 'barrier');
      b!.publish('barrier', 1);
      await barrier;
      expect(own).toEqual([1]);
      unsubscribe();
      expect(a!.subscriberCount() + b!.subscriberCount()).toBe(0);
      await Promise.all([a!.close(), b!.close()]);
    });

    it('listens again after its connection is killed and wakes its subscribers', async () => {
      const errors: unknown[] = [];
      const onError = (error: unknown) => errors.push(error);
      const listener = await createPostgresHub({ connectionString: db.url, reconnectDelayMs: 50, onError });
      const publisher = await createPostgresHub({ connectionString: db.url, reconnectDelayMs: 50, onError });
      const woken = nextSeq(listener, 'c-3');
      await db.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
        [HUB_APPLICATION_NAME],
      );
      expect(await woken).toBe(0);
      expect(errors.length).toBeGreaterThan(0);

      // The publisher's own LISTEN connection was killed too; wait until both are back before publishing.
      await expect
        .poll(
          async () =>
            (
              await db.query(
                'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
                [HUB_APPLICATION_NAME],
              )
            ).rows[0].n,
        )
        .toBe(2);
      const heard = nextSeq(listener, 'c-3');
      publisher.publish('c-3', 9);
      expect(await heard).toBe(9);
      await Promise.all([listener.close(), publisher.close()]);
    });
  });
});
