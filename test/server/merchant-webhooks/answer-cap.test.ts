/**
 * A receiver's answer body is never wanted (server/merchant-webhooks/webhook-post.ts): the delivery worker reads at most a few
 * KB of it and closes the connection, whatever the receiver sends. A 16 MiB answer is delivered (its status is a
 * 2xx) while the worker's socket takes in a read or two of it and the receiver sees the connection closed before
 * its answer was through; the worker asks for no compression and decodes none. The bytes are counted on the
 * worker's own sockets (Node's `net.client.socket` diagnostics channel), in this process, with a real store and a
 * real receiver on 127.0.0.1.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createDeliveryWorker } from '../../../server/merchant-webhooks/delivery';
import { ANSWER_READ_BYTES } from '../../../server/merchant-webhooks/webhook-post';
import { systemClock } from '../../../server/lib/clock';
import { createSealer, newSecretsKey, parseSecretsKey } from '../../../server/lib/sealer';
import { openStore, type Store } from '../../../server/store';
import { listenOnLoopback } from '../helpers/http';
import { tempDir } from '../helpers/server';

const MiB = 1024 * 1024;
/** What a socket may take in before the worker sees the answer is past its cap: a read or two (Node reads 64 KiB). */
const TWO_READS = 2 * 64 * 1024;
const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (closing.length) await closing.pop()!();
});

/** A receiver answering 200 with `size` bytes, written as the connection takes them; it tells how that went. */
async function bigAnswer(size: number) {
  const seen = { headers: undefined as IncomingHttpHeaders | undefined, written: 0, cutShort: false };
  const server = createServer((req, res: ServerResponse) => {
    seen.headers = req.headers;
    req.resume();
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(size) });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const pump = () => {
      while (seen.written < size) {
        seen.written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => (seen.cutShort = !res.writableFinished));
    pump();
  });
  const { port, close } = await listenOnLoopback(server);
  closing.push(close);
  return { url: `http://127.0.0.1:${port}/hooks`, seen };
}

/** A paid checkout's merchant event, written by the store as the payment path writes it. */
async function paidCheckout(store: Store) {
  const at = new Date().toISOString();
  const { checkout } = await store.reserveCheckout({ id: 'co_big', orderId: 'order-big', method: 'pix', amountCents: 990, createdAt: at });
  await store.activateCheckout(checkout.id, { state: 'Registered', transactionId: 'tx-big', details: {} }, at);
  await store.apply(checkout.id, { type: 'provider', state: 'Completed', paidAt: at }, 'webhook', {}, at, { details: { paidAt: at } });
}

describe("the delivery worker and a receiver's answer", () => {
  it('reads a 16 MiB answer no further than a read or two, and counts the delivery', async () => {
    const receiver = await bigAnswer(16 * MiB);
    const { store, hub } = await openStore({ dataDir: tempDir() });
    closing.push(() => store.close());
    const sockets: Socket[] = [];
    const onSocket = (message: unknown) => sockets.push((message as { socket: Socket }).socket);
    subscribe('net.client.socket', onSocket);
    closing.push(async () => unsubscribe('net.client.socket', onSocket));
    const worker = createDeliveryWorker({
      store,
      hub,
      endpoints: [{ id: 'env', url: receiver.url, secrets: ['whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ='] }],
      addresses: { loopback: true },
      // The environment's endpoint only: nothing sealed to open.
      sealer: createSealer(parseSecretsKey(newSecretsKey())),
      clock: systemClock,
      logger: { warn: () => undefined },
    });
    closing.push(() => worker.stop());
    await worker.runOnce();
    await paidCheckout(store);

    expect(await worker.runOnce()).toBe(1);
    const [event] = await store.merchantEventsAfter(0, 10);
    expect((await store.deliveriesOfEvents([event!.seq]))[0]).toMatchObject({ endpointId: 'env', state: 'delivered', lastStatus: 200 });
    expect(receiver.seen.headers?.['accept-encoding']).toBeUndefined();

    // The worker's connection to the receiver took in a read or two, and was closed mid-answer.
    // The only client sockets of this process are the worker's (the store is a file, the receiver a server here).
    const mine = sockets;
    expect(mine).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(mine[0]!.destroyed).toBe(true);
    expect(mine[0]!.bytesRead).toBeGreaterThan(ANSWER_READ_BYTES);
    expect(mine[0]!.bytesRead).toBeLessThanOrEqual(TWO_READS);
    expect(receiver.seen.cutShort).toBe(true);
    expect(receiver.seen.written).toBeLessThan(16 * MiB);
  });
});
