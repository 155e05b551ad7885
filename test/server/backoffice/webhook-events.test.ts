/**
 * The merchant's events as the pull feed gives them (`GET /api/admin/webhook-events`): a payment made through the
 * whole product (BFF, emulator, provider webhook) becomes one `checkout.completed` with the order's id and amount,
 * readable from a cursor, filtered by type, each valid against the shipped JSON Schema's shape.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';

const TOKEN = 'admin-token-for-events-0123456789';
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { ADMIN_TOKEN: TOKEN } });
});
afterAll(() => server?.close());

const feed = (query = '') => server.json('GET', `/api/admin/webhook-events${query}`, undefined, { authorization: `Bearer ${TOKEN}` });

describe('the pull feed of the merchant events', () => {
  it('gives a paid order as one checkout.completed with its id and amount, from a cursor, by type', async () => {
    const start = (await feed('?limit=500')).body.nextCursor ?? '0';
    const { orderId, orderToken, amount } = await server.order();
    const checkout = (await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' })).body;
    await server.provider.sandbox.pix.complete(checkout.transactionId, { name: 'Maria Pagadora', taxNumber: '52998224725' });
    await vi.waitFor(async () => expect((await feed(`?after=${start}`)).body.items).toHaveLength(1));
    const page = (await feed(`?after=${start}`)).body;
    expect(page.items[0]).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      type: 'checkout.completed',
      data: { orderId, checkoutId: checkout.id, transactionId: checkout.transactionId, amount, state: 'Completed', late: false },
    });
    expect(JSON.stringify(page)).not.toContain('52998224725');
    expect(page.nextCursor).toBe(String(page.items[0].seq));
    expect((await feed(`?after=${page.nextCursor}`)).body).toEqual({ items: [], nextCursor: page.nextCursor });
    expect((await feed(`?after=${start}&type=checkout.failed,checkout.expired`)).body.items).toEqual([]);
    expect((await feed(`?after=${start}&type=checkout.completed`)).body.items).toHaveLength(1);
  });

  it('refuses a bad cursor, type or limit with a 400, and answers only with the admin token', async () => {
    for (const query of ['?after=-1', '?after=abc', '?type=checkout.paid', '?limit=0', '?limit=501']) {
      expect((await feed(query)).status, query).toBe(400);
    }
    expect((await server.json('GET', '/api/admin/webhook-events')).status).toBe(401);
  });
});
