/**
 * The back office's payments list (`listCheckouts`) and the refunds of its pages (`refundsOf`) against a model of
 * what they mean, on SQLite and (with TEST_DATABASE_URL) PostgreSQL alike: for every combination of filters, the
 * pages read one after the other by their cursor give exactly the checkouts the filters describe, newest first then
 * id descending, each once. The queries were rewritten to seek indexes (./list-plans.test.ts); this pins that they
 * still say the same thing: several states at once, a period with a cursor, a late payment (Completed, paid after its
 * window) against the rows the flagged index also holds, and the refunds of more checkouts than one statement takes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CheckoutState } from '../../../core/states';
import type { CheckoutFilter } from '../../../server/store/back-office';
import { openPostgresStore } from '../../../server/store/postgres';
import { openSqliteStore } from '../../../server/store/sqlite';
import type { Checkout, Store } from '../../../server/store/types';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from './pg-test-database';
import { at, draftFor } from './store-contract';

const dir = mkdtempSync(join(tmpdir(), 'checkout-list-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
let pg: TestDatabase | undefined;
afterAll(async () => pg?.drop());

const backends: [string, () => Promise<Store>][] = [
  ['SQLite', async () => openSqliteStore({ file: join(dir, `store-${++files}.sqlite`) })],
  ...(TEST_DATABASE_URL
    ? ([
        [
          'PostgreSQL',
          async () => {
            pg ??= await createTestDatabase(TEST_DATABASE_URL!);
            const store = await openPostgresStore({ connectionString: pg.url });
            await pg.query('DELETE FROM cashouts; DELETE FROM checkout_events; DELETE FROM checkouts');
            return store;
          },
        ],
      ] as [string, () => Promise<Store>][])
    : []),
];

const STATES: CheckoutState[] = ['Completed', 'Expired', 'Error', 'Cancelled', 'Reversed', 'Registered', 'Created'];
/** Ids whose order is not their creation's: hex of a multiple of a large odd number, so ties on time sort by id. */
const idOf = (i: number) => `c${((i * 2_654_435_761) % 2 ** 32).toString(16).padStart(8, '0')}`;

/** Paid after its window, as the list means it. */
const late = (c: Checkout) => c.state === 'Completed' && typeof c.details.paidAt === 'string' && c.details.paidAt > c.expiresAt!;

/** The checkouts `filter` lists, in the list's order: the model the store's pages are held to. */
function model(all: Checkout[], filter: CheckoutFilter): string[] {
  return all
    .filter(
      (c) =>
        c.state !== 'Creating' &&
        (!filter.states?.length || filter.states.includes(c.state as never)) &&
        (!filter.method || c.method === filter.method) &&
        (!filter.from || c.createdAt >= filter.from) &&
        (!filter.to || c.createdAt < filter.to) &&
        (!filter.orderId || c.orderId === filter.orderId) &&
        (filter.flag !== 'duplicate' || c.duplicateOf !== null) &&
        (filter.flag !== 'late' || late(c)) &&
        (filter.flag !== 'flagged' || c.duplicateOf !== null || late(c)) &&
        (!filter.after || c.createdAt < filter.after.createdAt || (c.createdAt === filter.after.createdAt && c.id < filter.after.id)),
    )
    .sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1))
    .map((c) => c.id);
}

describe.each(backends)('the payments list (%s)', (_name, open) => {
  let store: Store;
  beforeEach(async () => {
    store = await open();
  });
  afterEach(async () => {
    await store.close();
  });

  /**
   * 70 checkouts over 35 minutes (two at each minute): every state, one in three OpenFinance, some paid late (and a
   * Reversed one paid late, which is not a late payment), one Completed with no `paidAt`, five duplicates of the
   * checkout before them, and a reservation still `Creating`.
   */
  async function history(): Promise<Checkout[]> {
    for (let i = 0; i < 70; i++) {
      const state = STATES[i % STATES.length]!;
      const createdAt = at(Math.floor(i / 2));
      const expiresAt = at(Math.floor(i / 2) + 30);
      const paidAt = i % 2 === 0 ? at(Math.floor(i / 2) + 31) : at(Math.floor(i / 2) + 1);
      const details = i === 14 ? {} : state === 'Completed' || state === 'Reversed' ? { paidAt } : {};
      const duplicateOf = i % 17 === 1 ? idOf(i - 1) : null;
      const draft = draftFor(duplicateOf ? `O-${i - 1}` : `O-${i}`, {
        id: idOf(i),
        method: i % 3 === 0 ? 'openfinance' : 'pix',
        createdAt,
        expiresAt,
      });
      const fields = { state: duplicateOf ? 'Completed' : state, transactionId: `tx-${i}`, details };
      const stored = await store.insertActive(draft, fields, 'webhook', duplicateOf, createdAt);
      expect(stored, `checkout ${i}`).toBeDefined();
    }
    await store.reserveCheckout(draftFor('O-creating', { id: 'cffffffff', createdAt: at(20) }));
    const all = await Promise.all(Array.from({ length: 70 }, (_, i) => store.getCheckout(idOf(i))));
    return [...all.map((c) => c!), (await store.getCheckout('cffffffff'))!];
  }

  /** Every page of `filter`'s list, `size` at a time, each after the last row of the one before. */
  async function pages(filter: CheckoutFilter, size: number): Promise<string[]> {
    const ids: string[] = [];
    let after = filter.after;
    for (;;) {
      const page = await store.listCheckouts({ ...filter, ...(after ? { after } : {}) }, size);
      ids.push(...page.map((c) => c.id));
      if (page.length < size) return ids;
      after = { createdAt: page.at(-1)!.createdAt, id: page.at(-1)!.id };
    }
  }

  it('pages every combination of filters to exactly the checkouts they describe, each once, in order', async () => {
    const all = await history();
    expect(all.filter(late).length).toBeGreaterThan(2);
    expect(all.filter((c) => c.duplicateOf).length).toBe(5);
    const mismatches: string[] = [];
    for (const states of [undefined, ['Reversed'], ['Completed', 'Error', 'Expired']] as const)
      for (const method of [undefined, 'openfinance'] as const)
        for (const period of [{}, { from: at(5) }, { to: at(25) }, { from: at(5), to: at(25) }])
          for (const orderId of [undefined, 'O-17'])
            for (const flag of [undefined, 'duplicate', 'late', 'flagged'] as const) {
              const filter: CheckoutFilter = {
                ...(states ? { states: [...states] } : {}),
                ...(method ? { method } : {}),
                ...period,
                ...(orderId ? { orderId } : {}),
                ...(flag ? { flag } : {}),
              };
              const got = await pages(filter, 4);
              const expected = model(all, filter);
              if (JSON.stringify(got) !== JSON.stringify(expected))
                mismatches.push(`${JSON.stringify(filter)}: ${got.join()} ≠ ${expected.join()}`);
            }
    expect(mismatches).toEqual([]);
  });

  it('keeps a period when the cursor is after its end, and pages within it when the cursor is inside', async () => {
    const all = await history();
    const outside = { to: at(10), after: { createdAt: at(20), id: idOf(41) } };
    expect(await pages(outside, 5)).toEqual(model(all, outside));
    expect(model(all, outside).length).toBeGreaterThan(5);
    const inside = { from: at(2), to: at(10), after: { createdAt: at(8), id: idOf(16) } };
    expect(await pages(inside, 3)).toEqual(model(all, inside));
    expect((await store.listCheckouts(outside, 100)).every((c) => c.createdAt < at(10))).toBe(true);
  });

  it("gives the refunds of more checkouts than one statement takes, each once, oldest first across the statements' parts", async () => {
    const refunded: string[] = [];
    for (let i = 0; i < 3; i++) {
      const draft = draftFor(`R-${i}`, { id: `r${i}`, createdAt: at(i) });
      await store.insertActive(
        draft,
        { state: 'Completed', transactionId: `tx-r${i}`, details: { paidAt: at(i) } },
        'webhook',
        null,
        at(i),
      );
      refunded.push(draft.id);
    }
    // Made newest checkout first, so their time order is not the order of the ids asked for.
    const keys: string[] = [];
    for (const [n, refundOf] of [...refunded].reverse().entries()) {
      const key = `refund-${n}`;
      const reserved = await store.reserveCashOut({
        idempotencyKey: key,
        fingerprint: 'f',
        orderId: `payout-${n}`,
        amountCents: 100,
        recipientName: 'Maria da Silva',
        recipientCpf: '52998224725',
        keyType: 'CPF',
        keyValue: '52998224725',
        refundOf,
        createdAt: at(10 + n),
      });
      expect(reserved.outcome).toBe('created');
      keys.push(key);
    }
    // 2,000 ids, the refunded ones far apart (first, middle and last), one of them twice.
    const ids = Array.from({ length: 2_000 }, (_, i) => `none-${i}`);
    [ids[0], ids[1_100], ids[1_999]] = refunded as [string, string, string];
    ids.push(refunded[1]!);
    expect((await store.refundsOf(ids)).map((r) => r.idempotencyKey)).toEqual(keys);
    expect((await store.refundsOf([refunded[2]!])).map((r) => r.idempotencyKey)).toEqual([keys[0]]);
    expect(await store.refundsOf(['none'])).toEqual([]);
  });
});
