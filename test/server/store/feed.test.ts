/**
 * The one event feed (server/store/feed.ts): a store opened by `openStore` tells its hub of every change it commits,
 * once, after the commit, and of nothing else; the payment code never publishes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../server/store/index';
import type { StatusHub, Store } from '../../../server/store/types';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from './pg-test-database';
import { at, draftFor } from './store-contract';

const root = mkdtempSync(join(tmpdir(), 'feed-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let pg: TestDatabase | undefined;
afterAll(async () => pg?.drop());

const backends: [string, () => Promise<string | undefined>][] = [
  ['SQLite', async () => undefined],
  ...(TEST_DATABASE_URL
    ? ([['PostgreSQL', async () => (pg ??= await createTestDatabase(TEST_DATABASE_URL!)).url]] as [string, () => Promise<string>][])
    : []),
];

describe.each(backends)('openStore (%s) publishes what it commits', (_name, databaseUrl) => {
  let store: Store;
  let hub: StatusHub;
  let heard: [string, number][];
  let unsubscribe: () => void;

  beforeEach(async () => {
    ({ store, hub } = await openStore({ dataDir: mkdtempSync(join(root, 'data-')), databaseUrl: await databaseUrl() }));
    heard = [];
    unsubscribe = hub.subscribeAll((topic, seq) => heard.push([topic, seq]));
  });
  afterEach(async () => {
    unsubscribe();
    await Promise.all([store.close(), hub.close()]);
  });

  const order = () => `F-${Math.random().toString(36).slice(2)}`;

  it('an activation, each move, and a late payment that expires the newer code (both checkouts)', async () => {
    const orderId = order();
    const { checkout: old } = await store.reserveCheckout(draftFor(orderId));
    expect(heard).toEqual([]); // a reservation is no change a browser can see
    await store.activateCheckout(old.id, { state: 'Registered', transactionId: `tx-${old.id}` }, at(1));
    expect(heard).toEqual([[old.id, 1]]);
    await store.apply(old.id, { type: 'expire' }, 'reconcile', {}, at(31));
    const { checkout: fresh } = await store.reserveCheckout(draftFor(orderId, { id: `${old.id}-2` }));
    await store.activateCheckout(fresh.id, { state: 'Registered', transactionId: `tx-${fresh.id}` }, at(32));
    heard = [];
    const paid = await store.apply(old.id, { type: 'provider', state: 'Completed' }, 'webhook', {}, at(40));
    expect(paid.changed).toBe(true);
    expect(heard).toEqual([
      [old.id, 3],
      [fresh.id, 2],
    ]);
  });

  it('nothing for a move the machine or the compare-and-set refuses', async () => {
    const { checkout } = await store.reserveCheckout(draftFor(order()));
    await store.activateCheckout(checkout.id, { state: 'Completed', transactionId: `tx-${checkout.id}` }, at(1));
    heard = [];
    expect((await store.apply(checkout.id, { type: 'provider', state: 'Error' }, 'webhook', {}, at(2))).changed).toBe(false);
    expect((await store.apply(checkout.id, { type: 'provider', state: 'Completed' }, 'webhook', {}, at(2))).changed).toBe(false);
    await expect(store.activateCheckout(checkout.id, { state: 'Created', transactionId: 'tx-again' }, at(3))).rejects.toThrow();
    expect(heard).toEqual([]);
  });

  it('an adopted transaction, once', async () => {
    const draft = draftFor(order());
    const inserted = await store.insertActive(draft, { state: 'Created', transactionId: `tx-${draft.id}` }, 'webhook', null, at(1));
    expect(await store.insertActive(draft, { state: 'Created', transactionId: `tx-${draft.id}` }, 'webhook', null, at(1))).toBeUndefined();
    expect(heard).toEqual([[inserted!.checkout.id, 1]]);
  });

  it('a cash-out’s answer and each new state, on its own topic', async () => {
    const key = `key-${Math.random().toString(36).slice(2)}`;
    await store.reserveCashOut({
      idempotencyKey: key,
      fingerprint: 'f',
      orderId: `payout-${key}`,
      amountCents: 1000,
      recipientName: 'João',
      recipientCpf: '52998224725',
      keyType: 'EMAIL',
      keyValue: 'joao@example.com',
      createdAt: at(0),
    });
    await store.activateCashOut(key, `tx-${key}`, 'Created', at(1));
    await store.activateCashOut(key, `tx-${key}`, 'Created', at(1)); // no longer Sending: nothing
    await store.updateCashOut(key, { state: 'Created' }, at(2)); // nothing differs: nothing
    await store.updateCashOut(key, { state: 'Completed', charges: '0.600000' }, at(3));
    expect(heard).toEqual([
      [`cashout:${key}`, 0],
      [`cashout:${key}`, 0],
    ]);
  });
});
