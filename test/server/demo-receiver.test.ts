/**
 * The demo shop is a receiver of the product's signed webhooks: `npm start` without MERCHANT_WEBHOOK_URL points the
 * product's endpoint at `/demo/api/merchant-webhooks` with a `whsec_` secret kept in DATA_DIR. The receiver verifies
 * every delivery with the Standard Webhooks library, refuses a forged one with 400, counts a repeated webhook-id once,
 * and the order's status comes from those events only.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server';

const TOKEN = 'admin-token-for-the-demo-receiver-0123';
const PAYER = { name: 'Maria Pagadora', taxNumber: '52998224725' };
let server: TestServer;
let secret: string;
beforeAll(async () => {
  server = await startTestServer({ env: { ADMIN_TOKEN: TOKEN } });
  secret = readFileSync(join(server.dataDir, 'merchant-webhook-secret'), 'utf8').trim();
});
afterAll(() => server?.close());

interface Delivery {
  webhookId: string;
  type: string;
  orderId: string | null;
  receivedAt: string;
  verified: boolean;
}

const status = async (orderId: string) => (await server.json('GET', `/demo/api/orders/${orderId}`)).body.status as string;
const deliveries = async () => (await server.json('GET', '/demo/api/merchant-deliveries')).body.items as Delivery[];
let seq = 1_000_000;

/** An event as the product would send it, signed here with the Standard Webhooks library itself. */
function signed(type: string, data: Record<string, unknown>, { id = `evt_${randomBytes(12).toString('hex')}`, key = secret } = {}) {
  const body = JSON.stringify({ id, seq: ++seq, type, createdAt: new Date().toISOString(), data });
  const headers = {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
    'webhook-signature': new Webhook(key).sign(id, new Date(), body),
  };
  return { id, body, headers };
}

const deliver = ({ body, headers }: { body: string; headers: Record<string, string> }) =>
  server.json('POST', '/demo/api/merchant-webhooks', body, { ...headers, 'content-type': 'application/json' });

const checkoutData = (orderId: string, checkoutId: string, state: string) => ({
  orderId,
  checkoutId,
  transactionId: `tx-${checkoutId}`,
  method: 'pix',
  amount: '79.80',
  currency: 'BRL',
  state,
});

describe('the demo as a receiver of the signed webhooks', () => {
  it('keeps a whsec_ secret of 32 random bytes in DATA_DIR and points the product there', () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(server.merchantWebhook).toEqual({ url: `${server.url}/demo/api/merchant-webhooks`, own: true });
  });

  it('gets a paid order its checkout.completed, verified, and reads the order as paid', async () => {
    const { orderId, orderToken } = await server.order();
    expect(await status(orderId)).toBe('awaiting_payment');
    const checkout = (await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' })).body;
    await server.provider.sandbox.pix.complete(checkout.transactionId, PAYER);
    await vi.waitFor(async () => expect(await status(orderId)).toBe('paid'), { timeout: 10_000 });
    const feed = await server.json('GET', '/api/admin/webhook-events?type=checkout.completed', undefined, {
      authorization: `Bearer ${TOKEN}`,
    });
    const event = feed.body.items.find((e: { data: { orderId: string } }) => e.data.orderId === orderId);
    expect((await deliveries()).filter((d) => d.orderId === orderId)).toEqual([
      { id: expect.any(Number), webhookId: event.id, type: 'checkout.completed', orderId, receivedAt: expect.any(String), verified: true },
    ]);
  });

  it('refuses a forged delivery with 400 and changes nothing', async () => {
    const { orderId } = await server.order();
    const before = await deliveries();
    const forged = signed('checkout.completed', checkoutData(orderId, 'co_forged', 'Completed'), {
      key: `whsec_${randomBytes(32).toString('base64')}`,
    });
    expect((await deliver(forged)).status).toBe(400);
    const unsigned = signed('checkout.completed', checkoutData(orderId, 'co_forged', 'Completed'));
    expect((await deliver({ body: unsigned.body, headers: { 'webhook-id': unsigned.id } })).status).toBe(400);
    // Signed for another body: the signature covers every byte.
    const tampered = { ...unsigned, body: unsigned.body.replace('79.80', '0.01') };
    expect((await deliver(tampered)).status).toBe(400);
    expect(await status(orderId)).toBe('awaiting_payment');
    expect(await deliveries()).toEqual(before);
    // The forged id is not taken: the real delivery of that id still counts.
    expect((await deliver(unsigned)).status).toBe(204);
    expect(await status(orderId)).toBe('paid');
  });

  it('counts a repeated webhook-id once', async () => {
    const { orderId } = await server.order();
    const failed = signed('checkout.failed', { ...checkoutData(orderId, 'co_1', 'Error'), failure: 'Error' });
    expect((await deliver(failed)).status).toBe(204);
    expect(await status(orderId)).toBe('failed');
    const paid = signed('checkout.completed', {
      ...checkoutData(orderId, 'co_2', 'Completed'),
      paidAt: new Date().toISOString(),
      late: false,
    });
    expect((await deliver(paid)).status).toBe(204);
    // The same delivery again (a retry whose first answer was lost): accepted, not recorded or acted on twice.
    expect((await deliver(failed)).status).toBe(204);
    expect(await status(orderId)).toBe('paid');
    expect((await deliveries()).filter((d) => d.webhookId === failed.id)).toHaveLength(1);
  });

  it('marks the order from the events only: expired until paid, and paid stays paid', async () => {
    const { orderId } = await server.order();
    const expired = signed('checkout.expired', { ...checkoutData(orderId, 'co_a', 'Expired'), expiresAt: new Date().toISOString() });
    expect((await deliver(expired)).status).toBe(204);
    expect(await status(orderId)).toBe('expired');
    const duplicate = signed('checkout.duplicate_paid', {
      ...checkoutData(orderId, 'co_b', 'Completed'),
      paidAt: new Date().toISOString(),
      late: true,
      duplicateOf: 'co_c',
    });
    expect((await deliver(duplicate)).status).toBe(204);
    expect(await status(orderId)).toBe('paid');
    const laterExpiry = signed('checkout.expired', { ...checkoutData(orderId, 'co_c', 'Expired'), expiresAt: null, supersededBy: 'co_b' });
    expect((await deliver(laterExpiry)).status).toBe(204);
    expect(await status(orderId)).toBe('paid');
    // A type the shop does not know is recorded and answered 2xx (so it is not sent again), and acts on nothing.
    expect((await deliver(signed('cashout.completed', { orderId: 'provider-order' }))).status).toBe(204);
  });
});
