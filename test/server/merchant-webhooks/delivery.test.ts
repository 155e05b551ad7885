/**
 * Signed webhooks to the merchant's backend (MERCHANT_WEBHOOK_URL): every delivery is verified here with the Standard
 * Webhooks library from npm, never with our own signer. A paid order gives one `checkout.completed` with the order's
 * id and amount; a receiver that fails gets the same `webhook-id` again; a delivery still owed when the BFF stops is
 * made after it starts again; while a secret is rotated, a receiver with either one accepts.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startRecordingServer, type RecordedRequest } from '../helpers/http';
import { startTestServer, tempDir, type TestServer } from '../helpers/server';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
const PAYER = { name: 'Maria Pagadora', taxNumber: '52998224725' };
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

/** A receiver answering `statuses` in turn (then 204), recording what it got. */
async function receiver(statuses: number[] = []) {
  const answers = [...statuses];
  const server = await startRecordingServer((_req, res) => void res.writeHead(answers.shift() ?? 204).end());
  open.push(server);
  return server;
}

async function shop(url: string, secret: string, dataDir = tempDir()) {
  const server = await startTestServer({
    dataDir,
    env: { MERCHANT_WEBHOOK_URL: url, MERCHANT_WEBHOOK_SECRET: secret },
    start: { tuning: { merchantWebhookRetryDelaysMs: [50, 50, 50] } },
  });
  open.push(server);
  return server;
}

async function payAnOrder(server: TestServer) {
  const { orderId, orderToken, amount } = await server.order();
  const checkout = (await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' })).body;
  await server.provider.sandbox.pix.complete(checkout.transactionId, PAYER);
  return { orderId, amount, checkout };
}

/** Verifies a delivery with the Standard Webhooks library; returns the event it carries. */
const verified = (secret: string, request: RecordedRequest) =>
  new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as { id: string; type: string; data: any };

describe('signed webhooks to the merchant', () => {
  it('delivers one verified checkout.completed with the order id and amount when an order is paid', async () => {
    const secret = newSecret();
    const backend = await receiver();
    const server = await shop(`${backend.url}/hooks`, secret);
    const { orderId, amount, checkout } = await payAnOrder(server);
    await vi.waitFor(() => expect(backend.requests.length).toBeGreaterThan(0), { timeout: 5_000 });
    const [request] = backend.requests;
    expect(request).toMatchObject({ method: 'POST', url: '/hooks' });
    const event = verified(secret, request!);
    expect(event).toMatchObject({ type: 'checkout.completed', data: { orderId, amount, checkoutId: checkout.id, state: 'Completed' } });
    expect(request!.headers['webhook-id']).toBe(event.id);
    expect(request!.body).not.toContain(PAYER.taxNumber);
    expect(() => new Webhook(newSecret()).verify(request!.body, request!.headers as Record<string, string>)).toThrow();
    // One event, one delivery.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(backend.requests).toHaveLength(1);
  });

  it('tries again after a failure with the same webhook-id, until a 2xx', async () => {
    const secret = newSecret();
    const backend = await receiver([500, 500]);
    const server = await shop(backend.url, secret);
    await payAnOrder(server);
    await vi.waitFor(() => expect(backend.requests).toHaveLength(3), { timeout: 5_000 });
    const ids = backend.requests.map((request) => verified(secret, request).id);
    expect(new Set(ids).size).toBe(1);
    expect(backend.requests.map((request) => request.headers['webhook-id'])).toEqual(ids);
  });

  it('delivers after a restart what it still owed when it stopped', async () => {
    const secret = newSecret();
    const backend = await receiver([503, 503, 503, 503, 503, 503, 503, 503]);
    const dataDir = tempDir();
    const first = await shop(backend.url, secret, dataDir);
    const { orderId } = await payAnOrder(first);
    await vi.waitFor(() => expect(backend.requests.length).toBeGreaterThan(0), { timeout: 5_000 });
    await first.close();
    open.splice(open.indexOf(first), 1);
    const refused = backend.requests.length;
    const up = await receiver();
    // The same data directory, the receiver now answering.
    await shop(up.url, secret, dataDir);
    await vi.waitFor(() => expect(up.requests.length).toBeGreaterThan(0), { timeout: 5_000 });
    const event = verified(secret, up.requests[0]!);
    expect(event).toMatchObject({ type: 'checkout.completed', data: { orderId } });
    expect(event.id).toBe(backend.requests[refused - 1]!.headers['webhook-id']);
  });

  it('signs with both secrets while one is rotated, so a receiver with either accepts', async () => {
    const [old, fresh] = [newSecret(), newSecret()];
    const backend = await receiver();
    const server = await shop(backend.url, `${old} ${fresh}`);
    await payAnOrder(server);
    await vi.waitFor(() => expect(backend.requests.length).toBeGreaterThan(0), { timeout: 5_000 });
    expect(verified(old, backend.requests[0]!).type).toBe('checkout.completed');
    expect(verified(fresh, backend.requests[0]!).type).toBe('checkout.completed');
  });
});
