/**
 * A browser's request from a page on an origin that ALLOWED_ORIGINS does not name gets `403 origin_not_allowed`, with
 * `Access-Control-Allow-Origin: *` so that page can read it (the element then says the page is not allowed instead of
 * blaming the network), before any route runs. The storefront, the BFF's own pages, servers and preflights are
 * answered as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';

const SHOP = 'https://shop.example';
const OTHER = 'https://other-shop.example';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { ALLOWED_ORIGINS: SHOP } });
});
afterAll(() => server?.close());

/** What a browser sends with a cross-origin fetch from a page on `origin`. */
const fromPage = (origin: string, site = 'cross-site') => ({ origin, 'sec-fetch-site': site, 'sec-fetch-mode': 'cors' });

async function createFrom(headers: Record<string, string>) {
  const { orderId, orderToken } = await server.order();
  return fetch(`${server.url}/api/checkouts`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', ...headers },
    body: JSON.stringify({ orderId, orderToken, method: 'pix' }),
  });
}

describe('a page on an origin ALLOWED_ORIGINS does not name', () => {
  it('reads 403 origin_not_allowed on each route of the element, and no route runs for it', async () => {
    const { orderId, orderToken } = await server.order();
    const created = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    const requests: [string, string, string | undefined][] = [
      ['POST', '/api/checkouts', JSON.stringify({ orderId, orderToken, method: 'pix' })],
      ['GET', `/api/checkouts/${id}`, undefined],
      ['GET', `/api/checkouts/${id}/events`, undefined],
      ['POST', `/api/orders/${orderId}/checkout`, JSON.stringify({ orderToken })],
      ['GET', `/api/orders/${orderId}/checkout`, undefined],
    ];
    for (const site of ['cross-site', 'same-site']) {
      for (const [method, path, body] of requests) {
        const answer = await fetch(`${server.url}${path}`, {
          method,
          headers: { ...fromPage(OTHER, site), 'x-order-token': orderToken, ...(body ? { 'content-type': 'text/plain' } : {}) },
          body,
        });
        expect(answer.status, `${method} ${path}`).toBe(403);
        expect(answer.headers.get('access-control-allow-origin')).toBe('*');
        expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
        expect(answer.headers.get('cache-control')).toBe('no-store');
        const text = await answer.text();
        expect(JSON.parse(text)).toMatchObject({ statusCode: 'Error', error: { code: 'origin_not_allowed' } });
        // The refusal alone: nothing of the checkout or the order.
        expect(text).not.toContain(id);
        expect(text).not.toContain(orderId);
      }
    }
    // The order still has its one checkout: the refused create made nothing.
    const again = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    expect(again.status).toBe(200);
    expect((again.body as { id: string }).id).toBe(id);
  });

  it('an opaque origin (a sandboxed frame, a file) is refused alike', async () => {
    const answer = await createFrom(fromPage('null'));
    expect(answer.status).toBe(403);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('origin_not_allowed');
  });
});

describe('everyone else meets the routes as before', () => {
  it('the storefront creates across origins with its own origin in CORS', async () => {
    const answer = await createFrom(fromPage(SHOP));
    expect(answer.status).toBe(201);
    expect(answer.headers.get('access-control-allow-origin')).toBe(SHOP);
  });

  it("the BFF's own pages, and servers or tools that send no Sec-Fetch-Site, are not refused for their origin", async () => {
    const own = new URL(server.url).origin;
    const ownPage = await server.json(
      'POST',
      '/api/checkouts',
      { orderId: (await server.order()).orderId, method: 'pix' },
      fromPage(own, 'same-origin'),
    );
    expect(ownPage.body.error?.code).not.toBe('origin_not_allowed');
    // A script naming another origin without the browser's marks: the text/plain body is refused as before (415).
    const script = await createFrom({ origin: OTHER });
    expect(script.status).toBe(415);
    expect(script.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a preflight from another origin is left to CORS: no 403, and no permission for that origin', async () => {
    const answer = await fetch(`${server.url}/api/checkouts`, {
      method: 'OPTIONS',
      headers: { ...fromPage(OTHER), 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(answer.status).not.toBe(403);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
  });
});
