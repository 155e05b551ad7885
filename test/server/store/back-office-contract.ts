/**
 * The back-office part of every `Store` (server/store/back-office.ts), run against SQLite and PostgreSQL alike: the
 * filtered, cursor-paged checkout list with its late and duplicate flags, and cash-outs under their idempotency key,
 * refunds linked to their checkout.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CashOut, NewCashOut, ReserveCashOutResult } from '../../../server/store/back-office';
import type { Checkout, Store } from '../../../server/store/types';
import { at, draftFor, type StoreSetup } from './store-contract';

export function describeBackOfficeContract(name: string, setup: StoreSetup) {
  describe(`${name} store, back-office`, () => {
    let store: Store;
    let teardown: () => Promise<void>;
    beforeEach(async () => {
      ({ store, teardown } = await setup());
    });
    afterEach(async () => {
      await teardown();
    });

    /** An activated PIX checkout of `orderId` created at `minute`, moved on to `state`. */
    async function paid(orderId: string, minute: number, state = 'Completed', paidAt?: string): Promise<Checkout> {
      const { checkout } = await store.reserveCheckout(draftFor(orderId, { createdAt: at(minute), expiresAt: at(minute + 30) }));
      await store.activateCheckout(checkout.id, { state: 'Registered', transactionId: `tx-${checkout.id}` }, at(minute));
      if (state === 'Registered') return (await store.getCheckout(checkout.id))!;
      const details = paidAt ? { paidAt } : {};
      return (await store.apply(checkout.id, { type: 'provider', state: state as 'Completed' }, 'webhook', {}, at(minute + 1), { details }))
        .checkout;
    }

    /** The cash-out a reservation took or found (the test fails on a refusal). */
    const taken = (result: ReserveCashOutResult): CashOut => {
      if (!('cashOut' in result)) throw new Error(`reservation refused: ${result.outcome}`);
      return result.cashOut;
    };

    const cashOut = (overrides: Partial<NewCashOut> = {}): NewCashOut => ({
      idempotencyKey: randomUUID(),
      fingerprint: 'f1',
      orderId: `payout-${randomUUID()}`,
      amountCents: 1_000,
      recipientName: 'Maria da Silva',
      recipientCpf: '52998224725',
      keyType: 'CPF',
      keyValue: '52998224725',
      createdAt: at(0),
      ...overrides,
    });

    describe('checkout list', () => {
      it('lists newest first, never Creating, and pages by cursor without gaps or repeats', async () => {
        const made: Checkout[] = [];
        for (let minute = 0; minute < 5; minute++) made.push(await paid(`L-${minute}`, minute, 'Registered'));
        await store.reserveCheckout(draftFor('L-creating', { createdAt: at(9) }));
        const first = await store.listCheckouts({}, 2);
        expect(first.map((c) => c.orderId)).toEqual(['L-4', 'L-3']);
        const second = await store.listCheckouts({ after: { createdAt: first[1]!.createdAt, id: first[1]!.id } }, 2);
        expect(second.map((c) => c.orderId)).toEqual(['L-2', 'L-1']);
        const third = await store.listCheckouts({ after: { createdAt: second[1]!.createdAt, id: second[1]!.id } }, 2);
        expect(third.map((c) => c.orderId)).toEqual(['L-0']);
      });

      it('orders checkouts of the same instant by id, descending, and pages through them', async () => {
        const ids = [];
        for (let i = 0; i < 3; i++) ids.push((await paid(`S-${i}`, 0, 'Registered')).id);
        const sorted = [...ids].sort().reverse();
        const page1 = await store.listCheckouts({}, 2);
        const page2 = await store.listCheckouts({ after: { createdAt: page1[1]!.createdAt, id: page1[1]!.id } }, 2);
        expect([...page1, ...page2].map((c) => c.id)).toEqual(sorted);
      });

      it('filters by state, method, date range and order id', async () => {
        await paid('F-1', 0, 'Registered');
        const done = await paid('F-2', 10, 'Completed');
        await paid('F-3', 20, 'Error');
        expect((await store.listCheckouts({ states: ['Completed', 'Error'] }, 10)).map((c) => c.orderId)).toEqual(['F-3', 'F-2']);
        expect(await store.listCheckouts({ method: 'openfinance' }, 10)).toEqual([]);
        expect((await store.listCheckouts({ method: 'pix', from: at(5), to: at(20) }, 10)).map((c) => c.id)).toEqual([done.id]);
        expect((await store.listCheckouts({ orderId: 'F-1' }, 10)).map((c) => c.orderId)).toEqual(['F-1']);
        expect(await store.listCheckouts({ orderId: 'F-' }, 10)).toEqual([]);
      });

      it('flags a late payment (paid after its window) and a duplicate (a second transaction of its order)', async () => {
        const onTime = await paid('G-1', 0, 'Completed', at(5));
        const late = await paid('G-2', 1, 'Completed', at(45));
        const { checkout: first } = await store.reserveCheckout(draftFor('G-3', { createdAt: at(2), expiresAt: at(32) }));
        await store.activateCheckout(first.id, { state: 'Registered', transactionId: 'tx-g3-first' }, at(2));
        await store.apply(first.id, { type: 'provider', state: 'Completed', paidAt: at(3) }, 'webhook', {}, at(3), {
          details: { paidAt: at(3) },
        });
        const duplicate = await store.insertActive(
          draftFor('G-3', { createdAt: at(4), expiresAt: at(34) }),
          { state: 'Completed', transactionId: 'tx-g3-second', details: { paidAt: at(4) } },
          'webhook',
          first.id,
          at(4),
        );
        expect((await store.listCheckouts({ flag: 'late' }, 10)).map((c) => c.id)).toEqual([late.id]);
        expect((await store.listCheckouts({ flag: 'duplicate' }, 10)).map((c) => c.id)).toEqual([duplicate!.checkout.id]);
        expect((await store.listCheckouts({ flag: 'flagged' }, 10)).map((c) => c.id)).toEqual([duplicate!.checkout.id, late.id]);
        expect((await store.listCheckouts({ flag: 'flagged', orderId: onTime.orderId }, 10)).map((c) => c.id)).toEqual([]);
      });
    });

    describe('webhooks of a checkout', () => {
      it('keeps each one with its outcome, oldest first, and the most recent ones past the limit', async () => {
        const checkout = await paid('W-1', 0);
        const other = await paid('W-2', 0);
        const tx = checkout.transactionId!;
        await store.recordWebhook({
          checkoutId: checkout.id,
          transactionId: tx,
          state: 'Completed',
          outcome: 'applied',
          receivedAt: at(2),
        });
        await store.recordWebhook({ checkoutId: other.id, transactionId: 'tx-other', state: null, outcome: 'ignored', receivedAt: at(2) });
        await store.recordWebhook({
          checkoutId: checkout.id,
          transactionId: tx,
          state: 'Completed',
          outcome: 'ignored',
          receivedAt: at(3),
        });
        await store.recordWebhook({ checkoutId: checkout.id, transactionId: tx, state: null, outcome: 'ignored', receivedAt: at(4) });
        expect(await store.webhooksOf(checkout.id, 10)).toEqual([
          { checkoutId: checkout.id, transactionId: tx, state: 'Completed', outcome: 'applied', receivedAt: at(2) },
          { checkoutId: checkout.id, transactionId: tx, state: 'Completed', outcome: 'ignored', receivedAt: at(3) },
          { checkoutId: checkout.id, transactionId: tx, state: null, outcome: 'ignored', receivedAt: at(4) },
        ]);
        expect((await store.webhooksOf(checkout.id, 2)).map((w) => w.receivedAt)).toEqual([at(3), at(4)]);
        expect(await store.webhooksOf('co_nobody', 10)).toEqual([]);
      });

      it('refuses an outcome it does not know', async () => {
        const checkout = await paid('W-3', 0);
        await expect(
          store.recordWebhook({
            checkoutId: checkout.id,
            transactionId: 'tx',
            state: null,
            outcome: 'maybe' as 'applied',
            receivedAt: at(1),
          }),
        ).rejects.toThrow();
        expect(await store.webhooksOf(checkout.id, 10)).toEqual([]);
      });
    });

    describe('cash-outs', () => {
      it('takes an idempotency key once: the same key returns the same cash-out, also while Sending', async () => {
        const draft = cashOut();
        const first = await store.reserveCashOut(draft);
        expect(first.outcome).toBe('created');
        expect(taken(first)).toMatchObject({ state: 'Sending', transactionId: null, amountCents: 1_000, refundOf: null, charges: null });
        expect(await store.reserveCashOut({ ...draft, fingerprint: 'other' })).toEqual({ outcome: 'existing', cashOut: taken(first) });
        const results = await Promise.all(Array.from({ length: 10 }, () => store.reserveCashOut(cashOut({ idempotencyKey: 'k-race' }))));
        expect(results.filter((r) => r.outcome === 'created')).toHaveLength(1);
      });

      it('activates, follows the provider state forward, and stops once final', async () => {
        const sending = taken(await store.reserveCashOut(cashOut({ idempotencyKey: 'k-1' })));
        const active = await store.activateCashOut('k-1', 'tx-out-1', 'Created', at(1));
        expect(active).toMatchObject({
          idempotencyKey: sending.idempotencyKey,
          transactionId: 'tx-out-1',
          state: 'Created',
          updatedAt: at(1),
        });
        expect(await store.activateCashOut('k-1', 'tx-other', 'Created', at(2))).toBeUndefined();
        expect((await store.updateCashOut('k-1', { state: 'Created' }, at(2))).changed).toBe(false);
        const registered = await store.updateCashOut('k-1', { state: 'Registered', charges: '0.599000' }, at(2));
        expect(registered).toMatchObject({ changed: true, cashOut: { state: 'Registered', charges: '0.599000' } });
        expect((await store.updateCashOut('k-1', { state: 'Completed' }, at(3))).cashOut).toMatchObject({ charges: '0.599000' });
        expect(await store.updateCashOut('k-1', { state: 'Error' }, at(4))).toMatchObject({
          changed: false,
          cashOut: { state: 'Completed' },
        });
        expect(await store.getCashOut('k-1')).toMatchObject({ state: 'Completed', updatedAt: at(3) });
      });

      it('discards only a Sending key, which may then be taken again', async () => {
        await store.reserveCashOut(cashOut({ idempotencyKey: 'k-d' }));
        await store.discardCashOut('k-d');
        expect(await store.getCashOut('k-d')).toBeUndefined();
        expect((await store.reserveCashOut(cashOut({ idempotencyKey: 'k-d' }))).outcome).toBe('created');
        await store.activateCashOut('k-d', 'tx-d', 'Created', at(1));
        await store.discardCashOut('k-d');
        expect(await store.getCashOut('k-d')).toMatchObject({ transactionId: 'tx-d' });
      });

      it('stores an answer that came after its reservation was settled without it, whatever became of the reservation', async () => {
        const checkout = await paid('LA-1', 0);
        const eventsOf = async (key: string) =>
          (await store.merchantEventsAfter(0, 1000)).filter((e) => e.data.idempotencyKey === key).map((e) => e.type);
        // Its key freed (the look found nothing yet): put back as it was reserved, activated, with its events.
        const freed = taken(
          await store.reserveCashOut(cashOut({ idempotencyKey: 'la-freed', refundOf: checkout.id, requestedBy: 'maker' })),
        );
        await store.discardCashOut('la-freed');
        expect(await store.adoptCashOut(freed, 'tx-la-freed', 'Created', at(2))).toEqual({
          ...freed,
          transactionId: 'tx-la-freed',
          state: 'Created',
          updatedAt: at(2),
        });
        expect(await store.refundsOf([checkout.id])).toHaveLength(1);
        // Approved, then back to waiting for a decision, or rejected since: activated all the same.
        for (const [key, approveAgain] of [
          ['la-reopened', undefined],
          ['la-rejected', false],
        ] as const) {
          const approved = taken(await store.reserveCashOut(cashOut({ idempotencyKey: key, awaitsApproval: true })));
          await store.decideCashOut(key, { approve: true, by: 'owner', at: at(1) });
          await store.discardCashOut(key);
          if (approveAgain === false) await store.decideCashOut(key, { approve: false, by: 'owner', at: at(1) });
          expect(await store.adoptCashOut(approved, `tx-${key}`, 'Completed', at(3))).toMatchObject({
            transactionId: `tx-${key}`,
            state: 'Completed',
          });
        }
        // A key that holds a transaction already keeps it.
        expect(await store.adoptCashOut(freed, 'tx-la-other', 'Completed', at(4))).toMatchObject({
          transactionId: 'tx-la-freed',
          state: 'Created',
        });
        expect(await eventsOf('la-freed')).toEqual(['refund.created']);
        expect(await eventsOf('la-reopened')).toEqual(['cashout.completed']);
        expect(await eventsOf('la-rejected')).toEqual(['cashout.completed']);
      });

      it('lists recent cash-outs newest first, and the unsettled ones least recently updated first', async () => {
        await store.reserveCashOut(cashOut({ idempotencyKey: 'a', createdAt: at(1) }));
        await store.reserveCashOut(cashOut({ idempotencyKey: 'b', createdAt: at(2) }));
        await store.reserveCashOut(cashOut({ idempotencyKey: 'c', createdAt: at(3) }));
        await store.activateCashOut('a', 'tx-a', 'Created', at(5));
        await store.activateCashOut('b', 'tx-b', 'Registered', at(4));
        expect((await store.listCashOuts(2)).map((c) => c.idempotencyKey)).toEqual(['c', 'b']);
        expect((await store.listUnsettledCashOuts(10)).map((c) => c.idempotencyKey)).toEqual(['b', 'a']);
      });

      it('holds a refund of the whole payment until it fails, refuses another while one is Sending, and links refunds to their checkout', async () => {
        const checkout = await paid('R-1', 0);
        const first = await store.reserveCashOut(cashOut({ idempotencyKey: 'r-1', refundOf: checkout.id, amountCents: 12_345 }));
        expect(first.outcome).toBe('created');
        // Whether its money left is not known yet: another refund of the checkout waits, whatever its amount.
        expect(await store.reserveCashOut(cashOut({ idempotencyKey: 'r-2', refundOf: checkout.id, amountCents: 1 }))).toEqual({
          outcome: 'in_progress',
        });
        await store.activateCashOut('r-1', 'tx-r1', 'Created', at(1));
        const second = await store.reserveCashOut(cashOut({ idempotencyKey: 'r-2', refundOf: checkout.id, amountCents: 12_345 }));
        expect(second).toEqual({ outcome: 'exceeds_paid', refundableCents: 0 });
        await store.updateCashOut('r-1', { state: 'Error' }, at(2));
        const retry = await store.reserveCashOut(
          cashOut({ idempotencyKey: 'r-2', refundOf: checkout.id, amountCents: 12_345, createdAt: at(3) }),
        );
        expect(retry.outcome).toBe('created');
        expect((await store.refundsOf([checkout.id, 'none'])).map((c) => [c.idempotencyKey, c.state])).toEqual([
          ['r-1', 'Error'],
          ['r-2', 'Sending'],
        ]);
        expect(await store.refundsOf([])).toEqual([]);
      });

      it('refuses amounts that are not integer cents', async () => {
        await expect(store.reserveCashOut(cashOut({ amountCents: 10.5 }))).rejects.toThrow();
      });
    });

    describe("the reconciler's claim of stale cash-outs", () => {
      const keys = (list: CashOut[]) => list.map((c) => c.idempotencyKey);

      it('claims those Sending past the window first (an approved one counted from its approval), then those unheard of', async () => {
        await store.reserveCashOut(cashOut({ idempotencyKey: 's-old', createdAt: at(0) }));
        await store.reserveCashOut(cashOut({ idempotencyKey: 's-new', createdAt: at(9) }));
        await store.reserveCashOut(cashOut({ idempotencyKey: 's-pending', createdAt: at(0), awaitsApproval: true }));
        await store.reserveCashOut(cashOut({ idempotencyKey: 's-approved', createdAt: at(0), awaitsApproval: true }));
        await store.decideCashOut('s-approved', { approve: true, by: 'owner@shop.example', at: at(8) });
        await store.reserveCashOut(cashOut({ idempotencyKey: 'f-quiet', createdAt: at(0) }));
        await store.activateCashOut('f-quiet', 'tx-f-quiet', 'Registered', at(1));
        await store.reserveCashOut(cashOut({ idempotencyKey: 'f-heard', createdAt: at(0) }));
        await store.activateCashOut('f-heard', 'tx-f-heard', 'Created', at(9));
        await store.reserveCashOut(cashOut({ idempotencyKey: 'f-done', createdAt: at(0) }));
        await store.activateCashOut('f-done', 'tx-f-done', 'Completed', at(1));

        const claimed = await store.claimStaleCashOuts(at(10), at(5), 10, at(11));
        expect(claimed.map((c) => [c.idempotencyKey, c.state])).toEqual([
          ['s-old', 'Sending'],
          ['f-quiet', 'Registered'],
        ]);
        // Leased until minute 11: claimed by nobody else before, and by the next pass after.
        expect(await store.claimStaleCashOuts(at(10.5), at(5), 10, at(11.5))).toEqual([]);
        expect(keys(await store.claimStaleCashOuts(at(11), at(9), 10, at(12)))).toEqual(['s-approved', 's-old', 'f-quiet']);
        // The claim changes nothing a cash-out shows.
        expect(await store.getCashOut('s-old')).toMatchObject({ state: 'Sending', transactionId: null, updatedAt: at(0) });
      });

      it('claims at most the limit, Sending first, and each one once of claims at the same moment', async () => {
        for (let i = 0; i < 6; i++) await store.reserveCashOut(cashOut({ idempotencyKey: `l-s${i}`, createdAt: at(i / 10) }));
        for (let i = 0; i < 4; i++) {
          await store.reserveCashOut(cashOut({ idempotencyKey: `l-f${i}`, createdAt: at(0) }));
          await store.activateCashOut(`l-f${i}`, `tx-l-f${i}`, 'Created', at(1 + i / 10));
        }
        expect(keys(await store.claimStaleCashOuts(at(10), at(5), 4, at(20)))).toEqual(['l-s0', 'l-s1', 'l-s2', 'l-s3']);
        expect(keys(await store.claimStaleCashOuts(at(10), at(5), 4, at(20)))).toEqual(['l-s4', 'l-s5', 'l-f0', 'l-f1']);
        const racing = await Promise.all(Array.from({ length: 4 }, () => store.claimStaleCashOuts(at(21), at(5), 3, at(30))));
        const all = racing.flatMap(keys);
        expect(all.sort()).toEqual(['l-f0', 'l-f1', 'l-f2', 'l-f3', 'l-s0', 'l-s1', 'l-s2', 'l-s3', 'l-s4', 'l-s5']);
      });
    });

    describe("the merchant's events of cash-outs", () => {
      /** The events written since `after` (other tests of this database may have written some before). */
      const since = async (after: number) => store.merchantEventsAfter(after, 1000);
      const lastSeq = async () => (await since(0)).at(-1)?.seq ?? 0;

      it('tell of a refund: refund.created once the provider answers, refund.completed when done, no recipient data', async () => {
        const checkout = await paid('E-1', 0);
        const after = await lastSeq();
        const refund = taken(await store.reserveCashOut(cashOut({ idempotencyKey: 'e-r1', refundOf: checkout.id, amountCents: 12_345 })));
        expect(await since(after)).toEqual([]); // Sending: the provider has not answered
        await store.activateCashOut('e-r1', 'tx-e-r1', 'Created', at(1));
        await store.updateCashOut('e-r1', { state: 'Created' }, at(2));
        await store.updateCashOut('e-r1', { state: 'Registered' }, at(2));
        await store.updateCashOut('e-r1', { state: 'Registered', charges: '0.622215' }, at(2));
        expect((await since(after)).map((e) => e.type)).toEqual(['refund.created']);
        await store.updateCashOut('e-r1', { state: 'Completed', charges: '0.622215' }, at(3));
        await store.updateCashOut('e-r1', { state: 'Completed', charges: '0.622215' }, at(4));
        await store.updateCashOut('e-r1', { state: 'Error' }, at(5));
        const events = await since(after);
        expect(events.map((e) => e.type)).toEqual(['refund.created', 'refund.completed']);
        const data = {
          idempotencyKey: 'e-r1',
          orderId: refund.orderId,
          transactionId: 'tx-e-r1',
          checkoutId: checkout.id,
          checkoutOrderId: 'E-1',
          amount: '123.45',
          currency: 'BRL',
        };
        expect(events[0]).toMatchObject({ id: expect.stringMatching(/^evt_/), createdAt: at(1), data: { ...data, state: 'Created' } });
        expect(events[0]!.data).not.toHaveProperty('charges');
        expect(events[1]).toMatchObject({ createdAt: at(3), data: { ...data, state: 'Completed', charges: '0.622215' } });
        expect(events[1]!.seq).toBeGreaterThan(events[0]!.seq);
        expect(JSON.stringify(events)).not.toMatch(/52998224725|Maria/);
      });

      it('tell of a refund that failed, with how: the checkout may be refunded again', async () => {
        const checkout = await paid('E-2', 0);
        const after = await lastSeq();
        await store.reserveCashOut(cashOut({ idempotencyKey: 'e-r2', refundOf: checkout.id }));
        await store.activateCashOut('e-r2', 'tx-e-r2', 'Registered', at(1));
        await store.updateCashOut('e-r2', { state: 'Reversed' }, at(2));
        const events = await since(after);
        expect(events.map((e) => e.type)).toEqual(['refund.created', 'refund.failed']);
        expect(events[1]!.data).toMatchObject({ checkoutId: checkout.id, state: 'Reversed', failure: 'Reversed', amount: '10.00' });
      });

      it('tell of a cash-out only when it completes or fails, without refund fields', async () => {
        const after = await lastSeq();
        await store.reserveCashOut(cashOut({ idempotencyKey: 'e-p1' }));
        await store.activateCashOut('e-p1', 'tx-e-p1', 'Created', at(1));
        await store.updateCashOut('e-p1', { state: 'Registered' }, at(2));
        expect(await since(after)).toEqual([]); // a payout under way is nothing to act on
        await store.updateCashOut('e-p1', { state: 'Error' }, at(3));
        await store.updateCashOut('e-p1', { state: 'Completed' }, at(4));
        await store.reserveCashOut(cashOut({ idempotencyKey: 'e-p2', amountCents: 250 }));
        await store.activateCashOut('e-p2', 'tx-e-p2', 'Registered', at(5));
        await store.updateCashOut('e-p2', { state: 'Completed', charges: '0.502475' }, at(6));
        const events = await since(after);
        expect(events.map((e) => e.type)).toEqual(['cashout.failed', 'cashout.completed']);
        expect(events[0]).toMatchObject({
          createdAt: at(3),
          data: { idempotencyKey: 'e-p1', transactionId: 'tx-e-p1', amount: '10.00', currency: 'BRL', state: 'Error', failure: 'Error' },
        });
        expect(events[1]!.data).toMatchObject({ idempotencyKey: 'e-p2', amount: '2.50', state: 'Completed', charges: '0.502475' });
        expect(events[0]!.data).not.toHaveProperty('checkoutId');
        expect(JSON.stringify(events)).not.toMatch(/52998224725|Maria/);
      });

      it('tell of a cash-out once when several updates race to its final state', async () => {
        await store.reserveCashOut(cashOut({ idempotencyKey: 'e-p3' }));
        await store.activateCashOut('e-p3', 'tx-e-p3', 'Registered', at(1));
        const after = await lastSeq();
        const results = await Promise.all(Array.from({ length: 8 }, () => store.updateCashOut('e-p3', { state: 'Completed' }, at(2))));
        expect(results.filter((r) => r.changed)).toHaveLength(1);
        expect((await since(after)).map((e) => e.type)).toEqual(['cashout.completed']);
      });
    });
  });
}
