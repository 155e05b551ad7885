/**
 * The merchant's delivery worker runs beside the payment path, never in it: a committed change reaches the shopper's
 * stream before the worker's pass begins its synchronous store writes (queue, claim), which would otherwise hold the
 * event loop between the commit and the stream's frame.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createDeliveryWorker } from '../../../server/merchant-webhooks/delivery';
import { checkoutEventStream } from '../../../server/bff/stream';
import { createStreamFeeds } from '../../../server/bff/stream-feed';
import { systemClock } from '../../../server/lib/clock';
import { createSealer, newSecretsKey, parseSecretsKey } from '../../../server/lib/sealer';
import { openStore, type Store } from '../../../server/store';
import { tempDir } from '../helpers/server';

const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (closing.length) await closing.pop()!();
});

/** A checkout waiting for its payer, in a fresh SQLite store. */
async function createdCheckout(store: Store) {
  const at = new Date().toISOString();
  const { checkout } = await store.reserveCheckout({
    id: 'co_wake',
    orderId: 'order-wake',
    method: 'pix',
    amountCents: 990,
    createdAt: at,
  });
  return (await store.activateCheckout(checkout.id, { state: 'Created', transactionId: 'tx-wake', details: {} }, at)).checkout;
}

describe('the delivery worker', () => {
  it("starts its pass after the shopper's stream has the change, not in the same turn of the event loop", async () => {
    const { store, hub } = await openStore({ dataDir: tempDir() });
    closing.push(() => store.close());
    const order: string[] = [];
    const watched: Store = {
      ...store,
      queueEndpointDeliveries: (...args) => {
        order.push('worker');
        return store.queueEndpointDeliveries(...args);
      },
    };
    // Nothing listens at this address: the attempt fails and is retried later, which this test does not wait for.
    const endpoints = [{ id: 'env', url: 'http://127.0.0.1:9/hooks', secrets: ['whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ='] }];
    const worker = createDeliveryWorker({
      store: watched,
      hub,
      endpoints,
      addresses: { loopback: true },
      // The environment's endpoint only: nothing sealed to open.
      sealer: createSealer(parseSecretsKey(newSecretsKey())),
      clock: systemClock,
      intervalMs: 60_000,
      logger: { warn: () => {} },
    });
    const checkout = await createdCheckout(store);
    worker.start();
    closing.push(() => worker.stop());
    await new Promise((resolve) => setTimeout(resolve, 50));

    const reader = checkoutEventStream({ feeds: createStreamFeeds(store), hub, checkout, heartbeatMs: 60_000, retryMs: 1_000 }).getReader();
    closing.push(() => reader.cancel());
    const decoder = new TextDecoder();
    // Read until the current state is in; then a read waits, and resolves in the microtask after the change's frame.
    while (!decoder.decode((await reader.read()).value).includes('"Created"'));
    const completed = (async () => {
      while (!decoder.decode((await reader.read()).value).includes('"Completed"'));
      order.push('stream');
    })();
    order.length = 0;
    await store.apply(checkout.id, { type: 'provider', state: 'Completed' }, 'webhook', {}, new Date().toISOString());
    await completed;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(order).toEqual(['stream', 'worker']);
  });
});
