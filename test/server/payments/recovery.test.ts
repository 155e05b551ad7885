/**
 * No payment lost or doubled when the provider's answer to a create is lost: a timeout, a 5xx after the provider
 * acted, a crash between reserving the order and the answer, or a webhook for a transaction no checkout holds.
 * The BFF talks to the emulator through a proxy that injects those faults.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { WEBHOOK_HEADER } from '../../../server/bff/app';
import type { Tuning } from '../../../server/server';
import { freePort, startRecordingServer, type RecordedRequest } from '../helpers/http';
import { startTestBff, startTestServer, tempDir, type TestServer } from '../helpers/server';

type Mode = 'pass' | 'slow-create' | 'fail-after-create' | 'slow-create-then-down' | 'down';

let emulator: TestServer;
beforeAll(async () => {
  emulator = await startTestServer();
});
afterAll(async () => {
  await emulator?.close();
});
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

/** A proxy to the emulator's partner API; `mode.current` decides what the BFF gets. */
async function faultyProvider(mode: { current: Mode }) {
  const forward = async (req: RecordedRequest) => {
    const response = await fetch(`${emulator.url}/sandbox${req.url}`, {
      method: req.method,
      headers: Object.fromEntries(
        Object.entries(req.headers).filter(([name]) => !['host', 'content-length', 'connection'].includes(name)),
      ) as Record<string, string>,
      ...(req.body ? { body: req.body } : {}),
    });
    return { status: response.status, body: await response.text(), type: response.headers.get('content-type') ?? 'text/plain' };
  };
  const reply = (res: ServerResponse, answer: { status: number; body: string; type: string }) => {
    res.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body);
  };
  const proxy = await startRecordingServer(async (req, res) => {
    const creates = req.method === 'POST' && /\/(cashin|payment-initiation)$/.test(req.url);
    if (mode.current === 'down' || (mode.current === 'slow-create-then-down' && !creates && !req.url.endsWith('/login'))) {
      return reply(res, {
        status: 503,
        type: 'application/json',
        body: '{"statusCode":"Error","error":{"name":"Unavailable","message":"down"}}',
      });
    }
    const answer = await forward(req);
    if (creates && mode.current === 'fail-after-create') {
      return reply(res, {
        status: 502,
        type: 'application/json',
        body: '{"statusCode":"Error","error":{"name":"BadGateway","message":"lost"}}',
      });
    }
    // The provider made the transaction; its answer comes after the BFF has given up.
    if (creates && mode.current !== 'pass') await new Promise((resolve) => setTimeout(resolve, 600));
    if (!res.destroyed) reply(res, answer);
  });
  open.push(proxy);
  return proxy;
}

async function bffBehind(proxyUrl: string, env: Record<string, string> = {}, tuning: Tuning = {}) {
  const bff = await startTestBff({
    env: {
      PROVIDER_BASE_URL: `${proxyUrl}/v1`,
      PROVIDER_ACCESS_KEY: 'sandbox-access-key',
      PROVIDER_SECRET: 'sandbox-secret',
      ...env,
    },
    start: { tuning: { providerTimeoutMs: 300, settleAfterMs: 400, ...tuning } },
  });
  open.push(bff);
  return bff;
}

/** The provider's transactions of an order, whatever our store says. */
async function atProvider(orderId: string) {
  const day = new Date().toISOString().slice(0, 10);
  const { items } = await emulator.provider.transactions.list({
    transactionOrderId: orderId,
    startDate: `${day}T00:00:00.000Z`,
    endDate: `${day}T23:59:59.999Z`,
    'dataset.limit': 20,
    'dataset.offset': 0,
  });
  return items.map((item) => item.transaction);
}

/** A cash-in made straight at the provider for one of the BFF's orders, as a lost create would have made it. */
const cashInAtProvider = (bff: Awaited<ReturnType<typeof bffBehind>>, orderId: string) =>
  emulator.provider.pix.createCashIn({
    payment: { value: { original: '79.80' } },
    transaction: { orderId, orderDescription: 'Pedido' },
    webhook: { url: bff.checkout.webhook.url, customHeaderName: WEBHOOK_HEADER, customHeaderValue: bff.config.webhookSecret },
  });

describe('creation when the provider answer is lost', () => {
  it('adopts the transaction a timed-out create made, and a retry never makes a second one', async () => {
    const mode = { current: 'slow-create' as Mode };
    const bff = await bffBehind((await faultyProvider(mode)).url);
    const { orderId, orderToken } = await bff.order();
    const first = await bff.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    expect(first).toMatchObject({ status: 201, body: { orderId, state: 'Registered' } });
    expect(first.body.qrCode).toMatch(/^000201/);
    mode.current = 'pass';
    const retry = await bff.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    expect(retry).toMatchObject({ status: 200, body: { id: first.body.id, transactionId: first.body.transactionId } });
    expect(await atProvider(orderId)).toHaveLength(1);
  });

  it('adopts the transaction when the provider acted and then answered 5xx', async () => {
    const bff = await bffBehind((await faultyProvider({ current: 'fail-after-create' })).url);
    const { orderId, orderToken } = await bff.order();
    const res = await bff.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    expect(res).toMatchObject({ status: 201, body: { orderId, state: 'Registered' } });
    const made = await atProvider(orderId);
    expect(made.map((t) => t.id)).toEqual([res.body.transactionId]);
  });

  it('keeps the order waiting while the provider cannot be asked, then settles it once it answers', async () => {
    const mode = { current: 'slow-create-then-down' as Mode };
    const bff = await bffBehind((await faultyProvider(mode)).url);
    const { orderId, orderToken } = await bff.order();
    const first = await bff.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    expect(first).toMatchObject({ status: 504, body: { error: { code: 'provider_timeout' } } });
    expect((await bff.store.findCheckoutsByOrder(orderId)).map((c) => c.state)).toEqual(['Creating']);

    const again = await bff.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    expect(again).toMatchObject({ status: 503, body: { error: { code: 'checkout_pending' } } });
    expect(await atProvider(orderId)).toHaveLength(1);

    mode.current = 'pass';
    await bff.checkout.reconciler.runOnce();
    const [adopted] = await bff.store.findCheckoutsByOrder(orderId);
    expect(adopted).toMatchObject({ state: 'Registered', transactionId: (await atProvider(orderId))[0]!.id });
    const after = await bff.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    expect(after).toMatchObject({ status: 200, body: { id: adopted!.id } });
    expect(await atProvider(orderId)).toHaveLength(1);
  });

  it('releases an order whose create never reached the provider, so the next request creates it', async () => {
    const mode = { current: 'down' as Mode };
    const bff = await bffBehind((await faultyProvider(mode)).url);
    const { orderId, orderToken } = await bff.order();
    const failed = await bff.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    expect(failed.status).toBeGreaterThanOrEqual(500);
    mode.current = 'pass';
    await new Promise((resolve) => setTimeout(resolve, 450));
    await bff.checkout.reconciler.runOnce();
    expect(await bff.store.findCheckoutsByOrder(orderId)).toEqual([]);
    expect((await bff.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' })).status).toBe(201);
    expect(await atProvider(orderId)).toHaveLength(1);
  });
});

describe('a crash between reserving the order and the provider answer', () => {
  it('is settled when the BFF starts again: the transaction is adopted, or the order released', async () => {
    const proxy = await faultyProvider({ current: 'pass' });
    const env = { PORT: String(await freePort()), DATA_DIR: tempDir() };
    const before = await startTestBff({
      env: { PROVIDER_BASE_URL: `${proxy.url}/v1`, PROVIDER_ACCESS_KEY: 'sandbox-access-key', PROVIDER_SECRET: 'sandbox-secret', ...env },
    });
    const reservedAt = new Date(Date.now() - 60_000).toISOString();
    const draft = (orderId: string) => ({
      id: `co_${orderId}`,
      orderId,
      method: 'pix' as const,
      amountCents: 7_980,
      createdAt: reservedAt,
    });
    await before.store.reserveCheckout(draft('CRASH-PAID'));
    await before.store.reserveCheckout(draft('CRASH-NOTHING'));
    const made = await cashInAtProvider(before, 'CRASH-PAID');
    await before.close();

    const after = await startTestBff({
      env: { PROVIDER_BASE_URL: `${proxy.url}/v1`, PROVIDER_ACCESS_KEY: 'sandbox-access-key', PROVIDER_SECRET: 'sandbox-secret', ...env },
    });
    open.push(after);
    await after.checkout.reconciler.runOnce();
    expect(await after.store.getCheckout('co_CRASH-PAID')).toMatchObject({
      state: 'Registered',
      transactionId: made.transaction.id,
      details: { qrCode: made.payment.qrCode },
    });
    expect(await after.store.getCheckout('co_CRASH-NOTHING')).toBeUndefined();
  });
});

describe('several instances', () => {
  it("adopts a transaction another instance made (its own webhook address, the shared secret), and not a stranger's", async () => {
    const bff = await bffBehind((await faultyProvider({ current: 'pass' })).url, { WEBHOOK_SECRET: 'w'.repeat(40) });
    const reservedAt = new Date(Date.now() - 60_000).toISOString();
    for (const orderId of ['OTHER-INSTANCE', 'STRANGER']) {
      await bff.store.reserveCheckout({ id: `co_${orderId}`, orderId, method: 'pix', amountCents: 7_980, createdAt: reservedAt });
    }
    const byOtherInstance = await emulator.provider.pix.createCashIn({
      payment: { value: { original: '79.80' } },
      transaction: { orderId: 'OTHER-INSTANCE' },
      webhook: { url: 'http://127.0.0.1:9/api/webhooks/provider', customHeaderName: WEBHOOK_HEADER, customHeaderValue: 'w'.repeat(40) },
    });
    await emulator.provider.pix.createCashIn({
      payment: { value: { original: '79.80' } },
      transaction: { orderId: 'STRANGER' },
      webhook: { url: 'http://127.0.0.1:9/api/webhooks/provider', customHeaderName: WEBHOOK_HEADER, customHeaderValue: 'x'.repeat(40) },
    });
    await bff.checkout.reconciler.runOnce();
    expect(await bff.store.getCheckout('co_OTHER-INSTANCE')).toMatchObject({
      state: 'Registered',
      transactionId: byOtherInstance.transaction.id,
    });
    expect(await bff.store.getCheckout('co_STRANGER')).toBeUndefined();
  });
});

describe('webhooks for transactions no checkout holds', () => {
  it('adopts and applies a transaction of ours, and ignores one the provider does not know', async () => {
    const bff = await bffBehind((await faultyProvider({ current: 'pass' })).url);
    const { orderId } = await bff.order();
    const made = await cashInAtProvider(bff, orderId);
    expect(await bff.store.findCheckoutsByOrder(orderId)).toEqual([]);
    // Its first webhook is its payment.
    await emulator.provider.sandbox.pix.complete(made.transaction.id, { name: 'Maria Pagadora', taxNumber: '52998224725' });
    await vi.waitFor(async () =>
      expect(await bff.store.findCheckoutByTransaction(made.transaction.id)).toMatchObject({ state: 'Completed' }),
    );

    const stranger = await bff.json(
      'POST',
      '/api/webhooks/provider',
      { id: 'tx-nobody-knows', transactionState: 'Completed', transactionAmount: '1.00', transactionType: 'Credit' },
      { [WEBHOOK_HEADER]: bff.config.webhookSecret },
    );
    expect(stranger).toMatchObject({ status: 200, body: { data: { outcome: 'ignored' } } });
  });

  it('keeps a second completed transaction of an order beside the first, as its duplicate', async () => {
    const bff = await bffBehind((await faultyProvider({ current: 'pass' })).url);
    const { orderId, orderToken } = await bff.order();
    const first = (await bff.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' })).body;
    await emulator.provider.sandbox.pix.complete(first.transactionId, { name: 'Maria Pagadora', taxNumber: '52998224725' });
    const late = await cashInAtProvider(bff, orderId);
    await emulator.provider.sandbox.pix.complete(late.transaction.id, { name: 'Maria Pagadora', taxNumber: '52998224725' });
    await vi.waitFor(async () =>
      expect(await bff.store.findCheckoutByTransaction(late.transaction.id)).toMatchObject({ state: 'Completed', duplicateOf: first.id }),
    );
    await vi.waitFor(async () => expect(await bff.store.getCheckout(first.id)).toMatchObject({ state: 'Completed', duplicateOf: null }));
    expect((await bff.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' })).body.id).toBe(first.id);
  });
});

describe('a transaction of our order that is not provably ours', () => {
  const reservedAt = () => new Date(Date.now() - 60_000).toISOString();
  const cashIn = (orderId: string, value: string, webhook: { url: string; customHeaderName?: string; customHeaderValue?: string }) =>
    emulator.provider.pix.createCashIn({ payment: { value: { original: value } }, transaction: { orderId }, webhook });

  it('is never adopted into a reservation (no secret echoed, or another amount), and is kept as foreign for the merchant', async () => {
    const adminToken = 'a'.repeat(40);
    const bff = await bffBehind((await faultyProvider({ current: 'pass' })).url, { ADMIN_TOKEN: adminToken });
    const ours = { url: bff.checkout.webhook.url, customHeaderName: WEBHOOK_HEADER, customHeaderValue: bff.config.webhookSecret };
    for (const orderId of ['NO-SECRET', 'CHEAPER']) {
      await bff.store.reserveCheckout({ id: `co_${orderId}`, orderId, method: 'pix', amountCents: 5_490, createdAt: reservedAt() });
    }
    const noSecret = await cashIn('NO-SECRET', '0.01', { url: bff.checkout.webhook.url });
    const cheaper = await cashIn('CHEAPER', '0.01', ours);
    await bff.checkout.reconciler.runOnce();
    // Neither shows a shopper a code that charges 0.01 for a 54.90 order: the reservations are released.
    expect(await bff.store.getCheckout('co_NO-SECRET')).toBeUndefined();
    expect(await bff.store.getCheckout('co_CHEAPER')).toBeUndefined();
    expect(await bff.store.findCheckoutByTransaction(noSecret.transaction.id)).toBeUndefined();
    const foreign = await bff.store.listForeignTransactions(10);
    expect(foreign.map(({ transactionId, reason, amount }) => ({ transactionId, reason, amount }))).toEqual(
      expect.arrayContaining([
        { transactionId: noSecret.transaction.id, reason: 'secret', amount: expect.stringMatching(/^0\.01/) },
        { transactionId: cheaper.transaction.id, reason: 'amount', amount: expect.stringMatching(/^0\.01/) },
      ]),
    ); // The merchant sees them in the back-office.
    const listed = await bff.json('GET', '/api/admin/foreign-transactions', undefined, { authorization: `Bearer ${adminToken}` });
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((t: { transactionId: string }) => t.transactionId).sort()).toEqual(
      [noSecret.transaction.id, cheaper.transaction.id].sort(),
    );
  });

  it('is not adopted from its webhook when its amount is not the order’s', async () => {
    const bff = await bffBehind((await faultyProvider({ current: 'pass' })).url);
    const { orderId } = await bff.order(5_490);
    const made = await cashIn(orderId, '0.01', {
      url: bff.checkout.webhook.url,
      customHeaderName: WEBHOOK_HEADER,
      customHeaderValue: bff.config.webhookSecret,
    });
    await emulator.provider.sandbox.pix.complete(made.transaction.id, { name: 'Maria Pagadora', taxNumber: '52998224725' });
    await vi.waitFor(async () =>
      expect((await bff.store.listForeignTransactions(10)).map((t) => t.transactionId)).toContain(made.transaction.id),
    );
    expect(await bff.store.findCheckoutsByOrder(orderId)).toEqual([]);
  });
});

describe('a create that reached the provider after its reservation was released', () => {
  it('takes the order when it is paid while the shown code still waits: the shown one expires, superseded', async () => {
    const bff = await bffBehind((await faultyProvider({ current: 'pass' })).url);
    const { orderId, orderToken } = await bff.order();
    const shown = (await bff.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' })).body;
    // The first attempt's create, released meanwhile, lands at the provider now; the payer pays that code.
    const late = await cashInAtProvider(bff, orderId);
    await emulator.provider.sandbox.pix.complete(late.transaction.id, { name: 'Maria Pagadora', taxNumber: '52998224725' });
    await vi.waitFor(async () =>
      expect(await bff.store.findCheckoutByTransaction(late.transaction.id)).toMatchObject({ state: 'Completed', duplicateOf: null }),
    );
    const paid = (await bff.store.findCheckoutByTransaction(late.transaction.id))!;
    expect(await bff.store.getCheckout(shown.id)).toMatchObject({ state: 'Expired' });
    expect((await bff.store.eventsAfter(shown.id, 0)).at(-1)).toMatchObject({ state: 'Expired', data: { supersededBy: paid.id } });
    // The order is paid: every tab is shown the receipt, nobody is asked to pay again.
    expect((await bff.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' })).body).toMatchObject({
      id: paid.id,
      state: 'Completed',
    });
  });
});

describe('a slow provider', () => {
  it('keeps the shopper waiting no longer than the create deadline, then answers the checkout the saga went on to make', async () => {
    const bff = await bffBehind((await faultyProvider({ current: 'slow-create' })).url, {}, { createDeadlineMs: 100 });
    const { orderId, orderToken } = await bff.order();
    // Without the deadline this create would wait out the provider and its look-up, and answer 201.
    const first = await bff.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    expect(first).toMatchObject({ status: 503, body: { error: { code: 'checkout_pending' } } });
    await vi.waitFor(async () => expect((await bff.store.findCheckoutsByOrder(orderId))[0]).toMatchObject({ state: 'Registered' }));
    const again = await bff.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    expect(again).toMatchObject({ status: 200, body: { orderId, state: 'Registered' } });
    expect(await atProvider(orderId)).toHaveLength(1);
  });
});
