import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSse } from '../helpers/sse';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ start: { tuning: { heartbeatMs: 200 } } });
});
afterAll(() => server.close());

async function newCheckout() {
  const { orderId, orderToken } = await server.order();
  const res = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
  return res.body as { id: string; transactionId: string; orderId: string };
}

const payer = { name: 'Maria Silva', taxNumber: '52998224725' };

describe('GET /api/checkouts/:id/events', () => {
  it('sends the current state first, then each change, then closes after a final state', async () => {
    const checkout = await newCheckout();
    const sse = await openSse(`${server.url}/api/checkouts/${checkout.id}/events`);
    expect(sse.status).toBe(200);
    expect(sse.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(sse.headers.get('x-accel-buffering')).toBe('no');
    expect(sse.headers.get('cache-control')).toMatch(/no-cache/);

    const first = await sse.next();
    expect(first?.retry).toBeGreaterThan(0);
    const current = await sse.next();
    expect(current).toMatchObject({ id: '1', event: 'status' });
    expect(JSON.parse(current!.data)).toMatchObject({ id: checkout.id, state: 'Registered' });

    await server.provider.sandbox.pix.complete(checkout.transactionId, payer);
    const done = await sse.next();
    expect(done?.id).toBe('2');
    expect(JSON.parse(done!.data)).toMatchObject({ id: checkout.id, state: 'Completed', amount: '79.80' });
    expect(await sse.ended()).toBe(true);
  });

  it('resumes after Last-Event-ID without gaps or repeats', async () => {
    const checkout = await newCheckout();
    await server.provider.sandbox.pix.cancel(checkout.transactionId);
    const resumed = await openSse(`${server.url}/api/checkouts/${checkout.id}/events`, { 'last-event-id': '1' });
    await resumed.next(); // retry hint
    const event = await resumed.next();
    expect(event?.id).toBe('2');
    expect(JSON.parse(event!.data).state).toBe('Cancelled');
    expect(await resumed.ended()).toBe(true);

    const upToDate = await openSse(`${server.url}/api/checkouts/${checkout.id}/events`, { 'last-event-id': '2' });
    await upToDate.next();
    expect(await upToDate.next()).toBeUndefined();
  });

  it('sends heartbeat comments while nothing happens', async () => {
    const checkout = await newCheckout();
    const sse = await openSse(`${server.url}/api/checkouts/${checkout.id}/events`);
    await sse.next();
    await sse.next();
    await sse.readFor(700);
    expect(sse.comments.filter((c) => c === 'heartbeat').length).toBeGreaterThanOrEqual(2);
    sse.close();
  });

  it('pushes one event to every open stream of the checkout', async () => {
    const checkout = await newCheckout();
    const streams = await Promise.all(Array.from({ length: 5 }, () => openSse(`${server.url}/api/checkouts/${checkout.id}/events`)));
    for (const s of streams) (await s.next(), await s.next());
    await server.provider.sandbox.pix.error(checkout.transactionId);
    for (const s of streams) {
      const event = await s.next();
      expect(JSON.parse(event!.data)).toMatchObject({ state: 'Error' });
      expect(await s.next()).toBeUndefined();
    }
  });

  it('leaves no subscription behind when clients disconnect', async () => {
    const checkout = await newCheckout();
    const before = server.hub.subscriberCount();
    for (let round = 0; round < 20; round++) {
      const streams = await Promise.all(Array.from({ length: 25 }, () => openSse(`${server.url}/api/checkouts/${checkout.id}/events`)));
      await Promise.all(streams.map((s) => s.next()));
      streams.forEach((s) => s.close());
    }
    await expect.poll(() => server.hub.subscriberCount(), { timeout: 5_000 }).toBe(before);
  });
});
