/**
 * One meaning of a late payment (paid after its window: `paidLate` of core/checkout-machine.ts), on SQLite and (with
 * TEST_DATABASE_URL) PostgreSQL: the merchant's event, the back office's view and its list's `late` filter agree,
 * also for a code superseded by its order's other payment and then paid within its own window (whose
 * `checkout.duplicate_paid` once said late while the back office said not).
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isLate } from '../../../server/backoffice/checkout-view';
import type { Store } from '../../../server/store/types';
import { accountStores } from '../accounts/stores';
import { at, draftFor } from '../store/store-contract';

describe.each(accountStores())('a late payment (%s)', (_name, open) => {
  let store: Store;
  beforeEach(async () => {
    ({ store } = await open());
  });
  afterEach(async () => {
    await store.close();
  });

  /** A Registered checkout of `orderId` made at `createdAt` whose window ends at `expiresAt`. */
  async function registered(orderId: string, createdAt: string, expiresAt: string) {
    const { checkout } = await store.reserveCheckout(draftFor(orderId, { createdAt, expiresAt }));
    await store.activateCheckout(checkout.id, { state: 'Created', transactionId: `tx-${checkout.id}` }, createdAt);
    return (await store.apply(checkout.id, { type: 'provider', state: 'Registered' }, 'webhook', {}, createdAt)).checkout;
  }
  const paid = (id: string, paidAt: string, seenAt: string) =>
    store.apply(id, { type: 'provider', state: 'Completed', paidAt: paidAt }, 'webhook', {}, seenAt, { details: { paidAt } });

  it('is the same in the merchant event, the view and the list, for a code paid late and the superseded one paid in time', async () => {
    const orderId = `late-${randomUUID()}`;
    const old = await registered(orderId, at(0), at(30));
    await store.apply(old.id, { type: 'expire' }, 'reconcile', {}, at(31));
    const fresh = await registered(orderId, at(32), at(62));
    const after = (await store.merchantEventsAfter(0, 10_000)).at(-1)?.seq ?? 0;
    // The old code is paid after its window: it takes the order, and the new one, still waiting, expires early.
    expect(await paid(old.id, at(39), at(40))).toMatchObject({
      changed: true,
      superseded: { checkout: { id: fresh.id, state: 'Expired' } },
    });
    // The new code is paid within its own window after all: the order's duplicate, not late.
    expect(await paid(fresh.id, at(49), at(50))).toMatchObject({ changed: true, checkout: { duplicateOf: old.id } });

    const events = (await store.merchantEventsAfter(after, 100)).filter((e) => e.data.orderId === orderId);
    const lateOf = (type: string) => events.find((e) => e.type === type)?.data.late;
    expect([lateOf('checkout.completed'), lateOf('checkout.duplicate_paid')]).toEqual([true, false]);
    const [oldNow, freshNow] = [(await store.getCheckout(old.id))!, (await store.getCheckout(fresh.id))!];
    expect([isLate(oldNow), isLate(freshNow)]).toEqual([true, false]);
    expect((await store.listCheckouts({ orderId, flag: 'late' }, 10)).map((c) => c.id)).toEqual([old.id]);
  });

  it('is late when paid after its window even before the BFF expired it, and never late when paid at its end', async () => {
    const orderId = `late-${randomUUID()}`;
    const checkout = await registered(orderId, at(0), at(30));
    const moved = await paid(checkout.id, at(31), at(32));
    expect(moved.changed && moved.event.data).toEqual({ late: true });
    expect(isLate(moved.checkout)).toBe(true);
    const onTime = await registered(`late-${randomUUID()}`, at(0), at(30));
    const atEnd = await paid(onTime.id, at(30), at(31));
    expect(atEnd.changed && atEnd.event.data).toEqual({});
    expect(isLate(atEnd.checkout)).toBe(false);
    expect((await store.listCheckouts({ orderId: onTime.orderId, flag: 'late' }, 10)).map((c) => c.id)).toEqual([]);
  });
});
