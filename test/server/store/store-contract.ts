/**
 * The behaviour every `Store` must have, run against SQLite and PostgreSQL alike. `setup` gives each test an empty
 * store and a function that closes it.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CheckoutState, NewCheckout, Store } from '../../../server/store/types';

export type StoreSetup = () => Promise<{ store: Store; teardown: () => Promise<void> }>;

const T0 = Date.parse('2026-01-15T12:00:00.000Z');
/** An instant `minutes` after the suite's fixed start. */
export const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

export const draftFor = (orderId: string, overrides: Partial<NewCheckout> = {}): NewCheckout => ({
  id: randomUUID(),
  orderId,
  method: 'pix',
  amountCents: 12_345,
  description: `order ${orderId}`,
  createdAt: at(0),
  ...overrides,
});

export function describeStoreContract(name: string, setup: StoreSetup) {
  describe(`${name} store contract`, () => {
    let store: Store;
    let teardown: () => Promise<void>;
    beforeEach(async () => {
      ({ store, teardown } = await setup());
    });
    afterEach(async () => {
      await teardown();
    });

    /** A reserved and activated checkout in `state`, reached through the public API. */
    async function checkoutIn(state: CheckoutState, orderId = `order-${randomUUID()}`, createdAt = at(0)) {
      const { checkout } = await store.reserveCheckout(draftFor(orderId, { createdAt }));
      const activated = await store.activateCheckout(checkout.id, { state: 'Created', transactionId: `tx-${checkout.id}` }, createdAt);
      if (state === 'Created') return activated.checkout;
      return (await store.transition(checkout.id, ['Created'], state, 'webhook', {}, createdAt)).checkout;
    }

    describe('reservation', () => {
      it('inserts a Creating checkout with defaults and seq 0', async () => {
        const result = await store.reserveCheckout(draftFor('A-1'));
        expect(result.created).toBe(true);
        expect(result.checkout).toMatchObject({
          orderId: 'A-1',
          state: 'Creating',
          amountCents: 12_345,
          currency: 'BRL',
          seq: 0,
          transactionId: null,
          payerCpf: null,
          lastWebhookAt: null,
          createdAt: at(0),
          updatedAt: at(0),
        });
        expect(await store.getCheckout(result.checkout.id)).toEqual(result.checkout);
      });

      it('returns the existing checkout when the same order is reserved again', async () => {
        const first = await store.reserveCheckout(draftFor('A-1'));
        const second = await store.reserveCheckout(draftFor('A-1', { amountCents: 1 }));
        expect(second).toEqual({ created: false, checkout: first.checkout });
      });

      it('creates exactly one checkout from 20 concurrent reservations of one order', async () => {
        const results = await Promise.all(Array.from({ length: 20 }, () => store.reserveCheckout(draftFor('A-1'))));
        expect(results.filter((result) => result.created)).toHaveLength(1);
        expect(new Set(results.map((result) => result.checkout.id)).size).toBe(1);
        expect(await store.findCheckoutsByOrder('A-1')).toHaveLength(1);
      });

      it.each(['Error', 'Cancelled'] as const)('allows a new reservation after %s', async (state) => {
        const old = await checkoutIn(state, 'A-1');
        const next = await store.reserveCheckout(draftFor('A-1', { createdAt: at(1) }));
        expect(next.created).toBe(true);
        expect((await store.findCheckoutsByOrder('A-1')).map((checkout) => checkout.id)).toEqual([old.id, next.checkout.id]);
      });

      it('never reserves again after Completed', async () => {
        const paid = await checkoutIn('Completed', 'A-1');
        expect(await store.reserveCheckout(draftFor('A-1'))).toEqual({ created: false, checkout: paid });
      });

      it('refuses amounts that are not integer cents', async () => {
        await expect(store.reserveCheckout(draftFor('A-1', { amountCents: 10.5 }))).rejects.toThrow();
        expect(await store.findCheckoutsByOrder('A-1')).toEqual([]);
      });
    });

    describe('activation and discard', () => {
      it('moves Creating to the provider state and stores event 1 from create', async () => {
        const { checkout } = await store.reserveCheckout(draftFor('A-1'));
        const result = await store.activateCheckout(
          checkout.id,
          { state: 'Created', transactionId: 'tx-1', details: { qrCode: '000201…', qrCodeLocation: 'https://qr/1' } },
          at(1),
        );
        expect(result.checkout).toMatchObject({
          state: 'Created',
          transactionId: 'tx-1',
          details: { qrCode: '000201…', qrCodeLocation: 'https://qr/1' },
          seq: 1,
          updatedAt: at(1),
        });
        expect(result.event).toEqual({
          checkoutId: checkout.id,
          seq: 1,
          state: 'Created',
          source: 'create',
          at: at(1),
          data: { transactionId: 'tx-1' },
        });
        expect(await store.eventsAfter(checkout.id, 0)).toEqual([result.event]);
        expect(await store.findCheckoutByTransaction('tx-1')).toEqual(result.checkout);
      });

      it('merges the provider details over the details of the reservation', async () => {
        const { checkout } = await store.reserveCheckout(
          draftFor('A-1', { method: 'openfinance', details: { returnUrl: 'https://shop/x', keep: [1, 'two'] } }),
        );
        expect(checkout.details).toEqual({ returnUrl: 'https://shop/x', keep: [1, 'two'] });
        const { checkout: live } = await store.activateCheckout(
          checkout.id,
          { state: 'Registered', transactionId: 'tx-1', details: { checkoutUrl: 'https://bank/1', keep: 'replaced' } },
          at(1),
        );
        expect(live.details).toEqual({ returnUrl: 'https://shop/x', checkoutUrl: 'https://bank/1', keep: 'replaced' });
        expect((await store.getCheckout(checkout.id))!.details).toEqual(live.details);
      });

      it('refuses to activate a checkout twice', async () => {
        const created = await checkoutIn('Created');
        await expect(store.activateCheckout(created.id, { state: 'Created', transactionId: 'tx-2' }, at(1))).rejects.toThrow(
          /not Creating/,
        );
        expect(await store.eventsAfter(created.id, 0)).toHaveLength(1);
      });

      it('discards a Creating reservation so the order can be reserved again', async () => {
        const { checkout } = await store.reserveCheckout(draftFor('A-1'));
        await store.discardCheckout(checkout.id);
        expect(await store.getCheckout(checkout.id)).toBeUndefined();
        expect((await store.reserveCheckout(draftFor('A-1'))).created).toBe(true);
      });

      it('leaves an activated checkout alone when asked to discard it', async () => {
        const created = await checkoutIn('Created');
        await store.discardCheckout(created.id);
        expect(await store.getCheckout(created.id)).toEqual(created);
      });
    });

    describe('transition', () => {
      it('moves only from the states the caller names, appending the next seq', async () => {
        const created = await checkoutIn('Created');
        const refused = await store.transition(created.id, ['Registered'], 'Completed', 'webhook', {}, at(2));
        expect(refused).toEqual({ changed: false, checkout: created });

        const moved = await store.transition(created.id, ['Created', 'Registered'], 'Completed', 'webhook', { endToEndId: 'E1' }, at(3));
        expect(moved).toMatchObject({ changed: true, checkout: { state: 'Completed', seq: 2, updatedAt: at(3) } });
        expect(moved.changed && moved.event).toEqual({
          checkoutId: created.id,
          seq: 2,
          state: 'Completed',
          source: 'webhook',
          at: at(3),
          data: { endToEndId: 'E1' },
        });
        const again = await store.transition(created.id, ['Created', 'Registered'], 'Completed', 'reconcile', {}, at(4));
        expect(again.changed).toBe(false);
        expect((await store.eventsAfter(created.id, 0)).map((event) => event.seq)).toEqual([1, 2]);
      });

      it('lets exactly one of 10 concurrent identical transitions change the checkout', async () => {
        const created = await checkoutIn('Created');
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) => store.transition(created.id, ['Created'], 'Completed', 'webhook', { i }, at(1))),
        );
        expect(results.filter((result) => result.changed)).toHaveLength(1);
        expect(results.every((result) => result.checkout.state === 'Completed' && result.checkout.seq === 2)).toBe(true);
        expect(await store.eventsAfter(created.id, 0)).toHaveLength(2);
      });

      it('rejects a transition of an unknown checkout', async () => {
        await expect(store.transition('nope', ['Created'], 'Completed', 'webhook', {}, at(1))).rejects.toThrow(/does not exist/);
      });
    });

    it('lists events after a seq in seq order', async () => {
      const created = await checkoutIn('Created');
      await store.transition(created.id, ['Created'], 'Registered', 'reconcile', { n: 2 }, at(1));
      await store.transition(created.id, ['Registered'], 'Completed', 'webhook', { n: 3 }, at(2));
      await store.transition(created.id, ['Completed'], 'Reversed', 'reconcile', { n: 4 }, at(3));
      const events = await store.eventsAfter(created.id, 1);
      expect(events.map((event) => [event.seq, event.state, event.source, event.data])).toEqual([
        [2, 'Registered', 'reconcile', { n: 2 }],
        [3, 'Completed', 'webhook', { n: 3 }],
        [4, 'Reversed', 'reconcile', { n: 4 }],
      ]);
      expect(await store.eventsAfter(created.id, 4)).toEqual([]);
      expect(await store.eventsAfter('unknown', 0)).toEqual([]);
    });

    describe('recovered transactions', () => {
      it('lists Creating reservations made before a cutoff, oldest first', async () => {
        await store.reserveCheckout(draftFor('old', { createdAt: at(0) }));
        await store.reserveCheckout(draftFor('older', { createdAt: at(-5) }));
        await store.reserveCheckout(draftFor('young', { createdAt: at(20) }));
        await checkoutIn('Created', 'active', at(0));
        expect((await store.listStaleReservations(at(10), 10)).map((c) => c.orderId)).toEqual(['older', 'old']);
        expect(await store.listStaleReservations(at(10), 1)).toHaveLength(1);
      });

      it("stores a found transaction in the order's free place, already in its state, with event 1", async () => {
        const result = await store.insertActive(
          draftFor('F-1'),
          { state: 'Completed', transactionId: 'tx-f', details: { qrCode: 'q' } },
          'webhook',
          null,
          at(1),
        );
        expect(result!.checkout).toMatchObject({
          orderId: 'F-1',
          state: 'Completed',
          transactionId: 'tx-f',
          duplicateOf: null,
          seq: 1,
          details: { qrCode: 'q' },
        });
        expect(result!.event).toMatchObject({ seq: 1, state: 'Completed', source: 'webhook', data: { transactionId: 'tx-f' } });
        // The order's place is taken now: no new reservation.
        expect((await store.reserveCheckout(draftFor('F-1'))).created).toBe(false);
      });

      it("stores nothing when the transaction is stored already or the order's place is taken", async () => {
        const holder = await checkoutIn('Registered', 'F-2');
        expect(
          await store.insertActive(draftFor('F-2'), { state: 'Registered', transactionId: 'tx-new' }, 'webhook', null, at(1)),
        ).toBeUndefined();
        expect(
          await store.insertActive(
            draftFor('other'),
            { state: 'Registered', transactionId: holder.transactionId! },
            'webhook',
            null,
            at(1),
          ),
        ).toBeUndefined();
        expect(await store.findCheckoutsByOrder('F-2')).toHaveLength(1);
      });

      it("keeps a duplicate beside the order's checkout, outside the one-per-order rule", async () => {
        const holder = await checkoutIn('Completed', 'F-3');
        const duplicate = await store.insertActive(
          draftFor('F-3', { createdAt: at(2) }),
          { state: 'Completed', transactionId: 'tx-late' },
          'reconcile',
          holder.id,
          at(2),
        );
        expect(duplicate!.checkout).toMatchObject({ duplicateOf: holder.id, state: 'Completed' });
        expect(duplicate!.event.data).toEqual({ transactionId: 'tx-late', duplicateOf: holder.id });
        expect((await store.reserveCheckout(draftFor('F-3'))).checkout.id).toBe(holder.id);
        expect((await store.findCheckoutsByOrder('F-3')).map((c) => c.duplicateOf)).toEqual([null, holder.id]);
      });
    });

    describe('webhook and check marks', () => {
      it('never move a date backwards', async () => {
        const created = await checkoutIn('Created');
        await store.markWebhookSeen(created.id, at(5));
        await store.markWebhookSeen(created.id, at(3));
        await store.markChecked(created.id, at(7));
        await store.markChecked(created.id, at(6));
        expect(await store.getCheckout(created.id)).toMatchObject({ lastWebhookAt: at(5), lastCheckedAt: at(7) });
      });

      it('list live checkouts whose last webhook (or creation) and last check are older than the cutoff', async () => {
        const quiet = await checkoutIn('Created', 'quiet', at(0));
        const registered = await checkoutIn('Registered', 'registered', at(1));
        const heard = await checkoutIn('Created', 'heard', at(0));
        await store.markWebhookSeen(heard.id, at(20));
        const checkedLongAgo = await checkoutIn('Created', 'checked-long-ago', at(0));
        await store.markChecked(checkedLongAgo.id, at(2));
        const checkedRecently = await checkoutIn('Created', 'checked-recently', at(0));
        await store.markChecked(checkedRecently.id, at(20));
        await checkoutIn('Created', 'young', at(15));
        await checkoutIn('Completed', 'final', at(0));
        await store.reserveCheckout(draftFor('creating', { createdAt: at(0) }));

        const stale = await store.listStaleCheckouts(at(10), 10);
        expect(stale.map((checkout) => checkout.orderId)).toEqual(['quiet', 'registered', 'checked-long-ago']);
        expect((await store.listStaleCheckouts(at(10), 1)).map((checkout) => checkout.id)).toEqual([quiet.id]);
        expect(stale[1]!.id).toBe(registered.id);
      });
    });
  });
}
