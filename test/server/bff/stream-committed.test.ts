/**
 * A change this instance committed reaches its streams as the transaction left it: the notice carries it, so the
 * stream sends it without reading the store back. A notice without it (another instance's, through PostgreSQL) or a
 * stream further behind is still read from the store, and either way the frames are the same.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { checkoutEventStream } from '../../../server/bff/stream';
import { createStreamFeeds } from '../../../server/bff/stream-feed';
import { join } from 'node:path';
import { openStore, type Store } from '../../../server/store';
import type { StatusHub } from '../../../server/store/types';
import { tempDir } from '../helpers/server';
import { openTestStore } from '../helpers/store';

const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (closing.length) await closing.pop()!();
});

/** A store that counts its read-backs of events and checkouts. */
function counted(store: Store) {
  const reads = { events: 0, checkouts: 0 };
  const watched: Store = {
    ...store,
    eventsAfter: (...args) => {
      reads.events++;
      return store.eventsAfter(...args);
    },
    getCheckout: (...args) => {
      reads.checkouts++;
      return store.getCheckout(...args);
    },
  };
  return { watched, reads };
}

async function createdCheckout(store: Store, id: string) {
  const at = new Date().toISOString();
  const { checkout } = await store.reserveCheckout({ id, orderId: `order-${id}`, method: 'pix', amountCents: 990, createdAt: at });
  return (await store.activateCheckout(checkout.id, { state: 'Created', transactionId: `tx-${id}`, details: {} }, at)).checkout;
}

/** Opens the checkout's stream and resolves once its current state is in; `next(state)` reads up to that state. */
async function openStream(store: Store, hub: StatusHub, checkout: Awaited<ReturnType<typeof createdCheckout>>) {
  const reader = checkoutEventStream({ feeds: createStreamFeeds(store), hub, checkout, heartbeatMs: 60_000, retryMs: 1_000 }).getReader();
  closing.push(() => reader.cancel());
  const decoder = new TextDecoder();
  let text = '';
  const next = async (state: string) => {
    while (!text.includes(`"state":"${state}"`)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    return text;
  };
  await next('Created');
  return next;
}

describe('a stream of a change committed here', () => {
  it('sends it without reading the store back, and the same frame a read would have made', async () => {
    const { store, hub } = await openStore({ dataDir: tempDir() });
    closing.push(() => store.close());
    const { watched, reads } = counted(store);
    const checkout = await createdCheckout(store, 'co_committed');
    const next = await openStream(watched, hub, checkout);
    const before = { ...reads };
    await store.apply(
      checkout.id,
      { type: 'provider', state: 'Completed', paidAt: '2026-11-26T12:00:00.000Z' },
      'webhook',
      { transactionState: 'Completed' },
      new Date().toISOString(),
      {
        details: { paidAt: '2026-11-26T12:00:00.000Z' },
      },
    );
    const text = await next('Completed');
    expect(reads).toEqual(before);

    // The same change read from the store (a stream resumed after the Created event) gives the same frame.
    const completedFrame = text.slice(text.indexOf('id: 2\n'));
    const resumed = checkoutEventStream({
      feeds: createStreamFeeds(store),
      hub,
      checkout,
      heartbeatMs: 60_000,
      retryMs: 1_000,
      lastEventId: 1,
    }).getReader();
    closing.push(() => resumed.cancel());
    let again = '';
    while (!again.includes('"Completed"')) again += new TextDecoder().decode((await resumed.read()).value);
    expect(again.slice(again.indexOf('id: 2\n'))).toBe(completedFrame);
    expect(completedFrame).toContain('"paidAt":"2026-11-26T12:00:00.000Z"');
  });

  it('reads the store for a notice that comes without the change (another instance)', async () => {
    const dir = tempDir();
    const { store, hub } = await openStore({ dataDir: dir });
    closing.push(() => store.close());
    // A second connection to the same file whose commits this hub does not hear of, as another instance's.
    const elsewhere = await openTestStore({ file: join(dir, 'checkout.sqlite') });
    closing.push(() => elsewhere.close());
    const { watched, reads } = counted(store);
    const checkout = await createdCheckout(store, 'co_elsewhere');
    const next = await openStream(watched, hub, checkout);
    const before = reads.events;
    const moved = await elsewhere.apply(checkout.id, { type: 'provider', state: 'Completed' }, 'webhook', {}, new Date().toISOString());
    expect(moved.changed).toBe(true);
    hub.publish(checkout.id, moved.changed ? moved.event.seq : 0);
    expect(await next('Completed')).toContain('id: 2\n');
    expect(reads.events).toBe(before + 1);
  });
});
