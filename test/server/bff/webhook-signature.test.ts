/**
 * Signed webhooks (WEBHOOK_SIGNING_KEY): on top of the secret header, every webhook must carry the provider's
 * `X-Webhook-Signature`, checked in constant time, within 5 minutes of our clock, each nonce once.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WEBHOOK_HEADER } from '../../../server/bff/app';
import { signWebhook, verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from '../../../server/provider/webhook-signature';
import { startTestServer, type TestServer } from '../helpers/server';

const SIGNING_KEY = 'whsec_0123456789abcdefghijklmnopqrstuv';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { WEBHOOK_SIGNING_KEY: SIGNING_KEY } });
});
afterAll(() => server.close());

async function newCheckout() {
  const { orderId, orderToken } = await server.order();
  return (await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' })).body as {
    id: string;
    transactionId: string;
  };
}

const event = (transactionId: string, state = 'Registered') => ({
  id: transactionId,
  transactionState: state,
  transactionDate: '2026-01-15T12:00:00.000Z',
  transactionAmount: '79.800000',
  transactionType: 'Credit',
  transactionPaymentType: 'PIX',
});
const now = () => Math.floor(Date.now() / 1000);
const send = (body: unknown, signature: string | undefined, secret = server.config.webhookSecret) =>
  server.json('POST', '/api/webhooks/provider', body, {
    [WEBHOOK_HEADER]: secret,
    ...(signature === undefined ? {} : { [WEBHOOK_SIGNATURE_HEADER]: signature }),
  });
const signed = (body: unknown, ts = now(), key = SIGNING_KEY, nonce = randomUUID()) => signWebhook(key, JSON.stringify(body), ts, nonce);
const code = (res: { body: { error?: { code?: string } } }) => res.body.error?.code;

describe('signed webhooks', () => {
  it('the emulator signs and the BFF accepts: a payment reaches the checkout through a signed webhook', async () => {
    const checkout = await newCheckout();
    await server.provider.sandbox.pix.complete(checkout.transactionId, { name: 'Maria', taxNumber: '52998224725' });
    expect((await server.json('GET', `/api/checkouts/${checkout.id}`)).body.state).toBe('Completed');
    const events = await server.store.eventsAfter(checkout.id, 0);
    expect(events.map((e) => [e.state, e.source])).toEqual([
      ['Registered', 'create'],
      ['Completed', 'webhook'],
    ]);
  });

  it('a good signature is accepted, lower-case hex and other spacing too', async () => {
    const checkout = await newCheckout();
    const body = event(checkout.transactionId);
    expect((await send(body, signed(body))).status).toBe(200);
    const relaxed = signed(body)
      .replace(/Sign=([0-9A-F]+)/, (_m, hex: string) => `Sign=${hex.toLowerCase()}`)
      .replace(',TS=', ', TS=');
    expect((await send(body, relaxed)).status).toBe(200);
  });

  it('a bad signature is refused: missing, malformed, another key, or a body changed after signing', async () => {
    const checkout = await newCheckout();
    const body = event(checkout.transactionId, 'Completed');
    expect(code(await send(body, undefined))).toBe('webhook_signature_missing');
    expect(code(await send(body, 'HMAC-SHA256 Sign=abc, Nonce=x,TS=1'))).toBe('webhook_signature_invalid');
    expect(code(await send(body, 'Bearer something'))).toBe('webhook_signature_invalid');
    expect(code(await send(body, signed(body, now(), 'another-key-0123456789abcdef')))).toBe('webhook_signature_invalid');
    const res = await send({ ...body, transactionAmount: '1.000000' }, signed(body));
    expect(res.status).toBe(401);
    expect(code(res)).toBe('webhook_signature_invalid');
    expect(res.body.error.message).not.toContain(SIGNING_KEY);
    // Nothing moved.
    expect((await server.store.eventsAfter(checkout.id, 0)).map((e) => e.state)).toEqual(['Registered']);
  });

  it('an old signature is refused: more than 5 minutes either way', async () => {
    const checkout = await newCheckout();
    const body = event(checkout.transactionId);
    expect(code(await send(body, signed(body, now() - 6 * 60)))).toBe('webhook_signature_expired');
    expect(code(await send(body, signed(body, now() + 6 * 60)))).toBe('webhook_signature_expired');
    expect((await send(body, signed(body, now() - 4 * 60))).status).toBe(200);
  });

  it('a replayed signature is refused: the same nonce twice', async () => {
    const checkout = await newCheckout();
    const body = event(checkout.transactionId);
    const signature = signed(body);
    expect((await send(body, signature)).status).toBe(200);
    const again = await send(body, signature);
    expect(again.status).toBe(401);
    expect(code(again)).toBe('webhook_replayed');
    // A fresh signature of the same event (the provider's retry) is fine.
    expect((await send(body, signed(body))).status).toBe(200);
  });

  it('the secret header is still required, checked before the signature', async () => {
    const checkout = await newCheckout();
    const body = event(checkout.transactionId);
    expect(code(await send(body, signed(body), 'wrong-secret'))).toBe('webhook_unauthorized');
  });

  it('a webhook the BFF could not handle (5xx) keeps its nonce free, so the provider may retry that very delivery', async () => {
    const checkout = await newCheckout();
    const body = event(checkout.transactionId);
    const signature = signed(body);
    const retrieve = vi.spyOn(server.provider.transactions, 'retrieve').mockRejectedValueOnce(new Error('provider down'));
    try {
      expect((await send(body, signature)).status).toBe(503);
    } finally {
      retrieve.mockRestore();
    }
    expect((await send(body, signature)).status).toBe(200);
    expect(code(await send(body, signature))).toBe('webhook_replayed');
  });
});

describe('verifyWebhookSignature', () => {
  const body = JSON.stringify({ id: 'tx', transactionState: 'Completed' });

  it('accepts a sender that signed the compact form of a body it spaced out', () => {
    const header = signWebhook(SIGNING_KEY, body, 1_000);
    const spaced = JSON.stringify(JSON.parse(body), null, 2);
    expect(verifyWebhookSignature({ key: SIGNING_KEY, header, body: spaced, nowSeconds: 1_000 })).toMatchObject({ ok: true });
  });

  it('refuses a repeated part or an overlong nonce as malformed', () => {
    const header = signWebhook(SIGNING_KEY, body, 1_000, 'n-1');
    for (const bad of [`${header},TS=1000`, signWebhook(SIGNING_KEY, body, 1_000, 'n'.repeat(200))]) {
      expect(verifyWebhookSignature({ key: SIGNING_KEY, header: bad, body, nowSeconds: 1_000 })).toEqual({
        ok: false,
        reason: 'malformed',
      });
    }
  });
});
