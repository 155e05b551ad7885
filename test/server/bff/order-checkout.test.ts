/**
 * `GET /api/orders/:orderId/checkout`: any tab of the shopper, holding the order token in `X-Order-Token`, gets the
 * order's live or completed checkout (the one in the order's place, never a duplicate), or 204 No Content
 * when there is none to resume. `POST` with `{ orderToken }` is the same lookup, the token in the body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../server/lib/clock';
import { startTestServer, type TestServer } from '../helpers/server';

const MINUTE = 60_000;
const payer = { name: 'Maria Silva', taxNumber: '52998224725' };

let clock: ManualClock;
let server: TestServer;
beforeAll(async () => {
  clock = new ManualClock(new Date());
  server = await startTestServer({ start: { clock } });
});
afterAll(() => server?.close());

const orderCheckout = (orderId: string, token?: string, headers: Record<string, string> = {}) =>
  server.json('GET', `/api/orders/${encodeURIComponent(orderId)}/checkout`, undefined, {
    ...(token === undefined ? {} : { 'X-Order-Token': token }),
    ...headers,
  });

async function started(method: 'pix' | 'openfinance' = 'pix') {
  const { orderId, orderToken } = await server.order();
  const body = method === 'pix' ? { orderId, orderToken, method } : { orderId, orderToken, method, payer: { cpf: payer.taxNumber } };
  const res = await server.json('POST', '/api/checkouts', body);
  expect(res.status).toBe(201);
  return { orderId, orderToken, checkout: res.body as { id: string; transactionId: string; state: string } };
}

const settles = (id: string, state: string) =>
  expect.poll(async () => (await server.store.getCheckout(id))!.state, { timeout: 5_000 }).toBe(state);

describe('GET /api/orders/:orderId/checkout', () => {
  it('answers the live checkout of the order, as POST /api/checkouts answered it', async () => {
    const { orderId, orderToken, checkout } = await started();
    const res = await orderCheckout(orderId, orderToken);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(checkout);
    expect(res.body.expiresAt).toBeTruthy();

    const bank = await started('openfinance');
    expect((await orderCheckout(bank.orderId, bank.orderToken)).body).toEqual(bank.checkout);
  });

  it('answers the completed checkout with its receipt', async () => {
    const { orderId, orderToken, checkout } = await started();
    await server.provider.sandbox.pix.complete(checkout.transactionId, payer);
    await settles(checkout.id, 'Completed');
    const res = await orderCheckout(orderId, orderToken);
    expect(res).toMatchObject({ status: 200, body: { id: checkout.id, state: 'Completed', payerBank: 'Banco Sandbox' } });
    expect(res.body.paidAt).toBeTruthy();
  });

  it("needs the order token: none is 401, another order's or a forged one 403, an old one 403 expired", async () => {
    const { orderId, checkout } = await started();
    const other = await server.order();
    expect(await orderCheckout(orderId)).toMatchObject({ status: 401, body: { error: { code: 'order_token_required' } } });
    expect(await orderCheckout(orderId, '')).toMatchObject({ status: 401, body: { error: { code: 'order_token_required' } } });
    for (const token of [other.orderToken, 'nonsense', `${other.orderToken.slice(0, -1)}A`, server.orderTokenFor(`${orderId}x`)]) {
      expect(await orderCheckout(orderId, token), token).toMatchObject({ status: 403, body: { error: { code: 'order_token_invalid' } } });
    }
    const old = server.orderTokenFor(orderId, new Date(clock.now().getTime() - 1_000));
    expect(await orderCheckout(orderId, old)).toMatchObject({ status: 403, body: { error: { code: 'order_token_expired' } } });
    // The token is not taken from a query string, which logs and Referer headers carry.
    const inQuery = await server.json('GET', `/api/orders/${orderId}/checkout?orderToken=${encodeURIComponent(other.orderToken)}`);
    expect(inQuery.status).toBe(401);
    expect(JSON.stringify([inQuery.body])).not.toContain(checkout.id);
  });

  it('refuses an unknown order with a wrong token as 403, so nobody learns whether an order exists', async () => {
    const { orderToken } = await server.order();
    expect((await orderCheckout('NO-SUCH-ORDER', orderToken)).status).toBe(403);
  });

  it('is 404 order_not_found for an order the shop does not know, with its token: the element says so before the methods', async () => {
    expect(await orderCheckout('NO-SUCH-ORDER', server.orderTokenFor('NO-SUCH-ORDER'))).toMatchObject({
      status: 404,
      body: { error: { code: 'order_not_found' } },
    });
  });

  it('is 204 No Content for an order never started', async () => {
    const { orderId, orderToken } = await server.order();
    expect(await orderCheckout(orderId, orderToken)).toMatchObject({ status: 204, text: '' });
  });

  it.each(['error', 'cancel'] as const)(
    'is 204 once the last checkout failed (%s): the element offers the methods again',
    async (operation) => {
      const { orderId, orderToken, checkout } = await started();
      await server.provider.sandbox.pix[operation](checkout.transactionId);
      await settles(checkout.id, operation === 'error' ? 'Error' : 'Cancelled');
      expect(await orderCheckout(orderId, orderToken)).toMatchObject({ status: 204, text: '' });
    },
  );

  it('is 204 once the last checkout expired, and expires one past its window itself', async () => {
    const { orderId, orderToken, checkout } = await started();
    clock.advance(31 * MINUTE);
    expect(await orderCheckout(orderId, orderToken)).toMatchObject({ status: 204, text: '' });
    expect((await server.store.getCheckout(checkout.id))!.state).toBe('Expired');
    expect((await server.store.eventsAfter(checkout.id, 0)).at(-1)).toMatchObject({ state: 'Expired', source: 'read' });

    // The new code is what the order answers from then on.
    const next = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    expect(next.status).toBe(201);
    expect((await orderCheckout(orderId, orderToken)).body).toMatchObject({ id: next.body.id, state: 'Registered' });
  });

  it('answers the expired code paid late, not the newer code it replaced, so no device offers that one', async () => {
    const { orderId, orderToken, checkout } = await started();
    clock.advance(31 * MINUTE);
    await server.checkout.reconciler.runOnce();
    const next = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    expect((await orderCheckout(orderId, orderToken)).body).toMatchObject({ id: next.body.id, state: 'Registered' });
    await server.provider.sandbox.pix.complete(checkout.transactionId, payer);
    await settles(checkout.id, 'Completed');
    expect((await orderCheckout(orderId, orderToken)).body).toMatchObject({ id: checkout.id, state: 'Completed' });
    expect(await server.store.getCheckout(next.body.id)).toMatchObject({ state: 'Expired' });
  });

  it("answers the checkout in the order's place, not an expired code paid after it", async () => {
    const { orderId, orderToken, checkout } = await started();
    clock.advance(31 * MINUTE);
    await server.checkout.reconciler.runOnce();
    const next = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    await server.provider.sandbox.pix.complete(next.body.transactionId, payer);
    await settles(next.body.id, 'Completed');
    await server.provider.sandbox.pix.complete(checkout.transactionId, payer);
    await settles(checkout.id, 'Completed');
    expect((await server.store.getCheckout(checkout.id))!.duplicateOf).toBe(next.body.id);
    expect((await orderCheckout(orderId, orderToken)).body).toMatchObject({ id: next.body.id, state: 'Completed' });
  });

  it('treats a checkout still being created as not found', async () => {
    const { orderId, orderToken } = await server.order();
    await server.store.reserveCheckout({
      id: `co_creating_${orderId}`,
      orderId,
      method: 'pix',
      amountCents: 7_980,
      createdAt: clock.now().toISOString(),
    });
    expect(await orderCheckout(orderId, orderToken)).toMatchObject({ status: 204, text: '' });
  });

  describe('CORS', () => {
    it('lets an allowed storefront send X-Order-Token, and no other origin', async () => {
      const { orderId, orderToken, checkout } = await started();
      const origin = new URL(server.url).origin;
      const preflight = await fetch(`${server.url}/api/orders/${orderId}/checkout`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-order-token' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
      expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-order-token');
      expect(preflight.headers.get('access-control-allow-methods')).toContain('GET');

      const res = await orderCheckout(orderId, orderToken, { origin });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      // The element's countdown reads the server's clock from Date, which a cross-origin page sees only when exposed.
      expect(res.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('date');
      expect(res.headers.get('date')).toBeTruthy();
      expect(res.body.id).toBe(checkout.id);

      const foreign = await orderCheckout(orderId, orderToken, { origin: 'https://evil.example' });
      expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
      const foreignPreflight = await fetch(`${server.url}/api/orders/${orderId}/checkout`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://evil.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'x-order-token',
        },
      });
      expect(foreignPreflight.headers.get('access-control-allow-origin')).toBeNull();
    });
  });
});

describe('POST /api/orders/:orderId/checkout (the token in the body, what the element sends)', () => {
  const lookUp = (orderId: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/api/orders/${encodeURIComponent(orderId)}/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('answers as the GET does: the live checkout, 204 for none, the same token codes', async () => {
    const { orderId, orderToken, checkout } = await started();
    const res = await lookUp(orderId, { orderToken });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(checkout);
    const fresh = await server.order();
    expect((await lookUp(fresh.orderId, { orderToken: fresh.orderToken })).status).toBe(204);
    const none = await lookUp(orderId, {});
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ error: { code: 'order_token_required' } });
    const other = await lookUp(orderId, { orderToken: fresh.orderToken });
    expect(other.status).toBe(403);
    expect(await other.json()).toMatchObject({ error: { code: 'order_token_invalid' } });
    const broken = await lookUp(orderId, '{"orderToken":');
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ error: { code: 'invalid_json' } });
  });

  it('reads a text/plain body only from an allowed storefront origin, and answers it with CORS', async () => {
    const { orderId, orderToken, checkout } = await started();
    const body = JSON.stringify({ orderToken });
    const origin = new URL(server.url).origin;
    const fromShop = await lookUp(orderId, body, { 'content-type': 'text/plain;charset=UTF-8', origin });
    expect(fromShop.status).toBe(200);
    expect(fromShop.headers.get('access-control-allow-origin')).toBe(origin);
    expect(((await fromShop.json()) as { id: string }).id).toBe(checkout.id);
    for (const headers of [{}, { origin: 'null' }, { origin: 'https://evil.example' }] as Record<string, string>[]) {
      const res = await lookUp(orderId, body, { 'content-type': 'text/plain;charset=UTF-8', ...headers });
      expect(res.status).toBe(415);
      expect(JSON.stringify(await res.json())).not.toContain(checkout.id);
    }
  });
});
