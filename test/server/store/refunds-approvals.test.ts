/**
 * Partial refunds and the approval of movements in the store (server/store/back-office.ts), on SQLite and (with
 * TEST_DATABASE_URL) PostgreSQL alike, each with two stores open on one database (two instances): the refunds of a
 * checkout never add up to more than it was paid, also when reservations race on both stores; only a Completed
 * checkout is refunded; a refund waiting for approval holds its amount, a failed or rejected one frees it; an owner's
 * decision is atomic (of two at once, one wins); the approvals are listed waiting or decided; a refused approved
 * movement waits for a decision again.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CashOut, NewCashOut, ReserveCashOutResult } from '../../../server/store/back-office';
import { openPostgresStore } from '../../../server/store/postgres';
import { openSqliteStore } from '../../../server/store/sqlite';
import type { Checkout, Store } from '../../../server/store/types';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from './pg-test-database';
import { at, draftFor } from './store-contract';

const dir = mkdtempSync(join(tmpdir(), 'refunds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
let pg: TestDatabase | undefined;
afterAll(async () => pg?.drop());

/** Two stores on one database, as two instances (or processes) would open it. */
type Open = () => Promise<[Store, Store]>;

const backends: [string, Open][] = [
  [
    'SQLite',
    async () => {
      const file = join(dir, `store-${++files}.sqlite`);
      return [openSqliteStore({ file }), openSqliteStore({ file })];
    },
  ],
  ...(TEST_DATABASE_URL
    ? ([
        [
          'PostgreSQL',
          async () => {
            pg ??= await createTestDatabase(TEST_DATABASE_URL!);
            const stores = await Promise.all([
              openPostgresStore({ connectionString: pg.url }),
              openPostgresStore({ connectionString: pg.url }),
            ]);
            await pg.query('DELETE FROM cashouts');
            return stores;
          },
        ],
      ] as [string, Open][])
    : []),
];

/** The draft checkouts' amount (store-contract's `draftFor`). */
const PAID = 12_345;

/** The cash-out a reservation took or found (the test fails on a refusal). */
const taken = (result: ReserveCashOutResult): CashOut => {
  if (!('cashOut' in result)) throw new Error(`reservation refused: ${result.outcome}`);
  return result.cashOut;
};

describe.each(backends)('refunds and approvals in the store (%s)', (_name, open) => {
  let store: Store;
  let other: Store;
  beforeEach(async () => {
    [store, other] = await open();
  });
  afterEach(async () => {
    await Promise.all([store.close(), other.close()]);
  });

  /** A PIX checkout of a new order, activated and moved on to `state`. */
  async function checkoutIn(state: 'Completed' | 'Registered' = 'Completed'): Promise<Checkout> {
    const { checkout } = await store.reserveCheckout(draftFor(`R-${randomUUID()}`));
    await store.activateCheckout(checkout.id, { state: 'Registered', transactionId: `tx-${checkout.id}` }, at(0));
    if (state === 'Registered') return (await store.getCheckout(checkout.id))!;
    return (await store.apply(checkout.id, { type: 'provider', state: 'Completed' }, 'webhook', {}, at(1))).checkout;
  }

  const draft = (overrides: Partial<NewCashOut> = {}): NewCashOut => ({
    idempotencyKey: randomUUID(),
    fingerprint: 'f1',
    orderId: `refund-${randomUUID()}`,
    amountCents: 1_000,
    recipientName: 'Maria da Silva',
    recipientCpf: '52998224725',
    keyType: 'CPF',
    keyValue: '52998224725',
    requestedBy: 'maker@shop.example',
    createdAt: at(2),
    ...overrides,
  });
  /** The provider's answer to a reservation's call, stored: it is no longer `Sending`. */
  const answered = (cashOut: CashOut) => store.activateCashOut(cashOut.idempotencyKey, `tx-${cashOut.idempotencyKey}`, 'Created', at(3));
  const refund = (checkout: Checkout, amountCents: number, overrides: Partial<NewCashOut> = {}) =>
    store.reserveCashOut(draft({ refundOf: checkout.id, amountCents, ...overrides }));
  const heldOf = async (checkout: Checkout) =>
    (await store.refundsOf([checkout.id]))
      .filter((r) => ['PendingApproval', 'Sending', 'Created', 'Registered', 'Completed'].includes(r.state))
      .reduce((sum, r) => sum + r.amountCents, 0);

  describe('the refunds of a checkout', () => {
    it('take parts of the payment up to what was paid, and refuse more with what is left', async () => {
      const checkout = await checkoutIn();
      const first = await refund(checkout, 5_000);
      expect(taken(first)).toMatchObject({
        state: 'Sending',
        amountCents: 5_000,
        refundOf: checkout.id,
        requestedBy: 'maker@shop.example',
      });
      // Until the provider's answer is stored, whether that money left is unknown: no other refund of it is taken.
      expect(await refund(checkout, 1)).toEqual({ outcome: 'in_progress' });
      expect(await other.reserveCashOut(draft({ refundOf: checkout.id, amountCents: 1, awaitsApproval: true }))).toEqual({
        outcome: 'in_progress',
      });
      await answered(taken(first));
      expect(await refund(checkout, 8_000)).toEqual({ outcome: 'exceeds_paid', refundableCents: PAID - 5_000 });
      await answered(taken(await refund(checkout, PAID - 5_000)));
      expect(await refund(checkout, 1)).toEqual({ outcome: 'exceeds_paid', refundableCents: 0 });
      // A key already taken answers its refund, whatever is left.
      expect(await refund(checkout, 1, { idempotencyKey: taken(first).idempotencyKey })).toEqual({
        outcome: 'existing',
        cashOut: (await store.getCashOut(taken(first).idempotencyKey))!,
      });
      expect(await heldOf(checkout)).toBe(PAID);
    });

    it('are taken only of a Completed checkout', async () => {
      const registered = await checkoutIn('Registered');
      expect(await refund(registered, 100)).toEqual({ outcome: 'not_paid' });
      expect(await store.reserveCashOut(draft({ refundOf: 'co_nobody' }))).toEqual({ outcome: 'not_paid' });
      expect(await store.refundsOf([registered.id])).toEqual([]);
    });

    it('free the amount of a failed refund, and hold that of one waiting for approval', async () => {
      const checkout = await checkoutIn();
      const failed = taken(await refund(checkout, PAID));
      await store.activateCashOut(failed.idempotencyKey, `tx-${failed.idempotencyKey}`, 'Created', at(3));
      await store.updateCashOut(failed.idempotencyKey, { state: 'Error' }, at(4));
      const pending = taken(await refund(checkout, 10_000, { awaitsApproval: true }));
      expect(pending).toMatchObject({ state: 'PendingApproval', transactionId: null, decidedBy: null, decidedAt: null });
      expect(await refund(checkout, PAID - 10_000 + 1)).toEqual({ outcome: 'exceeds_paid', refundableCents: PAID - 10_000 });
      expect((await store.decideCashOut(pending.idempotencyKey, { approve: false, by: 'owner@shop.example', at: at(5) })).outcome).toBe(
        'decided',
      );
      expect((await refund(checkout, PAID)).outcome).toBe('created');
    });

    it('never add up to more than was paid when reservations race on two instances: one at a time, 3 of 30 % in all', async () => {
      const checkout = await checkoutIn();
      const part = Math.floor(PAID * 0.3);
      // Connections opened first, so the reservations run side by side rather than one per new connection.
      await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? other : store).getCheckout(checkout.id)));
      const race = () =>
        Promise.all(
          Array.from({ length: 10 }, (_, i) => (i % 2 ? other : store).reserveCashOut(draft({ refundOf: checkout.id, amountCents: part }))),
        );
      for (let round = 0; round < 3; round++) {
        // One is taken; the others wait for its provider answer (the store has it Sending).
        const results = await race();
        const made = results.filter((r) => r.outcome === 'created');
        expect(made).toHaveLength(1);
        expect(results.filter((r) => r.outcome === 'in_progress')).toHaveLength(9);
        await answered(taken(made[0]!));
      }
      const last = await race();
      expect(last.every((r) => r.outcome === 'exceeds_paid')).toBe(true);
      expect(await heldOf(checkout)).toBe(3 * part);
      expect((await other.refundsOf([checkout.id])).length).toBe(3);
    });

    it('count every refund that holds an amount across keys of both instances, partial ones of several checkouts apart', async () => {
      const [a, b] = [await checkoutIn(), await checkoutIn()];
      // Kept for approval: each holds its amount, and none is being sent, so none waits for another.
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          (i % 2 ? other : store).reserveCashOut(draft({ refundOf: (i < 4 ? a : b).id, amountCents: 4_000, awaitsApproval: true })),
        ),
      );
      expect(results.filter((r) => r.outcome === 'created')).toHaveLength(6);
      expect([await heldOf(a), await heldOf(b)]).toEqual([12_000, 12_000]);
    });
  });

  describe("an owner's decision", () => {
    it('approves a waiting movement into Sending with who and when, once', async () => {
      const pending = taken(await store.reserveCashOut(draft({ awaitsApproval: true })));
      expect(pending).toMatchObject({ state: 'PendingApproval', requestedBy: 'maker@shop.example' });
      const decided = await store.decideCashOut(pending.idempotencyKey, { approve: true, by: 'owner@shop.example', at: at(5) });
      expect(decided).toEqual({
        outcome: 'decided',
        cashOut: { ...pending, state: 'Sending', decidedBy: 'owner@shop.example', decidedAt: at(5), updatedAt: at(5) },
      });
      const again = await other.decideCashOut(pending.idempotencyKey, { approve: false, by: 'other@shop.example', at: at(6) });
      expect(again).toMatchObject({ outcome: 'not_pending', cashOut: { state: 'Sending', decidedBy: 'owner@shop.example' } });
      expect(await store.decideCashOut('no-such-key', { approve: true, by: 'owner@shop.example', at: at(6) })).toEqual({
        outcome: 'not_found',
      });
      // A cash-out sent without an approval is not one to decide.
      const sent = taken(await store.reserveCashOut(draft()));
      expect((await store.decideCashOut(sent.idempotencyKey, { approve: true, by: 'owner@shop.example', at: at(6) })).outcome).toBe(
        'not_pending',
      );
    });

    it('lets exactly one of several decisions at once, on both instances, win', async () => {
      const pending = taken(await store.reserveCashOut(draft({ awaitsApproval: true })));
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          (i % 2 ? other : store).decideCashOut(pending.idempotencyKey, { approve: i % 3 !== 0, by: `owner-${i}@shop.example`, at: at(5) }),
        ),
      );
      const winners = results.filter((r) => r.outcome === 'decided');
      expect(winners).toHaveLength(1);
      const stored = (await store.getCashOut(pending.idempotencyKey))!;
      expect(stored.decidedBy).toBe((winners[0] as { cashOut: CashOut }).cashOut.decidedBy);
      expect(['Sending', 'Rejected']).toContain(stored.state);
    });

    it('rejects into Rejected, which nothing moves any more', async () => {
      const pending = taken(await store.reserveCashOut(draft({ awaitsApproval: true })));
      await store.decideCashOut(pending.idempotencyKey, { approve: false, by: 'owner@shop.example', at: at(5) });
      expect(await store.activateCashOut(pending.idempotencyKey, 'tx-late', 'Created', at(6))).toBeUndefined();
      await store.discardCashOut(pending.idempotencyKey);
      expect(await store.getCashOut(pending.idempotencyKey)).toMatchObject({ state: 'Rejected', decidedBy: 'owner@shop.example' });
    });

    it('lists the waiting movements oldest first and the decided ones most recently decided first', async () => {
      const keys = ['ap-1', 'ap-2', 'ap-3', 'ap-4'];
      for (const [i, key] of keys.entries())
        await store.reserveCashOut(draft({ idempotencyKey: key, awaitsApproval: true, createdAt: at(10 - i) }));
      await store.reserveCashOut(draft({ idempotencyKey: 'not-an-approval' }));
      await store.decideCashOut('ap-2', { approve: true, by: 'owner@shop.example', at: at(20) });
      await store.decideCashOut('ap-4', { approve: false, by: 'owner@shop.example', at: at(21) });
      expect((await other.listApprovals('pending', 10)).map((c) => c.idempotencyKey)).toEqual(['ap-3', 'ap-1']);
      expect((await other.listApprovals('decided', 10)).map((c) => [c.idempotencyKey, c.state])).toEqual([
        ['ap-4', 'Rejected'],
        ['ap-2', 'Sending'],
      ]);
      expect(await other.listApprovals('pending', 1)).toHaveLength(1);
    });

    it('puts an approved movement whose call was refused back to waiting, and deletes one sent without approval', async () => {
      const approved = taken(await store.reserveCashOut(draft({ awaitsApproval: true })));
      await store.decideCashOut(approved.idempotencyKey, { approve: true, by: 'owner@shop.example', at: at(5) });
      await other.discardCashOut(approved.idempotencyKey);
      expect(await store.getCashOut(approved.idempotencyKey)).toMatchObject({ state: 'PendingApproval', decidedBy: null, decidedAt: null });
      const sent = taken(await store.reserveCashOut(draft()));
      await other.discardCashOut(sent.idempotencyKey);
      expect(await store.getCashOut(sent.idempotencyKey)).toBeUndefined();
    });
  });
});
