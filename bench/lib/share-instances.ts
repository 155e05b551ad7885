/**
 * What the share rows (../share-rows.ts) run: BFF instances' reconcilers over one database, each with the real
 * checkout service and a provider that only counts the reads it is asked for, and the stores they share (SQLite: two
 * connections to one file; PostgreSQL: two stores in a schema of their own, made and dropped here).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Clock } from '../../server/lib/clock';
import { createReconciler, type ReconcilerOptions } from '../../server/payments/reconciler';
import { createCheckoutService, type CheckoutServiceStore } from '../../server/payments/service';
import type { ProviderClient } from '../../server/provider';
import { openBenchStore } from './open-store';
import type { CheckoutStore, StoreConnection } from '../../server/store';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

/** A provider that answers every transaction as waiting for its payer after `latencyMs`, counting the reads. */
export function countingProvider(latencyMs: number) {
  const counter = { reads: 0 };
  const provider = {
    transactions: {
      retrieve: async () => {
        counter.reads++;
        if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
        return { transaction: { state: 'Registered' } };
      },
    },
  } as unknown as ProviderClient;
  return { counter, provider };
}

/** One instance's reconciler: the real service and reconciler over `store`. */
export function reconcilerOf(store: CheckoutServiceStore, provider: ProviderClient, clock: Clock, tuning: Partial<ReconcilerOptions> = {}) {
  const service = createCheckoutService({
    provider,
    store,
    clock,
    orders: { resolve: async () => undefined },
    webhook: { url: 'https://bench.invalid/api/webhooks/provider', headerName: 'x-webhook-secret', secret: 'bench' },
    defaultReturnUrl: 'https://bench.invalid/return',
  });
  return createReconciler({ store, service, clock, onError: (error) => console.error('bench reconciler:', error), ...tuning });
}

/** `live` Registered checkouts quiet since `at`, and `expired` ones that expired at `expiredAt`. */
export async function seedStale(
  store: CheckoutStore,
  counts: { live: number; expired: number },
  at: number,
  expiredAt = at,
): Promise<void> {
  const iso = (ms: number) => new Date(ms).toISOString();
  for (let i = 0; i < counts.live + counts.expired; i++) {
    const id = `co_bench_${randomBytes(8).toString('hex')}`;
    const { checkout } = await store.reserveCheckout({
      id,
      orderId: `order-${id}`,
      method: 'pix',
      amountCents: 1000,
      createdAt: iso(at),
      expiresAt: iso(at + 48 * HOUR),
    });
    await store.activateCheckout(checkout.id, { state: 'Registered', transactionId: `tx-${id}` }, iso(at));
    if (i >= counts.live) await store.apply(checkout.id, { type: 'expire' }, 'reconcile', {}, iso(expiredAt));
  }
}

/** What an instance of these rows takes of its store: the ports its checkout service and reconciler use, and its connection. */
export type InstanceStore = CheckoutServiceStore & StoreConnection;

export interface SharedStores {
  stores: [InstanceStore, InstanceStore];
  close(): Promise<void>;
}

/** Two stores on one new SQLite file. */
export async function sqliteShared(): Promise<SharedStores> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-share-'));
  const file = join(dir, 'store.sqlite');
  const stores: [InstanceStore, InstanceStore] = [await openBenchStore({ file }), await openBenchStore({ file })];
  return {
    stores,
    async close() {
      await Promise.all(stores.map((store) => store.close()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs `sql` on the database of `url` with a connection of its own. */
async function run(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Two stores in a new schema of the database of `url`, dropped on close. */
export async function postgresShared(url: string): Promise<SharedStores> {
  const schema = `bench_share_${randomBytes(4).toString('hex')}`;
  await run(url, `CREATE SCHEMA ${schema}`);
  const scoped = new URL(url);
  scoped.searchParams.set('options', `-c search_path=${schema}`);
  const stores: [InstanceStore, InstanceStore] = [
    await openBenchStore({ databaseUrl: scoped.toString() }),
    await openBenchStore({ databaseUrl: scoped.toString() }),
  ];
  return {
    stores,
    async close() {
      await Promise.all(stores.map((store) => store.close()));
      await run(url, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    },
  };
}
