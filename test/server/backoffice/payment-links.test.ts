/**
 * Payment links from the console, `POST /api/admin/payment-links`: a link whose token the BFF itself accepts for that
 * order (and no other), valid for the days asked; an order the source does not know is a 404 and no link; a viewer is
 * refused; bad input is a 400; and the audit trail records who made a link for which order, never the link's token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyOrderToken } from '../../../server/bff/order-token';
import { ManualClock } from '../../../server/lib/clock';
import { startTestServer, type TestServer } from '../helpers/server';
import { ADMIN_TOKEN, consoleClient } from './auth-helpers';

describe('payment links from the console', () => {
  let server: TestServer;
  let clock: ManualClock;
  let client: ReturnType<typeof consoleClient>;
  beforeAll(async () => {
    clock = new ManualClock(new Date('2026-11-26T12:00:00Z'));
    server = await startTestServer({ env: { ADMIN_TOKEN, TRUST_PROXY: '1' }, start: { clock } });
    client = consoleClient(server, clock);
  });
  afterAll(() => server?.close());

  it("makes an operator a link to the order's payment page whose token the BFF accepts for that order only", async () => {
    const order = await server.order();
    const operator = await client.session((await client.user('operator')).email);
    const made = await client.withCookie(operator, 'POST', '/payment-links', { orderId: order.orderId, days: 3 });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({ orderId: order.orderId, url: expect.any(String), expiresAt: '2026-11-29T12:00:00.000Z' });
    const url = new URL(made.body.url);
    expect(url.origin).toBe(new URL(server.publicBaseUrl).origin);
    expect(url.pathname).toBe(`/pay/${order.orderId}`);
    const token = new URLSearchParams(url.hash.slice(1)).get('t')!;
    expect(verifyOrderToken(server.orderTokenKey, order.orderId, token, clock.now()).ok).toBe(true);
    expect(verifyOrderToken(server.orderTokenKey, `${order.orderId}x`, token, clock.now()).ok).toBe(false);
    expect(verifyOrderToken(server.orderTokenKey, order.orderId, token, new Date('2026-11-29T12:00:01Z')).ok).toBe(false);
    // The page the link opens starts the order with that token: its lookup says there is nothing to resume yet.
    const lookup = await fetch(`${server.url}/api/orders/${order.orderId}/checkout`, { headers: { 'x-order-token': token } });
    expect(lookup.status).toBe(204);

    const trail = (await client.withToken('GET', `/audit?action=payment_link.create&limit=5`)).body.data as any[];
    expect(trail[0]).toMatchObject({ target: order.orderId, outcome: 'ok', role: 'operator', details: { days: 3 } });
    expect(JSON.stringify(trail)).not.toContain(token);
  });

  it('defaults to 7 days, refuses an unknown order (404, recorded) and bad input (400), and a viewer (403)', async () => {
    const order = await server.order();
    const made = await client.withToken('POST', '/payment-links', { orderId: order.orderId });
    expect(made.body.expiresAt).toBe(new Date(clock.now().getTime() + 7 * 86_400_000).toISOString());
    expect(await client.withToken('POST', '/payment-links', { orderId: 'A-NOT-AN-ORDER' })).toMatchObject({
      status: 404,
      body: { error: { code: 'order_not_found' } },
    });
    const refused = (await client.withToken('GET', `/audit?action=payment_link.create&limit=1`)).body.data[0];
    expect(refused).toMatchObject({ target: 'A-NOT-AN-ORDER', outcome: 'refused', details: { code: 'order_not_found' } });
    for (const body of [
      { orderId: 'a b' },
      { orderId: order.orderId, days: 0 },
      { orderId: order.orderId, days: 366 },
      { orderId: order.orderId, days: 1.5 },
      { orderId: order.orderId, extra: 1 },
    ]) {
      expect(await client.withToken('POST', '/payment-links', body)).toMatchObject({
        status: 400,
        body: { error: { code: 'invalid_request' } },
      });
    }
    const viewer = await client.session((await client.user('viewer')).email);
    expect((await client.withCookie(viewer, 'POST', '/payment-links', { orderId: order.orderId })).status).toBe(403);
  });
});
