import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBrCode } from '../../../server/sandbox/brcode';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const VALID_CPF = '52998224725';

describe('POST /api/checkouts', () => {
  it('creates an identified PIX cash-in priced by the server, ignoring a browser amount', async () => {
    const { orderId, orderToken, amount } = await server.order([{ sku: 'cafe-especial', quantity: 2 }]);
    expect(amount).toBe('79.80');
    const res = await server.json('POST', '/api/checkouts', {
      orderId,
      orderToken,
      method: 'pix',
      payer: { cpf: '529.982.247-25', name: 'Maria Silva' },
      amount: '0.01',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ orderId, method: 'pix', state: 'Registered', amount: '79.80', currency: 'BRL' });
    expect(res.body.id).toMatch(/^co_[\w-]{20,}$/);
    expect(res.body.transactionId).toBeTruthy();
    expect(decodeBrCode(res.body.qrCode).amount).toBe('79.80');

    const record = await server.provider.transactions.retrieve(res.body.transactionId);
    expect(record.payment.payer?.cpf).toBe(VALID_CPF);
    expect(record.transaction.orderId).toBe(orderId);
    expect(record.webhook.url).toBe(`${server.url}/api/webhooks/provider`);
  });

  it('creates an anonymous PIX cash-in when no payer is given', async () => {
    const { orderId, orderToken } = await server.order();
    const res = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    expect(res.status).toBe(201);
    const record = await server.provider.transactions.retrieve(res.body.transactionId);
    expect(record.payment.payer?.cpf ?? undefined).toBeUndefined();
  });

  it('creates an OpenFinance initiation with a checkout address and the storefront return address', async () => {
    const { orderId, orderToken } = await server.order();
    const returnUrl = `${server.url}/checkout.html?order=${orderId}`;
    const res = await server.json('POST', '/api/checkouts', {
      orderId,
      orderToken,
      method: 'openfinance',
      payer: { cpf: VALID_CPF },
      returnUrl,
    });
    expect(res.status).toBe(201);
    expect(res.body.checkoutUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sandbox\/v1\/system\/checkout\/init\//);
    expect(res.body.qrCode).toBeUndefined();
  });

  it('requires a valid CPF for OpenFinance, before calling the provider', async () => {
    const { orderId, orderToken } = await server.order();
    const missing = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'openfinance' });
    expect(missing.status).toBe(422);
    expect(missing.body.error.code).toBe('payer_required');
    const wrong = await server.json('POST', '/api/checkouts', {
      orderId,
      orderToken,
      method: 'openfinance',
      payer: { cpf: '111.111.111-11' },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.code).toBe('payer_cpf_invalid');
    expect(await server.store.findCheckoutsByOrder(orderId)).toEqual([]);
  });

  it('refuses a return address outside the storefront origins', async () => {
    const { orderId, orderToken } = await server.order();
    const res = await server.json('POST', '/api/checkouts', {
      orderId,
      orderToken,
      method: 'openfinance',
      payer: { cpf: VALID_CPF },
      returnUrl: 'https://evil.example/steal',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('return_url_not_allowed');
  });

  it('refuses a return address with a user name or password, even on a storefront origin, and makes nothing', async () => {
    const { orderId, orderToken } = await server.order();
    const { host, protocol } = new URL(server.url);
    for (const userInfo of ['user:pass@', 'user@', ':pass@']) {
      const res = await server.json('POST', '/api/checkouts', {
        orderId,
        orderToken,
        method: 'openfinance',
        payer: { cpf: VALID_CPF },
        returnUrl: `${protocol}//${userInfo}${host}/checkout.html`,
      });
      expect({ userInfo, status: res.status, code: res.body.error?.code }).toEqual({
        userInfo,
        status: 400,
        code: 'return_url_not_allowed',
      });
    }
    expect(await server.store.findCheckoutsByOrder(orderId)).toEqual([]);
  });

  it('answers an unknown order with 404', async () => {
    const res = await server.json('POST', '/api/checkouts', {
      orderId: 'A-NOPE',
      orderToken: server.orderTokenFor('A-NOPE'),
      method: 'pix',
    });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 'Error', error: { code: 'order_not_found' } });
  });

  it('returns the same checkout to concurrent submits of one order, with one provider transaction', async () => {
    const { orderId, orderToken } = await server.order();
    const results = await Promise.all(
      Array.from({ length: 12 }, () => server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(new Set(results.map((r) => r.body.transactionId)).size).toBe(1);
    expect(await server.store.findCheckoutsByOrder(orderId)).toHaveLength(1);
  });

  it('allows a new checkout after Error, but never after Completed', async () => {
    const { orderId, orderToken } = await server.order();
    const first = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    await server.provider.sandbox.pix.error(first.body.transactionId);
    await expect.poll(async () => (await server.json('GET', `/api/checkouts/${first.body.id}`)).body.state).toBe('Error');

    const second = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.body.id);
    await server.provider.sandbox.pix.complete(second.body.transactionId, { name: 'Maria', taxNumber: VALID_CPF });
    await expect.poll(async () => (await server.json('GET', `/api/checkouts/${second.body.id}`)).body.state).toBe('Completed');

    const third = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    expect(third.status).toBe(200);
    expect(third.body).toMatchObject({ id: second.body.id, state: 'Completed' });
  });
});

describe('malformed requests', () => {
  it.each([
    ['invalid JSON', '{"orderId":', 400, 'invalid_json'],
    ['a wrong type', { orderId: 42 }, 400, 'invalid_request'],
    ['an unknown method', { orderId: 'A-1', method: 'card' }, 400, 'invalid_request'],
    ['a bad order id', { orderId: '../../etc' }, 400, 'invalid_request'],
    ['an array body', [1, 2], 400, 'invalid_request'],
    ['a huge body', { orderId: 'A-1', pad: 'x'.repeat(70_000) }, 413, 'payload_too_large'],
  ])('answers %s with a clear 4xx', async (_name, body, status, code) => {
    const res = await server.json('POST', '/api/checkouts', body);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ statusCode: 'Error', error: { code, name: expect.any(String), message: expect.any(String) } });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it('answers unknown routes and checkouts with 404 envelopes', async () => {
    expect((await server.json('GET', '/api/nope')).body.error.code).toBe('not_found');
    expect((await server.json('GET', '/api/checkouts/co_unknown')).status).toBe(404);
    expect((await server.json('GET', '/api/checkouts/co_unknown/events')).status).toBe(404);
  });
});

describe('CORS', () => {
  it('allows the configured storefront origin and no other', async () => {
    const preflight = (origin: string) =>
      fetch(`${server.url}/api/checkouts`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    const allowed = await preflight(server.url);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(server.url);
    const other = await preflight('https://evil.example');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('never opens the back-office or webhook routes to browsers of other origins', async () => {
    const res = await fetch(`${server.url}/api/admin/balance`, { headers: { origin: server.url } });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});
