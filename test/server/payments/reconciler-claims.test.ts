/**
 * Instances share the reconciler's work: two reconcilers over one database (two PostgreSQL stores with
 * TEST_DATABASE_URL, two connections to one SQLite file) pass at the same time, and the provider is asked about
 * each stale checkout, and each cash-out left Sending, once, not once per instance. And an expired checkout is re-read with backoff over its day of
 * follow-up, not at every pass.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../server/lib/clock';
import { createReconciler } from '../../../server/payments/reconciler';
import { createCheckoutService } from '../../../server/payments/service';
import type { ProviderClient } from '../../../server/provider';
import type { Store } from '../../../server/store/types';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../store/pg-test-database';
import { draftFor } from '../store/store-contract';
import { openTestStore } from '../helpers/store';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A provider that answers every transaction as still waiting for its payer and has made nothing for any order, and
 * records who asked for which transaction (`reads`) and for which order's transactions (`lookups`).
 */
function countingProvider() {
  const reads: string[] = [];
  const lookups: string[] = [];
  // A provider round trip, so the two instances' passes interleave.
  const roundTrip = () => new Promise((resolve) => setTimeout(resolve, 1));
  const provider = {
    transactions: {
      retrieve: async (transactionId: string) => {
        reads.push(transactionId);
        await roundTrip();
        return { transaction: { state: 'Registered' } };
      },
      list: async (query: { transactionOrderId: string }) => {
        lookups.push(query.transactionOrderId);
        await roundTrip();
        return { items: [], total: 0 };
      },
    },
  } as unknown as ProviderClient;
  return { reads, lookups, provider };
}

/** The real reconciler and checkout service of one instance, on `store`, asking `provider`. */
function instance(store: Store, provider: ProviderClient, clock: ManualClock, batchSize = 7) {
  const service = createCheckoutService({
    provider,
    store,
    clock,
    orders: { resolve: async () => undefined },
    webhook: { url: 'https://shop.example/api/webhooks/provider', headerName: 'x-webhook-secret', secret: 'unused' },
    defaultReturnUrl: 'https://shop.example/return',
  });
  return createReconciler({ store, service, clock, batchSize, onError: (error) => expect.fail(String(error)) });
}

/**
 * `live` Registered checkouts quiet since T0, `expired` ones that expired a minute later and, with `due`, live ones
 * whose window ended at T0 + 5 minutes.
 */
async function seedStale(store: Store, live: number, expired: number, due = 0): Promise<string[]> {
  const transactions: string[] = [];
  for (let i = 0; i < live + expired + due; i++) {
    const windowEnd = i >= live + expired ? T0 + 5 * MINUTE : T0 + 48 * HOUR;
    const draft = draftFor(`order-${i}`, { createdAt: iso(T0), expiresAt: iso(windowEnd) });
    const { checkout } = await store.reserveCheckout(draft);
    await store.activateCheckout(checkout.id, { state: 'Registered', transactionId: `tx-${i}` }, iso(T0));
    if (i >= live && i < live + expired) await store.apply(checkout.id, { type: 'expire' }, 'reconcile', {}, iso(T0 + MINUTE));
    transactions.push(`tx-${i}`);
  }
  return transactions;
}

/** Runs passes of both reconcilers side by side until neither finds anything more to read. */
async function passTogether(a: ReturnType<typeof instance>, b: ReturnType<typeof instance>, reads: () => number) {
  for (let before = -1; before !== reads();) {
    before = reads();
    await Promise.all([a.runOnce(), b.runOnce()]);
  }
}

interface Database {
  name: string;
  skip: boolean;
  /** Two stores on one database. */
  open(): Promise<[Store, Store]>;
}

const dir = mkdtempSync(join(tmpdir(), 'reconciler-claims-'));
let pg: TestDatabase | undefined;
const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await pg?.drop();
});

const databases: Database[] = [
  {
    name: 'SQLite, two connections to one file',
    skip: false,
    open: async () => {
      const file = join(dir, `claims-${opened.length}-${Date.now()}.sqlite`);
      return [await openTestStore({ file }), await openTestStore({ file })];
    },
  },
  {
    name: 'PostgreSQL, two stores (TEST_DATABASE_URL)',
    skip: !TEST_DATABASE_URL,
    open: async () => {
      await pg?.drop();
      pg = await createTestDatabase(TEST_DATABASE_URL!);
      return [await openTestStore({ databaseUrl: pg.url }), await openTestStore({ databaseUrl: pg.url })];
    },
  },
];

for (const database of databases) {
  describe.skipIf(database.skip)(`the reconciler of two instances on ${database.name}`, () => {
    it('asks the provider about each stale or expiring checkout once between them, each instance taking a share', async () => {
      const [storeA, storeB] = await database.open();
      opened.push(storeA, storeB);
      const transactions = await seedStale(storeA, 30, 12, 20);
      const clock = new ManualClock(iso(T0 + 10 * MINUTE));
      const a = countingProvider();
      const b = countingProvider();
      await passTogether(instance(storeA, a.provider, clock), instance(storeB, b.provider, clock), () => a.reads.length + b.reads.length);

      expect([...a.reads, ...b.reads].sort()).toEqual([...transactions].sort());
      expect(a.reads.length).toBeGreaterThan(0);
      expect(b.reads.length).toBeGreaterThan(0);
      const expiredNow = await Promise.all(transactions.slice(42).map(async (tx) => (await storeA.findCheckoutByTransaction(tx))!.state));
      expect(new Set(expiredNow)).toEqual(new Set(['Expired']));
    });

    it('expires, on their one read, the checkouts past their window that the stale claim took beyond the expiry batch', async () => {
      const [store] = await database.open();
      opened.push(store);
      const transactions = await seedStale(store, 0, 0, 4);
      const clock = new ManualClock(iso(T0 + 10 * MINUTE));
      const { provider, reads } = countingProvider();
      // A batch of 2: the expiry claim takes two, the stale claim the other two.
      expect(await instance(store, provider, clock, 2).runOnce()).toBe(4);
      expect(reads.sort()).toEqual([...transactions].sort());
      const states = await Promise.all(transactions.map(async (tx) => (await store.findCheckoutByTransaction(tx))!.state));
      expect(states).toEqual(['Expired', 'Expired', 'Expired', 'Expired']);
    });

    it('settles each reservation a crash left behind once between them: one look-up of its order, then released', async () => {
      const [storeA, storeB] = await database.open();
      opened.push(storeA, storeB);
      const orders = Array.from({ length: 24 }, (_, i) => `crashed-${i}`);
      const reservations = [];
      for (const order of orders) reservations.push((await storeA.reserveCheckout(draftFor(order, { createdAt: iso(T0) }))).checkout);
      const clock = new ManualClock(iso(T0 + 10 * MINUTE));
      const a = countingProvider();
      const b = countingProvider();
      const lookups = () => a.lookups.length + b.lookups.length;
      await passTogether(instance(storeA, a.provider, clock), instance(storeB, b.provider, clock), lookups);

      expect([...a.lookups, ...b.lookups].sort()).toEqual([...orders].sort());
      expect(a.lookups.length).toBeGreaterThan(0);
      expect(b.lookups.length).toBeGreaterThan(0);
      // The provider made nothing for them: each order is free again.
      for (const reservation of reservations) expect(await storeA.getCheckout(reservation.id)).toBeUndefined();
    });

    it('settles each cash-out and refund a crash left Sending once between them: one look-up of its order, then released', async () => {
      const [storeA, storeB] = await database.open();
      opened.push(storeA, storeB);
      const keys = Array.from({ length: 24 }, (_, i) => `crashed-cash-out-${i}`);
      for (const key of keys) {
        const reserved = await storeA.reserveCashOut({
          ...{ idempotencyKey: key, fingerprint: 'f', orderId: `payout-${key}`, amountCents: 1_000, createdAt: iso(T0) },
          ...{ recipientName: 'Maria', recipientCpf: '52998224725', keyType: 'CPF', keyValue: '52998224725' },
        });
        expect(reserved.outcome).toBe('created');
      }
      const clock = new ManualClock(iso(T0 + 10 * MINUTE));
      const a = countingProvider();
      const b = countingProvider();
      const lookups = () => a.lookups.length + b.lookups.length;
      await passTogether(instance(storeA, a.provider, clock), instance(storeB, b.provider, clock), lookups);

      expect([...a.lookups, ...b.lookups].sort()).toEqual(keys.map((key) => `payout-${key}`).sort());
      expect(a.lookups.length).toBeGreaterThan(0);
      expect(b.lookups.length).toBeGreaterThan(0);
      // The provider made none of them: each key is free again.
      for (const key of keys) expect(await storeB.getCashOut(key)).toBeUndefined();
    });

    it('re-reads a checkout whose claimer crashed before reading it, once its claim runs out', async () => {
      const [storeA, storeB] = await database.open();
      opened.push(storeA, storeB);
      await seedStale(storeA, 3, 0);
      const now = T0 + 10 * MINUTE;
      // Instance A claims and dies before asking the provider.
      const lost = await storeA.claimStaleCheckouts({ now: iso(now), before: iso(now - MINUTE), limit: 10, liveUntil: iso(now + MINUTE) });
      expect(lost).toHaveLength(3);
      const clock = new ManualClock(iso(now));
      const b = countingProvider();
      const survivor = instance(storeB, b.provider, clock);
      await survivor.runOnce();
      expect(b.reads).toEqual([]);
      clock.advance(MINUTE);
      await survivor.runOnce();
      expect(b.reads.sort()).toEqual(['tx-0', 'tx-1', 'tx-2']);
    });
  });
}

describe('an expired checkout, followed for a day with passes every 15 s on a fake clock', () => {
  it('is re-read with backoff: about 1, 2, 4… minutes after its expiry, then hourly, and not after the day', async () => {
    const store = await openTestStore({ file: join(dir, 'backoff.sqlite') });
    opened.push(store);
    await seedStale(store, 0, 1);
    const expiredAt = T0 + MINUTE;
    const clock = new ManualClock(iso(expiredAt));
    const { provider, reads } = countingProvider();
    const readAt: number[] = [];
    const reconciler = instance(store, provider, clock);
    for (let t = expiredAt; t <= expiredAt + 26 * HOUR; t += 15_000) {
      clock.set(iso(t));
      const before = reads.length;
      await reconciler.runOnce();
      if (reads.length > before) readAt.push((t - expiredAt) / MINUTE);
    }

    const gaps = readAt.slice(1).map((at, i) => at - readAt[i]!);
    expect(readAt[0]).toBeLessThanOrEqual(1);
    // The wait grows (doubling while under the cap, once the first read has set it on the passes' grid), never
    // shrinks, and stops at an hour.
    expect(gaps.slice(1, 7).every((gap, i) => i === 0 || gap >= 1.5 * gaps[i]!)).toBe(true);
    expect(gaps.every((gap, i) => i === 0 || gap >= gaps[i - 1]!)).toBe(true);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(60.25);
    expect(gaps.filter((gap) => gap >= 60)).not.toHaveLength(0);
    // Followed to the end of its day, and no further.
    expect(readAt.at(-1)!).toBeGreaterThan(23 * 60);
    expect(readAt.at(-1)!).toBeLessThanOrEqual(24 * 60);
    expect(reads.length).toBeGreaterThanOrEqual(25);
    expect(reads.length).toBeLessThanOrEqual(40);
  }, 60_000);
});
