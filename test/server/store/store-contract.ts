/**
 * The behaviour every `Store` must have, run against SQLite and PostgreSQL alike. `setup` gives each test an empty
 * store and a function that closes it.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProviderCheckoutState } from '../../../core/checkout-machine';
import { MerchantEventSchema } from '../../../server/store/merchant-events';
import {
  CheckoutEventSchema,
  CheckoutSchema,
  type Checkout,
  type MoveEvent,
  type NewCheckout,
  type Store,
} from '../../../server/store/types';

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

    /** The provider's word, heard at `heardAt`, that the checkout was paid at `paidAt`, with its receipt's `details`. */
    const payLate = (id: string, paidAt: string, heardAt: string, details: Record<string, unknown> = {}) =>
      store.apply(id, { type: 'provider', state: 'Completed', paidAt }, 'webhook', { late: true }, heardAt, {
        details: { paidAt, ...details },
      });

    /** A reserved and activated checkout in `state`, reached through the public API. */
    async function checkoutIn(state: ProviderCheckoutState, orderId = `order-${randomUUID()}`, createdAt = at(0), expiresAt?: string) {
      const { checkout } = await store.reserveCheckout(draftFor(orderId, { createdAt, ...(expiresAt && { expiresAt }) }));
      const activated = await store.activateCheckout(checkout.id, { state: 'Created', transactionId: `tx-${checkout.id}` }, createdAt);
      if (state === 'Created') return activated.checkout;
      return (await store.apply(checkout.id, { type: 'provider', state }, 'webhook', {}, createdAt)).checkout;
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

    describe('apply', () => {
      it('moves only as the state machine allows from the stored state, appending the next seq', async () => {
        const created = await checkoutIn('Created');
        const refused = await store.apply(created.id, { type: 'provider', state: 'Created' }, 'webhook', {}, at(2));
        expect(refused).toEqual({ changed: false, checkout: created });

        const moved = await store.apply(created.id, { type: 'provider', state: 'Completed' }, 'webhook', { endToEndId: 'E1' }, at(3));
        expect(moved).toMatchObject({ changed: true, checkout: { state: 'Completed', seq: 2, updatedAt: at(3) } });
        expect(moved.changed && moved.event).toEqual({
          checkoutId: created.id,
          seq: 2,
          state: 'Completed',
          source: 'webhook',
          at: at(3),
          data: { endToEndId: 'E1' },
        });
        const again = await store.apply(created.id, { type: 'provider', state: 'Completed' }, 'reconcile', {}, at(4));
        expect(again.changed).toBe(false);
        expect((await store.eventsAfter(created.id, 0)).map((event) => event.seq)).toEqual([1, 2]);
      });

      it('lets exactly one of 10 concurrent identical events change the checkout', async () => {
        const created = await checkoutIn('Created');
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) => store.apply(created.id, { type: 'provider', state: 'Completed' }, 'webhook', { i }, at(1))),
        );
        expect(results.filter((result) => result.changed)).toHaveLength(1);
        expect(results.every((result) => result.checkout.state === 'Completed' && result.checkout.seq === 2)).toBe(true);
        expect(await store.eventsAfter(created.id, 0)).toHaveLength(2);
      });

      it('rejects an event of an unknown checkout', async () => {
        await expect(store.apply('nope', { type: 'provider', state: 'Completed' }, 'webhook', {}, at(1))).rejects.toThrow(/does not exist/);
      });

      it('rejects an activation, which only activateCheckout makes, and changes nothing', async () => {
        const { checkout } = await store.reserveCheckout(draftFor('A-2'));
        const activation = { type: 'activate', state: 'Created' } as unknown as MoveEvent;
        await expect(store.apply(checkout.id, activation, 'create', {}, at(1))).rejects.toThrow(/not activate/);
        expect(await store.getCheckout(checkout.id)).toEqual(checkout);
      });
    });

    it('lists events after a seq in seq order', async () => {
      const created = await checkoutIn('Created');
      await store.apply(created.id, { type: 'provider', state: 'Registered' }, 'reconcile', { n: 2 }, at(1));
      await store.apply(created.id, { type: 'provider', state: 'Completed' }, 'webhook', { n: 3 }, at(2));
      // A final state is left by nothing (core/checkout-machine.ts): no event is appended.
      expect(await store.apply(created.id, { type: 'provider', state: 'Reversed' }, 'reconcile', { n: 4 }, at(3))).toMatchObject({
        changed: false,
      });
      const events = await store.eventsAfter(created.id, 1);
      expect(events.map((event) => [event.seq, event.state, event.source, event.data])).toEqual([
        [2, 'Registered', 'reconcile', { n: 2 }],
        [3, 'Completed', 'webhook', { n: 3 }],
      ]);
      expect(await store.eventsAfter(created.id, 3)).toEqual([]);
      expect(await store.eventsAfter('unknown', 0)).toEqual([]);
    });

    describe('recovered transactions', () => {
      it('claims Creating reservations made before a cutoff, oldest first, each once until its claim runs out', async () => {
        await store.reserveCheckout(draftFor('old', { createdAt: at(0) }));
        await store.reserveCheckout(draftFor('older', { createdAt: at(-5) }));
        await store.reserveCheckout(draftFor('oldest', { createdAt: at(-9) }));
        await store.reserveCheckout(draftFor('young', { createdAt: at(20) }));
        await checkoutIn('Created', 'active', at(0));
        const orders = (claimed: Checkout[]) => claimed.map((c) => c.orderId);
        expect(orders(await store.claimStaleReservations(at(30), at(10), 1, at(90)))).toEqual(['oldest']);
        expect(orders(await store.claimStaleReservations(at(30), at(10), 10, at(90)))).toEqual(['older', 'old']);
        // Claimed: another pass before the claims run out finds nothing; one after finds them again.
        expect(await store.claimStaleReservations(at(60), at(10), 10, at(120))).toEqual([]);
        expect(orders(await store.claimStaleReservations(at(90), at(10), 10, at(150)))).toEqual(['oldest', 'older', 'old']);
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
      it('a paid transaction takes the order from a holder still waiting, which expires in the same transaction', async () => {
        const holder = await checkoutIn('Registered', 'F-4');
        const draft = draftFor('F-4', { createdAt: at(2) });
        const taken = await store.insertSuperseding(draft, { state: 'Completed', transactionId: 'tx-paid' }, 'webhook', holder.id, at(3));
        expect(taken!.checkout).toMatchObject({ id: draft.id, state: 'Completed', duplicateOf: null, seq: 1 });
        expect(taken!.superseded.checkout).toMatchObject({ id: holder.id, state: 'Expired', seq: holder.seq + 1 });
        expect(taken!.superseded.event).toMatchObject({ state: 'Expired', source: 'webhook', data: { supersededBy: draft.id } });
        expect((await store.reserveCheckout(draftFor('F-4'))).checkout.id).toBe(draft.id);
      });

      it('takes nothing from a holder no longer waiting, and rolls the expiry back when the transaction is stored', async () => {
        const paid = await checkoutIn('Completed', 'F-5');
        expect(
          await store.insertSuperseding(draftFor('F-5'), { state: 'Completed', transactionId: 'tx-5' }, 'webhook', paid.id, at(3)),
        ).toBeUndefined();
        const waiting = await checkoutIn('Registered', 'F-6');
        await expect(
          store.insertSuperseding(
            draftFor('F-6'),
            { state: 'Completed', transactionId: paid.transactionId! },
            'webhook',
            waiting.id,
            at(3),
          ),
        ).rejects.toThrow(/stored already/);
        expect(await store.getCheckout(waiting.id)).toMatchObject({ state: 'Registered', seq: waiting.seq });
        expect(await store.findCheckoutsByOrder('F-5')).toHaveLength(1);
      });
    });

    describe("the merchant's events", () => {
      /** The events written since `after` (other tests of this database may have written some before). */
      const since = async (after: number) => store.merchantEventsAfter(after, 1000);
      const lastSeq = async () => (await since(0)).at(-1)?.seq ?? 0;

      it('are written with each change a merchant acts on, in order, with no payer data', async () => {
        const after = await lastSeq();
        const paid = await checkoutIn('Registered', 'M-1');
        expect(await since(after)).toEqual([]); // a code shown is nothing to act on
        await store.apply(paid.id, { type: 'provider', state: 'Completed', paidAt: at(2) }, 'webhook', {}, at(2), {
          details: { paidAt: at(2), payerBank: 'Banco X', payerCpf: '52998224725' },
        });
        const failed = await checkoutIn('Error', 'M-2');
        const events = await since(after);
        expect(events.map((e) => e.type)).toEqual(['checkout.completed', 'checkout.failed']);
        expect(events[0]).toMatchObject({
          id: expect.stringMatching(/^evt_/),
          createdAt: at(2),
          data: {
            orderId: 'M-1',
            checkoutId: paid.id,
            transactionId: paid.transactionId,
            method: 'pix',
            amount: '123.45',
            currency: 'BRL',
            state: 'Completed',
            paidAt: at(2),
            payerBank: 'Banco X',
            late: false,
          },
        });
        expect(JSON.stringify(events)).not.toContain('52998224725');
        expect(events[1]!.data).toMatchObject({ checkoutId: failed.id, failure: 'Error' });
        expect(events[1]!.seq).toBeGreaterThan(events[0]!.seq);
        expect((await store.merchantEventsAfter(after, 10, ['checkout.failed'])).map((e) => e.data.checkoutId)).toEqual([failed.id]);
        expect(await store.merchantEventsAfter(events[1]!.seq, 10)).toEqual([]);
      });

      it('tell of a late payment taking the order: the newer code expired, the old one paid late', async () => {
        const old = await checkoutIn('Registered', 'M-3', at(0), at(30));
        await store.apply(old.id, { type: 'expire' }, 'reconcile', {}, at(31));
        const { checkout: fresh } = await store.reserveCheckout(draftFor('M-3', { id: `${old.id}-2` }));
        await store.activateCheckout(fresh.id, { state: 'Registered', transactionId: `tx-${fresh.id}` }, at(32));
        const after = await lastSeq();
        await store.apply(old.id, { type: 'provider', state: 'Completed', paidAt: at(39) }, 'webhook', {}, at(40), {
          details: { paidAt: at(39) },
        });
        const events = await since(after);
        expect(events.map((e) => [e.type, e.data.checkoutId])).toEqual([
          ['checkout.expired', fresh.id],
          ['checkout.completed', old.id],
        ]);
        expect(events[0]!.data).toMatchObject({ supersededBy: old.id });
        expect(events[1]!.data).toMatchObject({ late: true, paidAt: at(39) });
      });

      it('say when an order is paid twice, and nothing for a change that is refused or rolled back', async () => {
        const holder = await checkoutIn('Completed', 'M-4');
        const after = await lastSeq();
        await store.insertActive(
          draftFor('M-4', { createdAt: at(2) }),
          { state: 'Completed', transactionId: 'tx-m4-late' },
          'reconcile',
          holder.id,
          at(2),
        );
        expect((await since(after)).map((e) => [e.type, e.data.duplicateOf])).toEqual([['checkout.duplicate_paid', holder.id]]);
        const mark = await lastSeq();
        expect((await store.apply(holder.id, { type: 'provider', state: 'Error' }, 'webhook', {}, at(3))).changed).toBe(false);
        const waiting = await checkoutIn('Registered', 'M-5');
        await expect(
          store.insertSuperseding(draftFor('M-5'), { state: 'Completed', transactionId: 'tx-m4-late' }, 'webhook', waiting.id, at(3)),
        ).rejects.toThrow(/stored already/);
        expect(await since(mark)).toEqual([]);
      });
    });

    describe("deliveries of the merchant's events", () => {
      const endpoint = () => `ep-${randomUUID()}`;
      const paidOrder = async (orderId: string) => {
        const checkout = await checkoutIn('Registered', orderId);
        await store.apply(checkout.id, { type: 'provider', state: 'Completed', paidAt: at(2) }, 'webhook', {}, at(2), {
          details: { paidAt: at(2) },
        });
      };

      it('queue for an endpoint the events written once it exists, each once', async () => {
        await paidOrder('D-before');
        const ep = endpoint();
        expect(await store.queueEndpointDeliveries(ep, [], at(3), 100)).toBe(0);
        await paidOrder('D-1');
        await paidOrder('D-2');
        expect(await store.queueEndpointDeliveries(ep, [], at(3), 100)).toBe(2);
        expect(await store.queueEndpointDeliveries(ep, [], at(3), 100)).toBe(0);
        const taken = await store.claimDeliveries({ [ep]: 10 }, at(3), 'a', at(4));
        expect(taken.map((d) => [d.endpointId, d.attempts, d.event.type, d.event.data.orderId])).toEqual([
          [ep, 0, 'checkout.completed', 'D-1'],
          [ep, 0, 'checkout.completed', 'D-2'],
        ]);
      });

      it('lease each delivery to one taker at a time, and free it when its lease runs out', async () => {
        const ep = endpoint();
        await store.queueEndpointDeliveries(ep, [], at(3), 100);
        for (let i = 0; i < 6; i++) await paidOrder(`L-${i}`);
        await store.queueEndpointDeliveries(ep, [], at(3), 100);
        const [a, b] = await Promise.all([
          store.claimDeliveries({ [ep]: 3 }, at(3), 'a', at(4)),
          store.claimDeliveries({ [ep]: 3 }, at(3), 'b', at(4)),
        ]);
        const ids = [...a, ...b].map((d) => d.event.id);
        expect(ids).toHaveLength(6);
        expect(new Set(ids).size).toBe(6);
        expect(await store.claimDeliveries({ [ep]: 10 }, at(3.5), 'c', at(5))).toEqual([]);
        // a's lease ran out (a crash): c takes its deliveries again, with the same events; a can no longer settle them.
        const again = await store.claimDeliveries({ [ep]: 10 }, at(4), 'c', at(5));
        expect(again.map((d) => d.event.id).sort()).toEqual(ids.sort());
        const attempt = { at: at(4), status: 200, durationMs: 5, error: null };
        expect(await store.recordAttempt(a[0]!.event.id, ep, 'a', attempt, { delivered: true })).toBe(false);
        expect(await store.recordAttempt(a[0]!.event.id, ep, 'c', attempt, { delivered: true })).toBe(true);
        // Settled: never taken again. A retry waits for its time.
        const failed = { at: at(4), status: 500, durationMs: 5, error: 'HTTP 500' };
        expect(await store.recordAttempt(a[1]!.event.id, ep, 'c', failed, { retryAt: at(10) })).toBe(true);
        const later = await store.claimDeliveries({ [ep]: 10 }, at(9), 'd', at(20));
        expect(later.map((d) => d.event.id)).not.toContain(a[0]!.event.id);
        expect(later.map((d) => d.event.id)).not.toContain(a[1]!.event.id);
        const retried = await store.claimDeliveries({ [ep]: 10 }, at(30), 'e', at(31));
        expect(retried.find((d) => d.event.id === a[1]!.event.id)).toMatchObject({ attempts: 1 });
      });

      it("hand back the leases an owner holds, for another taker at once, and only that owner's", async () => {
        const ep = endpoint();
        await store.queueEndpointDeliveries(ep, [], at(3), 100);
        for (let i = 0; i < 3; i++) await paidOrder(`R-${i}`);
        await store.queueEndpointDeliveries(ep, [], at(3), 100);
        const mine = await store.claimDeliveries({ [ep]: 2 }, at(3), 'stopping', at(4));
        const theirs = await store.claimDeliveries({ [ep]: 1 }, at(3), 'other', at(4));
        expect(await store.releaseDeliveries('stopping')).toBe(2);
        // Within the leases' time: what was handed back is taken at once, the other owner's is still held.
        const taken = await store.claimDeliveries({ [ep]: 10 }, at(3.5), 'next', at(5));
        expect(taken.map((d) => d.event.id).sort()).toEqual(mine.map((d) => d.event.id).sort());
        expect(taken.map((d) => d.event.id)).not.toContain(theirs[0]!.event.id);
        expect(await store.releaseDeliveries('stopping')).toBe(0);
      });

      it("take each endpoint's own deliveries up to its limit, however many another has due before them", async () => {
        const [hanging, healthy, idle] = [endpoint(), endpoint(), endpoint()];
        for (const ep of [hanging, healthy, idle]) await store.queueEndpointDeliveries(ep, [], at(3), 100);
        for (let i = 0; i < 5; i++) await paidOrder(`H-${i}`);
        // The hanging endpoint's deliveries are all due a while before the healthy one's.
        await store.queueEndpointDeliveries(hanging, [], at(1), 100);
        await store.queueEndpointDeliveries(healthy, [], at(3), 100);
        const taken = await store.claimDeliveries({ [hanging]: 2, [healthy]: 3, [idle]: 4 }, at(3), 'a', at(4));
        const of = (ep: string) => taken.filter((d) => d.endpointId === ep).map((d) => d.event.data.orderId);
        expect(of(hanging)).toEqual(['H-0', 'H-1']);
        expect(of(healthy)).toEqual(['H-0', 'H-1', 'H-2']);
        expect(of(idle)).toEqual([]);
        // In event order, and nothing for an endpoint given no room.
        expect(taken.map((d) => d.event.seq)).toEqual([...taken.map((d) => d.event.seq)].sort((x, y) => x - y));
        expect(await store.claimDeliveries({ [hanging]: 0, [healthy]: 0 }, at(3), 'b', at(4))).toEqual([]);
        expect(await store.claimDeliveries({}, at(3), 'b', at(4))).toEqual([]);
        const rest = await store.claimDeliveries({ [hanging]: 10, [healthy]: 10 }, at(3), 'b', at(4));
        expect(rest.filter((d) => d.endpointId === healthy).map((d) => d.event.data.orderId)).toEqual(['H-3', 'H-4']);
        expect(rest.filter((d) => d.endpointId === hanging)).toHaveLength(3);
      });

      it('record a batch of attempts in one call, each only where its owner still holds the lease', async () => {
        const ep = endpoint();
        await store.queueEndpointDeliveries(ep, [], at(3), 100);
        for (let i = 0; i < 3; i++) await paidOrder(`B-${i}`);
        await store.queueEndpointDeliveries(ep, [], at(3), 100);
        expect(await store.claimDeliveries({ [ep]: 2 }, at(3), 'a', at(4))).toHaveLength(2);
        // a's leases ran out: b takes all three.
        const [x, y, w] = await store.claimDeliveries({ [ep]: 10 }, at(4), 'b', at(5));
        const ok = { at: at(4), status: 204, durationMs: 1, error: null };
        const failed = { at: at(4), status: 500, durationMs: 1, error: 'HTTP 500' };
        const delivered = { seq: x!.event.seq, endpointId: ep, attempt: ok, outcome: { delivered: true as const } };
        expect(
          await store.recordAttempts('b', [
            delivered,
            { seq: y!.event.seq, endpointId: ep, attempt: failed, outcome: { retryAt: at(10) } },
          ]),
        ).toEqual([true, true]);
        expect(await store.recordAttempts('a', [delivered])).toEqual([false]);
        expect(await store.recordAttempts('b', [])).toEqual([]);
        const later = await store.claimDeliveries({ [ep]: 10 }, at(30), 'c', at(31));
        expect(later.map((d) => [d.event.id, d.attempts]).sort()).toEqual(
          [
            [y!.event.id, 1],
            [w!.event.id, 0],
          ].sort(),
        );
        expect((await store.attemptsOfEvent(x!.event.id))?.map((a) => a.status)).toEqual([204]);
      });
    });

    describe('payment window', () => {
      it("keeps the window of the reservation, unless the activation brings the provider's", async () => {
        const kept = await store.reserveCheckout(draftFor('W-1', { expiresAt: at(30) }));
        expect(kept.checkout.expiresAt).toBe(at(30));
        const activated = await store.activateCheckout(kept.checkout.id, { state: 'Registered', transactionId: 'tx-w1' }, at(1));
        expect(activated.checkout.expiresAt).toBe(at(30));

        const moved = await store.reserveCheckout(draftFor('W-2', { expiresAt: at(30) }));
        const fromProvider = await store.activateCheckout(
          moved.checkout.id,
          { state: 'Registered', transactionId: 'tx-w2', expiresAt: '2026-01-15T12:10:00-03:00' },
          at(1),
        );
        expect(fromProvider.checkout.expiresAt).toBe(at(190));
        expect((await store.getCheckout(moved.checkout.id))!.expiresAt).toBe(at(190));

        expect((await store.reserveCheckout(draftFor('W-3'))).checkout.expiresAt).toBeNull();
      });

      it("stores the window of a found transaction: the provider's, else the draft's", async () => {
        const own = await store.insertActive(
          draftFor('W-4', { expiresAt: at(30) }),
          { state: 'Registered', transactionId: 'tx-w4' },
          'webhook',
          null,
          at(1),
        );
        expect(own!.checkout.expiresAt).toBe(at(30));
        const given = await store.insertActive(
          draftFor('W-5', { expiresAt: at(30) }),
          { state: 'Registered', transactionId: 'tx-w5', expiresAt: at(5) },
          'webhook',
          null,
          at(1),
        );
        expect(given!.checkout.expiresAt).toBe(at(5));
      });

      it('lists live checkouts whose window has ended, earliest end first', async () => {
        const make = async (orderId: string, state: 'Created' | 'Registered', end: string) =>
          (await store.insertActive(
            draftFor(orderId, { expiresAt: end }),
            { state, transactionId: `tx-${orderId}` },
            'webhook',
            null,
            at(0),
          ))!.checkout;
        const a = await make('win-a', 'Registered', at(20));
        const b = await make('win-b', 'Created', at(10));
        await make('win-open', 'Registered', at(40));
        const gone = await make('win-gone', 'Registered', at(5));
        await store.apply(gone.id, { type: 'expire' }, 'reconcile', {}, at(6));
        const done = await make('win-done', 'Registered', at(5));
        await store.apply(done.id, { type: 'provider', state: 'Completed' }, 'webhook', {}, at(6));
        await store.reserveCheckout(draftFor('win-reserved', { expiresAt: at(1) }));

        expect((await store.listExpiredCheckouts(at(30), 10)).map((c) => c.id)).toEqual([b.id, a.id]);
        expect((await store.listExpiredCheckouts(at(30), 1)).map((c) => c.id)).toEqual([b.id]);
        expect((await store.listExpiredCheckouts(at(10), 10)).map((c) => c.id)).toEqual([b.id]);
        expect(await store.listExpiredCheckouts(at(9), 10)).toEqual([]);
      });

      it('frees the order once Expired: a new checkout may be made for it', async () => {
        const old = await checkoutIn('Registered', 'E-1');
        const expired = await store.apply(old.id, { type: 'expire' }, 'reconcile', { expiresAt: at(30) }, at(31));
        expect(expired).toMatchObject({ changed: true, checkout: { state: 'Expired', seq: 3, duplicateOf: null } });
        const next = await store.reserveCheckout(draftFor('E-1', { createdAt: at(32) }));
        expect(next.created).toBe(true);
        expect((await store.findCheckoutsByOrder('E-1')).map((c) => [c.id, c.state])).toEqual([
          [old.id, 'Expired'],
          [next.checkout.id, 'Creating'],
        ]);
      });

      it('takes the order back when the expired code is paid late and no other checkout holds it', async () => {
        const old = await checkoutIn('Registered', 'E-2');
        await store.apply(old.id, { type: 'expire' }, 'reconcile', {}, at(31));
        const paid = await payLate(old.id, at(39), at(40), { receiptVoucher: 'V-1' });
        expect(paid).toMatchObject({ changed: true, checkout: { state: 'Completed', duplicateOf: null } });
        expect(paid.changed && paid.event.data).toEqual({ late: true });
        expect(paid.checkout.details).toEqual({ paidAt: at(39), receiptVoucher: 'V-1' });
        expect(await store.reserveCheckout(draftFor('E-2'))).toEqual({ created: false, checkout: paid.checkout });
      });

      it.each(['Created', 'Registered'] as const)(
        'gives the order to a late payment of the expired code and expires the new checkout still %s, in one transaction',
        async (newState) => {
          const old = await checkoutIn('Registered', 'E-4');
          await store.apply(old.id, { type: 'expire' }, 'reconcile', {}, at(31));
          const fresh = await checkoutIn(newState, 'E-4', at(32));
          const paid = await payLate(old.id, at(39), at(40));
          expect(paid).toMatchObject({ changed: true, checkout: { state: 'Completed', duplicateOf: null } });
          expect(paid.changed && paid.event.data).toEqual({ late: true });
          expect(paid.changed && paid.superseded).toMatchObject({
            checkout: { id: fresh.id, state: 'Expired', seq: fresh.seq + 1, duplicateOf: null, updatedAt: at(40) },
            event: { checkoutId: fresh.id, seq: fresh.seq + 1, state: 'Expired', source: 'webhook', data: { supersededBy: old.id } },
          });
          expect(await store.getCheckout(fresh.id)).toEqual(paid.changed && paid.superseded?.checkout);
          expect((await store.eventsAfter(fresh.id, fresh.seq)).map((e) => e.data)).toEqual([{ supersededBy: old.id }]);
          // The order is paid: no new code, and the one that was expired, if paid after all, is the duplicate.
          expect(await store.reserveCheckout(draftFor('E-4'))).toEqual({ created: false, checkout: paid.checkout });
          const twice = await store.apply(fresh.id, { type: 'provider', state: 'Completed' }, 'webhook', { late: true }, at(50));
          expect(twice).toMatchObject({ changed: true, checkout: { state: 'Completed', duplicateOf: old.id } });
          expect(twice.changed && twice.superseded).toBeUndefined();
        },
      );

      it("leaves the new checkout alone when a late payment's move is refused", async () => {
        const old = await checkoutIn('Registered', 'E-5');
        await store.apply(old.id, { type: 'expire' }, 'reconcile', {}, at(31));
        const fresh = await checkoutIn('Registered', 'E-5', at(32));
        // The machine moves an expired code to a final state only: the provider's `Registered` of it is refused.
        const refused = await store.apply(old.id, { type: 'provider', state: 'Registered' }, 'webhook', {}, at(40));
        expect(refused).toEqual({ changed: false, checkout: await store.getCheckout(old.id) });
        expect(await store.getCheckout(fresh.id)).toEqual(fresh);
      });

      it.each(['Completed'] as const)(
        'keeps a late payment of the expired code as the duplicate of the new checkout (%s), in the same transaction',
        async (newState) => {
          const old = await checkoutIn('Registered', 'E-3');
          await store.apply(old.id, { type: 'expire' }, 'reconcile', {}, at(31));
          const fresh = await checkoutIn(newState, 'E-3', at(32));
          const paid = await payLate(old.id, at(39), at(40));
          expect(paid).toMatchObject({ changed: true, checkout: { state: 'Completed', duplicateOf: fresh.id, seq: 4 } });
          expect(paid.changed && paid.event).toMatchObject({ state: 'Completed', data: { late: true, duplicateOf: fresh.id } });
          expect(await store.getCheckout(fresh.id)).toEqual(fresh);
          expect((await store.reserveCheckout(draftFor('E-3'))).checkout.id).toBe(fresh.id);
          const all = await store.findCheckoutsByOrder('E-3');
          expect(all.map((c) => [c.id, c.state, c.duplicateOf])).toEqual([
            [old.id, 'Completed', fresh.id],
            [fresh.id, newState, null],
          ]);
        },
      );

      it("never leaves two checkouts in the order's place when a late payment races a new reservation", async () => {
        for (let round = 0; round < 10; round++) {
          const orderId = `race-${round}`;
          const old = await checkoutIn('Registered', orderId);
          await store.apply(old.id, { type: 'expire' }, 'reconcile', {}, at(31));
          const [reserved, paid] = await Promise.all([
            store.reserveCheckout(draftFor(orderId, { createdAt: at(32) })),
            store.apply(old.id, { type: 'provider', state: 'Completed' }, 'webhook', { late: true }, at(32)),
          ]);
          expect(paid.changed).toBe(true);
          const all = await store.findCheckoutsByOrder(orderId);
          const holders = all.filter((c) => !c.duplicateOf && ['Creating', 'Created', 'Registered', 'Completed'].includes(c.state));
          expect(holders).toHaveLength(1);
          if (reserved.created) {
            expect((await store.getCheckout(old.id))!.duplicateOf).toBe(reserved.checkout.id);
          } else {
            expect(reserved.checkout).toMatchObject({ id: old.id, state: 'Completed', duplicateOf: null });
          }
        }
      });

      it("merges the details a transition brings over the checkout's", async () => {
        const { checkout } = await store.reserveCheckout(draftFor('D-1'));
        await store.activateCheckout(checkout.id, { state: 'Registered', transactionId: 'tx-d1', details: { qrCode: 'q' } }, at(1));
        const paid = await store.apply(checkout.id, { type: 'provider', state: 'Completed', paidAt: at(2) }, 'webhook', {}, at(2), {
          details: { paidAt: at(2), payerBank: 'Banco Exemplo' },
        });
        expect(paid.checkout.details).toEqual({ qrCode: 'q', paidAt: at(2), payerBank: 'Banco Exemplo' });
        expect((await store.getCheckout(checkout.id))!.details).toEqual(paid.checkout.details);
        const refused = await store.apply(checkout.id, { type: 'provider', state: 'Error' }, 'webhook', {}, at(3), {
          details: { nope: 1 },
        });
        expect(refused.changed).toBe(false);
        expect(refused.checkout.details).toEqual(paid.checkout.details);
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

      /** Claims what is stale at `now`: quiet since 10 minutes before it, expired ones followed from `since`. */
      const claimStale = (now: number, limit: number, since?: number) =>
        store.claimStaleCheckouts({
          now: at(now),
          before: at(now - 10),
          limit,
          liveUntil: at(now + 10),
          ...(since !== undefined && { expired: { since: at(since), minDelayMs: 60_000, maxDelayMs: 60 * 60_000 } }),
        });

      it('are written by the transition that moves the checkout, forward only, and not at all when it does not move', async () => {
        const created = await checkoutIn('Created');
        await store.markChecked(created.id, at(9));
        const refused = await store.apply(created.id, { type: 'provider', state: 'Created' }, 'webhook', {}, at(2), {
          checkedAt: at(10),
          webhookAt: at(10),
        });
        expect(refused.checkout).toMatchObject({ lastWebhookAt: null, lastCheckedAt: at(9) });
        const moved = await store.apply(created.id, { type: 'provider', state: 'Completed' }, 'webhook', {}, at(3), {
          checkedAt: at(4),
          webhookAt: at(3),
        });
        // One write: the returned row already holds the marks, and a later check stays.
        expect(moved.checkout).toMatchObject({ state: 'Completed', lastWebhookAt: at(3), lastCheckedAt: at(9) });
        expect(await store.getCheckout(created.id)).toEqual(moved.checkout);
      });

      it('read back every checkout, event and merchant event exactly as their schemas give them', async () => {
        const created = await checkoutIn('Created');
        const moved = await store.apply(
          created.id,
          { type: 'provider', state: 'Completed', paidAt: at(3) },
          'webhook',
          { endToEndId: 'E1' },
          at(3),
          {
            details: { paidAt: at(3) },
            checkedAt: at(3),
          },
        );
        const read = (await store.getCheckout(created.id))!;
        expect(CheckoutSchema.parse(read)).toEqual(read);
        expect(read).toEqual(moved.checkout);
        for (const event of await store.eventsAfter(created.id, 0)) expect(CheckoutEventSchema.parse(event)).toEqual(event);
        const merchant = await store.merchantEventsAfter(0, 10);
        expect(merchant.length).toBeGreaterThan(0);
        for (const event of merchant) expect(MerchantEventSchema.parse(event)).toEqual(event);
      });

      it('claim live checkouts whose last webhook (or creation) and last check are older than the cutoff', async () => {
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
        const expired = await checkoutIn('Registered', 'expired', at(0));
        await store.apply(expired.id, { type: 'expire' }, 'reconcile', {}, at(3));

        expect((await claimStale(20, 1)).map((checkout) => checkout.id)).toEqual([quiet.id]);
        const stale = await claimStale(20, 10);
        expect(stale.map((checkout) => checkout.orderId)).toEqual(['registered', 'checked-long-ago']);
        expect(stale[0]!.id).toBe(registered.id);
      });

      it('claim a checkout again only once its claim has run out', async () => {
        const quiet = await checkoutIn('Created', 'quiet', at(0));
        expect((await claimStale(20, 10)).map((c) => c.id)).toEqual([quiet.id]);
        expect(await claimStale(20, 10)).toEqual([]);
        expect(await claimStale(29, 10)).toEqual([]);
        // Never read (its claimer crashed): claimed again when the lease ends.
        expect((await claimStale(30, 10)).map((c) => c.id)).toEqual([quiet.id]);
      });

      it('claim checkouts past their window once, whatever a stale claim taken before the window ended says', async () => {
        const make = async (orderId: string, expiresAt: string) => {
          const { checkout } = await store.reserveCheckout(draftFor(orderId, { createdAt: at(0), expiresAt }));
          return (await store.activateCheckout(checkout.id, { state: 'Registered', transactionId: `tx-${orderId}` }, at(0))).checkout;
        };
        const a = await make('due-a', at(20));
        const b = await make('due-b', at(10));
        await make('due-open', at(40));
        // A stale claim at 15 leases every live one until 25.
        expect(await store.claimStaleCheckouts({ now: at(15), before: at(14), limit: 10, liveUntil: at(25) })).toHaveLength(3);

        expect((await store.claimDueExpiries(at(30), 1, at(31))).map((c) => c.id)).toEqual([b.id]);
        expect((await store.claimDueExpiries(at(30), 10, at(31))).map((c) => c.id)).toEqual([a.id]);
        expect(await store.claimDueExpiries(at(30), 10, at(31))).toEqual([]);
        // Not expired by its claimer (it crashed): claimed again once the claim runs out.
        expect((await store.claimDueExpiries(at(31), 10, at(32))).map((c) => c.id)).toEqual([b.id, a.id]);
      });

      it('claim expired checkouts too, on the same terms, when they expired at or after the followed start', async () => {
        const live = await checkoutIn('Registered', 'live', at(0));
        const recent = await checkoutIn('Registered', 'recent', at(0));
        await store.apply(recent.id, { type: 'expire' }, 'reconcile', {}, at(5));
        const old = await checkoutIn('Registered', 'old', at(0));
        await store.apply(old.id, { type: 'expire' }, 'reconcile', {}, at(1));
        const checked = await checkoutIn('Registered', 'checked', at(0));
        await store.apply(checked.id, { type: 'expire' }, 'reconcile', {}, at(5));
        await store.markChecked(checked.id, at(20));
        const paidLate = await checkoutIn('Registered', 'paid-late', at(0));
        await store.apply(paidLate.id, { type: 'expire' }, 'reconcile', {}, at(5));
        await store.apply(paidLate.id, { type: 'provider', state: 'Completed' }, 'webhook', {}, at(6));

        expect((await claimStale(20, 10)).map((c) => c.id)).toEqual([live.id]);
        expect((await claimStale(20, 10, 5)).map((c) => c.id)).toEqual([recent.id]);
        expect((await claimStale(20, 10, 0)).map((c) => c.id)).toEqual([old.id]);
        // Live ones first, however long ago the expired ones were checked.
        const neverChecked = await checkoutIn('Registered', 'never-checked-expired', at(0));
        await store.apply(neverChecked.id, { type: 'expire' }, 'reconcile', {}, at(5));
        await store.markChecked(live.id, at(30));
        expect((await claimStale(60, 1, 0)).map((c) => c.id)).toEqual([live.id]);
        expect((await claimStale(60, 10, 0)).map((c) => c.id)).toContain(neverChecked.id);
      });
    });

    describe('signed webhook nonces', () => {
      it('claim a nonce once: a second claim, even a concurrent one, is a replay', async () => {
        expect(await store.claimWebhookNonce('nonce-1', at(0), at(-10))).toBe(true);
        expect(await store.claimWebhookNonce('nonce-1', at(1), at(-9))).toBe(false);
        const racing = await Promise.all(Array.from({ length: 8 }, () => store.claimWebhookNonce('nonce-2', at(2), at(-8))));
        expect(racing.filter(Boolean)).toHaveLength(1);
      });

      it('forget nonces seen before the cutoff, and a released one', async () => {
        await store.claimWebhookNonce('old', at(0), at(-10));
        await store.claimWebhookNonce('recent', at(8), at(-2));
        expect(await store.claimWebhookNonce('other', at(11), at(1))).toBe(true);
        expect(await store.claimWebhookNonce('old', at(11), at(1))).toBe(true);
        expect(await store.claimWebhookNonce('recent', at(11), at(1))).toBe(false);
        await store.releaseWebhookNonce('recent');
        expect(await store.claimWebhookNonce('recent', at(12), at(1))).toBe(true);
        await store.releaseWebhookNonce('never-seen');
      });
    });
  });
}
