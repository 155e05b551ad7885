/**
 * The stand-in provider of the status goal's row (bench/lib/stub-provider.ts): once it has recorded one completion
 * from the emulator, its trigger really completes a checkout on the BFF alone (the webhook is posted, the BFF
 * re-reads the transaction and stores Completed with its receipt), without asking the emulator anything. So the row
 * times the BFF's whole status path, and the provider's part of it costs no more than the hops floor's stand-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anyOrder, recordCompletion } from '../../bench/lib/element-page';
import { startStubProvider } from '../../bench/lib/stub-provider';
import { startTestBff, startTestServer, type TestServer } from './helpers/server';

type Bff = Awaited<ReturnType<typeof startTestBff>>;

describe('the stand-in provider of the status row', () => {
  let emulator: TestServer;
  let stub: Awaited<ReturnType<typeof startStubProvider>>;
  let alone: Bff;

  /** A checkout made on the BFF alone; returns its id and transaction id. */
  const newCheckout = async (orderId: string) => {
    const created = await alone.json('POST', '/api/checkouts', { orderId, orderToken: alone.orderTokenFor(orderId), method: 'pix' });
    expect(created.status).toBe(201);
    return created.body as { id: string; transactionId: string };
  };

  beforeAll(async () => {
    emulator = await startTestServer({ start: { orders: anyOrder } });
    stub = await startStubProvider(`${emulator.url}/sandbox`);
    alone = await startTestBff({
      env: { PROVIDER_BASE_URL: `${stub.url}/v1`, PROVIDER_ACCESS_KEY: 'sandbox-access-key', PROVIDER_SECRET: 'sandbox-secret' },
      start: { orders: anyOrder },
    });
  });
  afterAll(async () => {
    await alone?.close();
    await stub?.close();
    await emulator?.close();
  });

  it('cannot complete anything before it has recorded a completion', async () => {
    const checkout = await newCheckout('S-before');
    const answer = await fetch(`${stub.triggerUrl}?c=${checkout.transactionId}`, { method: 'POST' });
    expect(answer.status).toBe(409);
    expect((await alone.store.getCheckout(checkout.id))?.state).toBe('Registered');
  });

  it('completes a checkout of the BFF alone through its webhook and re-read, the emulator left out', async () => {
    await recordCompletion(alone, emulator, stub);
    expect(stub.canComplete()).toBe(true);
    const checkout = await newCheckout('S-after');
    expect(emulator.sandbox!.store.get(checkout.transactionId)).toBeUndefined();
    const replayed = stub.replayed();
    const answer = await fetch(`${stub.triggerUrl}?c=${checkout.transactionId}`, { method: 'POST' });
    expect(answer.status).toBe(200);
    const stored = await alone.store.getCheckout(checkout.id);
    expect(stored?.state).toBe('Completed');
    expect(stored?.details).toMatchObject({ paidAt: expect.any(String) });
    // The re-read was answered by the stand-in (a replay), with this transaction's id.
    expect(stub.replayed()).toBeGreaterThan(replayed);
    const events = await alone.store.eventsAfter(checkout.id, -1);
    expect(events.at(-1)).toMatchObject({ state: 'Completed', source: 'webhook' });
  });
});
