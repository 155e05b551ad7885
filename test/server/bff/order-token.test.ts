/**
 * The attack this pins: `POST /api/checkouts` used to accept anyone who knew an order id, so an attacker could pin the
 * order to OpenFinance with their own CPF before the shopper, and the shopper's PIX request then got that checkout.
 * Now only a request carrying the order token the merchant's server gave the shopper's page may start or steer the
 * order's payment; refusals come before the order source is asked and before anything is reserved.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signOrderToken, verifyOrderToken } from '../../../server/bff/order-token';
import type { PricedOrder } from '../../../server/payments/orders';
import { keptSecret } from '../../../server/config';
import { ManualClock } from '../../../server/lib/clock';
import { sendJson, startRecordingServer } from '../helpers/http';
import { startTestBff, startTestServer, type TestServer } from '../helpers/server';

const SHOPPER_CPF = '52998224725';
const ATTACKER_CPF = '11144477735';

const refusal = (status: number, code: string) => ({ status, body: { statusCode: 'Error', error: { code, name: 'ApiError' } } });

describe('the demo: an attacker who knows only the order id', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('cannot pin the order to OpenFinance with their CPF, and the shopper then gets the PIX checkout they asked for', async () => {
    const { orderId, orderToken } = await server.order();
    // The order id is no secret: the demo's order page answers anyone.
    expect((await server.json('GET', `/demo/api/orders/${orderId}`)).status).toBe(200);

    const attack = { orderId, method: 'openfinance', payer: { cpf: ATTACKER_CPF, name: 'Mallory' } };
    const answers = [
      await server.json('POST', '/api/checkouts', attack),
      await server.json('POST', '/api/checkouts', { ...attack, orderToken: 'forged' }),
      await server.json('POST', '/api/checkouts', { ...attack, method: 'pix' }),
    ];
    expect(answers.map((a) => [a.status, a.body.error.code])).toEqual([
      [401, 'order_token_required'],
      [403, 'order_token_invalid'],
      [401, 'order_token_required'],
    ]);
    expect(await server.store.findCheckoutsByOrder(orderId)).toEqual([]);

    const shopper = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    expect(shopper).toMatchObject({ status: 201, body: { orderId, method: 'pix', state: 'Registered' } });
    expect(shopper.body.qrCode).toMatch(/^000201/);
    const record = await server.provider.transactions.retrieve(shopper.body.transactionId);
    expect(record.payment.payer?.cpf ?? undefined).toBeUndefined();
  });

  it("cannot use the token of an order of their own on the shopper's order", async () => {
    const shopper = await server.order();
    const attacker = await server.order();
    const res = await server.json('POST', '/api/checkouts', {
      orderId: shopper.orderId,
      orderToken: attacker.orderToken,
      method: 'openfinance',
      payer: { cpf: ATTACKER_CPF },
    });
    expect(res).toMatchObject(refusal(403, 'order_token_invalid'));
    expect(await server.store.findCheckoutsByOrder(shopper.orderId)).toEqual([]);
    // Their own order still works with their own token.
    expect((await server.json('POST', '/api/checkouts', { orderId: attacker.orderId, orderToken: attacker.orderToken })).status).toBe(201);
  });

  it("cannot read or change the shopper's checkout once it exists", async () => {
    const { orderId, orderToken } = await server.order();
    const created = await server.json('POST', '/api/checkouts', {
      orderId,
      orderToken,
      method: 'openfinance',
      payer: { cpf: SHOPPER_CPF, name: 'Maria Silva' },
    });
    expect(created.status).toBe(201);

    // Before, any of these answered 200 with the shopper's checkout (the BFF is idempotent per order).
    const attempts = [
      await server.json('POST', '/api/checkouts', { orderId, method: 'pix' }),
      await server.json('POST', '/api/checkouts', { orderId, method: 'openfinance', payer: { cpf: ATTACKER_CPF } }),
      await server.json('POST', '/api/checkouts', { orderId, orderToken: `${orderToken}x`, method: 'pix' }),
    ];
    for (const attempt of attempts) {
      expect(attempt.status).toBeGreaterThanOrEqual(401);
      expect(attempt.status).toBeLessThanOrEqual(403);
      for (const leak of [created.body.id, created.body.transactionId, created.body.checkoutUrl, SHOPPER_CPF, 'Maria']) {
        expect(attempt.text).not.toContain(leak);
      }
    }
    const checkouts = await server.store.findCheckoutsByOrder(orderId);
    expect(checkouts).toHaveLength(1);
    expect(checkouts[0]).toMatchObject({ id: created.body.id, method: 'openfinance', payerCpf: SHOPPER_CPF });

    // The shopper still gets their checkout back, and even they never see payer data in it.
    const again = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    expect(again).toMatchObject({ status: 200, body: { id: created.body.id, method: 'openfinance' } });
    expect(again.text).not.toContain(SHOPPER_CPF);
    expect(again.text).not.toContain('Maria');
  });

  it.each([
    ['a tampered signature', (t: string) => `${t.slice(0, -1)}${t.endsWith('A') ? 'B' : 'A'}`],
    ['a later expiry on the same signature', (t: string) => t.replace(/^\d+/, (s) => String(Number(s) + 86_400))],
    ['garbage', () => 'not-a-token'],
    ['a dot alone', () => '.'],
    ['a long string', () => 'x'.repeat(10_000)],
    ['a number', () => 1_700_000_000],
    ['an object', (t: string) => ({ token: t })],
    ['an array', (t: string) => [t]],
  ])('refuses %s with 403 order_token_invalid', async (_name, spoil) => {
    const { orderId, orderToken } = await server.order();
    const res = await server.json('POST', '/api/checkouts', { orderId, orderToken: spoil(orderToken), method: 'pix' });
    expect(res).toMatchObject(refusal(403, 'order_token_invalid'));
    expect(await server.store.findCheckoutsByOrder(orderId)).toEqual([]);
  });

  it.each([
    ['no token', {}],
    ['an empty token', { orderToken: '' }],
    ['a null token', { orderToken: null }],
  ])('asks for the token with 401 order_token_required on %s', async (_name, token) => {
    const { orderId } = await server.order();
    expect(await server.json('POST', '/api/checkouts', { orderId, method: 'pix', ...token })).toMatchObject(
      refusal(401, 'order_token_required'),
    );
  });

  it('refuses an expired token with 403 order_token_expired', async () => {
    const { orderId } = await server.order();
    const expired = server.orderTokenFor(orderId, new Date(Date.now() - 1_000));
    expect(await server.json('POST', '/api/checkouts', { orderId, orderToken: expired, method: 'pix' })).toMatchObject(
      refusal(403, 'order_token_expired'),
    );
    expect(await server.store.findCheckoutsByOrder(orderId)).toEqual([]);
  });

  it('checks the token before the payer, so a refusal tells nothing about the order', async () => {
    const { orderId } = await server.order();
    const res = await server.json('POST', '/api/checkouts', { orderId, method: 'openfinance', payer: { cpf: '111.111.111-11' } });
    expect(res).toMatchObject(refusal(401, 'order_token_required'));
    const unknown = await server.json('POST', '/api/checkouts', { orderId: 'A-NOPE', orderToken: 'forged', method: 'pix' });
    expect(unknown).toMatchObject(refusal(403, 'order_token_invalid'));
  });

  it('gives the token only to whoever placed the order, signed with the order-source secret for a day', async () => {
    const before = Date.now();
    const placed = await server.json('POST', '/demo/api/orders', { items: [{ sku: 'cafe-especial', quantity: 1 }] });
    const { orderId, orderToken } = placed.body as { orderId: string; orderToken: string };
    expect(verifyOrderToken(server.orderTokenKey, orderId, orderToken, new Date())).toEqual({ ok: true });
    const expiresMs = Number(orderToken.split('.')[0]) * 1000;
    expect(expiresMs).toBeGreaterThan(before + 23 * 3_600_000);
    expect(expiresMs).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000);

    const read = await server.json('GET', `/demo/api/orders/${orderId}`);
    expect(read.status).toBe(200);
    expect(read.text).not.toContain(orderToken);
    expect(read.text).not.toContain(orderToken.split('.')[1]);
  });
});

describe('the standalone BFF', () => {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    while (open.length) await open.pop()!.close();
  });

  /** A BFF whose order source and provider count what they are asked. */
  async function countingBff(clock: ManualClock) {
    const provider = await startRecordingServer((req, res) => {
      if (req.url.endsWith('/login')) return void res.writeHead(201).end('token-abc');
      sendJson(res, 201, {
        statusCode: 'Done',
        data: {
          transaction: { id: 'tx-1', orderId: 'x', date: '2026-01-01T00:00:00.000Z', state: 'Registered', amount: '79.800000' },
          payment: { qrCode: '000201', qrCodeLocation: 'http://qr.example/1' },
        },
      });
    });
    open.push(provider);
    const priced = new Map<string, PricedOrder>([['A-1', { amountCents: 7_980, description: 'Pedido A-1' }]]);
    const asked: string[] = [];
    const server = await startTestBff({
      env: { PROVIDER_BASE_URL: `${provider.url}/v1`, PROVIDER_ACCESS_KEY: 'key', PROVIDER_SECRET: 'secret' },
      start: {
        clock,
        orders: {
          resolve: async (orderId) => {
            asked.push(orderId);
            return priced.get(orderId);
          },
        },
      },
    });
    open.push(server);
    const providerCalls = () => provider.requests.filter((r) => !r.url.endsWith('/login')).length;
    return { server, asked, providerCalls };
  }

  it('refuses before asking the order source or the provider, and reserves nothing', async () => {
    const clock = new ManualClock(new Date());
    const { server, asked, providerCalls } = await countingBff(clock);
    const bad = [
      { orderId: 'A-1', method: 'openfinance', payer: { cpf: ATTACKER_CPF } },
      { orderId: 'A-1', orderToken: server.orderTokenFor('A-2'), method: 'openfinance', payer: { cpf: ATTACKER_CPF } },
      { orderId: 'A-1', orderToken: signOrderToken('some-other-merchant-key', 'A-1', new Date(Date.now() + 60_000)) },
      { orderId: 'A-1', orderToken: server.orderTokenFor('A-1', new Date(clock.now().getTime() - 1)) },
    ];
    const codes = [];
    for (const body of bad) codes.push((await server.json('POST', '/api/checkouts', body)).body.error.code);
    expect(codes).toEqual(['order_token_required', 'order_token_invalid', 'order_token_invalid', 'order_token_expired']);
    expect(asked).toEqual([]);
    expect(providerCalls()).toBe(0);
    expect(await server.store.findCheckoutsByOrder('A-1')).toEqual([]);

    const shopper = await server.json('POST', '/api/checkouts', { orderId: 'A-1', orderToken: server.orderTokenFor('A-1'), method: 'pix' });
    expect(shopper).toMatchObject({ status: 201, body: { orderId: 'A-1', method: 'pix', amount: '79.80' } });
    expect(asked).toEqual(['A-1']);
    expect(providerCalls()).toBe(1);
  });

  it("judges expiry by the server's clock, from the expiry second on", async () => {
    const clock = new ManualClock(new Date());
    const { server } = await countingBff(clock);
    const orderToken = server.orderTokenFor('A-1', new Date(clock.now().getTime() + 60_000));
    clock.advance(61_000);
    expect(await server.json('POST', '/api/checkouts', { orderId: 'A-1', orderToken, method: 'pix' })).toMatchObject(
      refusal(403, 'order_token_expired'),
    );
    clock.advance(-10_000);
    expect((await server.json('POST', '/api/checkouts', { orderId: 'A-1', orderToken, method: 'pix' })).status).toBe(201);
  });

  it('takes ORDERS_TOKEN as the key when the order source is configured, not a kept secret', async () => {
    const provider = await startRecordingServer((_req, res) => sendJson(res, 500, {}));
    open.push(provider);
    const ORDERS_TOKEN = 'the-merchant-orders-token-1234';
    const server = await startTestBff({
      env: {
        PROVIDER_BASE_URL: `${provider.url}/v1`,
        PROVIDER_ACCESS_KEY: 'key',
        PROVIDER_SECRET: 'secret',
        ORDERS_URL: `${provider.url}/orders`,
        ORDERS_TOKEN,
      },
    });
    open.push(server);
    expect(server.orderTokenKey).toBe(ORDERS_TOKEN);
    const { orderId } = await server.order();
    // The secret the BFF would keep in DATA_DIR without ORDERS_TOKEN does not open anything here.
    const kept = signOrderToken(keptSecret(server.dataDir, 'orders-token'), orderId, new Date(Date.now() + 60_000));
    expect(await server.json('POST', '/api/checkouts', { orderId, orderToken: kept, method: 'pix' })).toMatchObject(
      refusal(403, 'order_token_invalid'),
    );
  });
});
