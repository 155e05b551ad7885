import { afterEach, describe, expect, it } from 'vitest';
import { freePort, sendJson, startRecordingServer } from '../helpers/http';
import { openSse } from '../helpers/sse';
import { startTestBff, startTestServer, tempDir, type TestServer } from '../helpers/server';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});
async function start(...args: Parameters<typeof startTestServer>) {
  const server = await startTestServer(...args);
  open.push(server);
  return server;
}

async function pixCheckout(server: TestServer) {
  const { orderId, orderToken } = await server.order();
  const res = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
  expect(res.status).toBe(201);
  return { ...(res.body as { id: string; transactionId: string; orderId: string }), orderToken };
}

describe('recovery', () => {
  it('catches a lost webhook with the reconciliation loop and pushes it to the stream', async () => {
    // The provider's webhooks go to a receiver that accepts and drops them: a lost delivery.
    const blackHole = await startRecordingServer((_req, res) => sendJson(res, 200, {}));
    open.push(blackHole);
    const server = await start({ env: { PUBLIC_BASE_URL: blackHole.url }, start: { tuning: { staleAfterMs: 1 } } });
    const checkout = await pixCheckout(server);
    const sse = await openSse(`${server.url}/api/checkouts/${checkout.id}/events`);
    await sse.next();
    await sse.next();

    await server.provider.sandbox.pix.complete(checkout.transactionId, { name: 'Maria', taxNumber: '52998224725' });
    expect(blackHole.requests.some((r) => r.url === '/api/webhooks/provider')).toBe(true);
    expect((await server.json('GET', `/api/checkouts/${checkout.id}`)).body.state).toBe('Registered');

    expect(await server.checkout.reconciler.runOnce()).toBe(1);
    const event = await sse.next();
    expect(JSON.parse(event!.data)).toMatchObject({ state: 'Completed' });
    expect((await server.store.eventsAfter(checkout.id, 0)).map((e) => e.source)).toEqual(['create', 'reconcile']);
    expect(await server.checkout.reconciler.runOnce()).toBe(0);
  });

  it('resumes checkouts, events and streams after a restart with the same data directory', async () => {
    const dataDir = tempDir();
    const env = { PORT: String(await freePort()) };
    const first = await start({ dataDir, env });
    const checkout = await pixCheckout(first);
    await first.close();
    open.pop();
    // Let the HTTP client notice its pooled keep-alive sockets to the old process are gone.
    await new Promise((resolve) => setTimeout(resolve, 100));

    const second = await start({ dataDir, env });
    const snapshot = await second.json('GET', `/api/checkouts/${checkout.id}`);
    expect(snapshot.body).toMatchObject({ id: checkout.id, state: 'Registered', transactionId: checkout.transactionId });
    // The order token the first process's shop signed still opens the order: the key is kept in the data directory.
    const again = await second.json('POST', '/api/checkouts', {
      orderId: checkout.orderId,
      orderToken: checkout.orderToken,
      method: 'pix',
    });
    expect(again).toMatchObject({ status: 200, body: { id: checkout.id } });

    const sse = await openSse(`${second.url}/api/checkouts/${checkout.id}/events`, { 'last-event-id': '1' });
    await sse.next();
    await second.provider.sandbox.pix.complete(checkout.transactionId, { name: 'Maria', taxNumber: '52998224725' });
    expect(JSON.parse((await sse.next())!.data)).toMatchObject({ state: 'Completed' });
  });
});

describe('provider failures', () => {
  async function withFlakyProvider(mode: { current: 'error' | 'hang' | 'ok' }) {
    const provider = await startRecordingServer((req, res) => {
      if (req.url.endsWith('/login')) return void res.writeHead(201).end('token-abc');
      if (mode.current === 'hang') return;
      if (mode.current === 'error') return sendJson(res, 500, { statusCode: 'Error', error: { name: 'InternalError', message: 'boom' } });
      // The order-id listing the BFF asks before answering a failed create: nothing was made.
      if (req.method === 'GET' && req.url.includes('/accounts/transactions/pix?')) {
        return sendJson(res, 200, { statusCode: 'Done', data: { limit: 20, offset: 0, total: 0, items: [] } });
      }
      sendJson(res, 201, {
        statusCode: 'Done',
        data: {
          transaction: { id: 'tx-1', orderId: 'x', date: '2026-01-01T00:00:00.000Z', state: 'Registered', amount: '79.800000' },
          payment: { qrCode: '000201', qrCodeLocation: 'http://qr.example/1' },
        },
      });
    });
    open.push(provider);
    const server = await startTestBff({
      env: { PROVIDER_BASE_URL: `${provider.url}/v1`, PROVIDER_ACCESS_KEY: 'key', PROVIDER_SECRET: 'secret' },
      start: { tuning: { providerTimeoutMs: 300, settleAfterMs: 200 } },
    });
    open.push(server);
    return { server, provider };
  }

  const cashIns = (provider: { requests: Array<{ url: string }> }) => provider.requests.filter((r) => r.url.endsWith('/cashin')).length;

  it('turns a provider 5xx into 502 provider_unavailable, and creates again only once the provider says it made nothing', async () => {
    const mode = { current: 'error' as 'error' | 'hang' | 'ok' };
    const { server, provider } = await withFlakyProvider(mode);
    const { orderId, orderToken } = await server.order();
    const res = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    expect(res).toMatchObject({ status: 502, body: { statusCode: 'Error', error: { code: 'provider_unavailable' } } });
    // A 5xx may come after the provider acted, and it could not be asked: the order stays reserved.
    expect((await server.store.findCheckoutsByOrder(orderId)).map((c) => c.state)).toEqual(['Creating']);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' })).toMatchObject({
      status: 503,
      body: { error: { code: 'checkout_pending' } },
    });
    expect(cashIns(provider)).toBe(1);

    mode.current = 'ok';
    expect((await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' })).status).toBe(201);
    expect(cashIns(provider)).toBe(2);
  });

  it('turns a provider timeout into 504 provider_timeout and keeps the order reserved while the provider cannot be asked', async () => {
    const { server, provider } = await withFlakyProvider({ current: 'hang' });
    const { orderId, orderToken } = await server.order();
    const res = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    expect(res).toMatchObject({ status: 504, body: { error: { code: 'provider_timeout' } } });
    expect((await server.store.findCheckoutsByOrder(orderId)).map((c) => c.state)).toEqual(['Creating']);
    expect(cashIns(provider)).toBe(1);
  });

  it('turns a refused CPF into 422 payer_refused', async () => {
    const server = await start();
    const { orderId, orderToken } = await server.order();
    const { MAGIC_CPFS } = await import('../../../server/sandbox/defaults');
    const res = await server.json('POST', '/api/checkouts', {
      orderId,
      orderToken,
      method: 'pix',
      payer: { cpf: MAGIC_CPFS.serviceError[0] },
    });
    expect(res).toMatchObject({ status: 422, body: { error: { code: 'payer_refused' } } });
    expect(await server.store.findCheckoutsByOrder(orderId)).toEqual([]);
  });
});

describe('secrets', () => {
  it('never sends a credential, token or the webhook secret to the browser', async () => {
    const server = await start({ env: { PROVIDER_ACCESS_KEY: 'my-access-key-123', PROVIDER_SECRET: 'my-secret-456' } });
    const token = await server.provider.login();
    const secrets = [
      'my-access-key-123',
      'my-secret-456',
      token,
      server.config.webhookSecret,
      server.config.adminToken,
      server.orderTokenKey,
    ];
    const seen: string[] = [];
    const capture = (res: { text: string; headers: Headers }) => seen.push(res.text, JSON.stringify([...res.headers]));

    const { orderId, orderToken } = await server.order();
    const pix = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix', payer: { cpf: '52998224725' } });
    capture(pix);
    capture(await server.json('GET', `/api/checkouts/${pix.body.id}`));
    const of = await server.order();
    const ofBody = { orderId: of.orderId, orderToken: of.orderToken, method: 'openfinance', payer: { cpf: '52998224725' } };
    capture(await server.json('POST', '/api/checkouts', ofBody));
    capture(await server.json('POST', '/api/checkouts', { orderId: 'nope', orderToken: server.orderTokenFor('nope'), method: 'pix' }));
    capture(await server.json('POST', '/api/checkouts', { orderId, orderToken: 'forged', method: 'pix' }));
    capture(await server.json('POST', '/api/checkouts', '{bad'));
    capture(await server.json('POST', '/api/webhooks/provider', {}, {}));
    await server.provider.sandbox.pix.complete(pix.body.transactionId, { name: 'M', taxNumber: '52998224725' });
    capture(await server.json('GET', '/demo/api/webhooks'));
    capture(await server.json('GET', `/demo/api/orders/${orderId}`));
    const sse = await openSse(`${server.url}/api/checkouts/${pix.body.id}/events`);
    const events = [await sse.next(), await sse.next()];
    seen.push(JSON.stringify(events), JSON.stringify([...sse.headers]));

    const everything = seen.join('\n');
    expect(everything).toContain(pix.body.transactionId);
    for (const secret of secrets) expect(everything).not.toContain(secret);
  });
});
