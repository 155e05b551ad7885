/**
 * The payment link's page, `/pay/<orderId>` (server/pay-page.ts): HTML under its own strict policy, which allows no
 * inline script or style but the page's own, by their hashes; the element by its hashed name with the SRI hash of the
 * build's manifest; the page's own script written after the element's slot; a 404 page for an order id of the wrong
 * shape, GET and HEAD only; the shop's name told only with the order's token; the order source's `shopName`.
 */
import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { securityHeaders } from '../../server/http/security-headers';
import { signOrderToken } from '../../server/bff/order-token';
import type { Clock } from '../../server/lib/clock';
import { PAY_PAGE_CSP, payPage } from '../../server/pay-page';
import { httpOrders, type OrderResolver, type PricedOrder } from '../../server/payments/orders';
import { startTestServer, tempDir, type TestServer } from './helpers/server';

const KEY = 'the-orders-token-of-this-test';
const NOW = new Date('2026-11-26T12:00:00Z');
const clock: Clock = { now: () => NOW };
const MANIFEST = { file: 'pix-checkout.0123456789abcdef.js', integrity: 'sha384-AAAABBBBCCCC' };
/** The demo's policy: the page must keep its own, stricter one. */
const SITE_CSP = "default-src 'self'; script-src 'self' 'unsafe-inline'";

let dir: string;
let resolve: ReturnType<typeof vi.fn<OrderResolver['resolve']>>;
let app: Hono;
beforeEach(() => {
  dir = join(tempDir(), 'widget');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'integrity.json'), JSON.stringify(MANIFEST));
  resolve = vi.fn<OrderResolver['resolve']>(async () => ({ amountCents: 1050, description: 'Pedido 1', shopName: 'Armazém Cerrado' }));
  app = new Hono();
  app.use(securityHeaders({ pageCsp: SITE_CSP }));
  app.route('/pay', payPage({ widgetDir: dir, orders: { resolve }, orderTokenSecret: KEY, clock: clock }));
  app.notFound((c) => c.json({ error: 'not found' }, 404));
});

/** The sources of one directive of a policy. */
const directive = (csp: string, name: string) =>
  csp
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([first]) => first === name)
    ?.slice(1);
/** The policy's source expression for an inline text. */
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

const tokenFor = (orderId: string, key = KEY) => signOrderToken(key, orderId, new Date(NOW.getTime() + 86_400_000));

describe('the page', () => {
  it('is HTML under its own strict policy, which allows no inline script or style but its own, by their hashes', async () => {
    const response = await app.request('/pay/order-1001');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toBe(PAY_PAGE_CSP);
    expect(csp).not.toContain('unsafe');
    const html = await response.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map(([, attributes]) => attributes)).toEqual([expect.stringMatching(/\bsrc="\/widget\//), '']);
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)];
    expect(styles).toHaveLength(1);
    // Exactly those two texts, by their hashes, besides this origin's files.
    expect(directive(csp, 'script-src')).toEqual(["'self'", sha256(scripts[1]![2]!)]);
    expect(directive(csp, 'style-src')).toEqual(["'self'", sha256(styles[0]![1]!)]);
    // No handler or style attribute, which no hash could allow anyway.
    expect(html).not.toMatch(/\sstyle=|\son[a-z]+=/i);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(html).toContain('<title>Pagamento</title>');
  });

  it('loads the built element by its hashed name with its SRI hash, and has the page script that adds it', async () => {
    const html = await (await app.request('/pay/order-1001')).text();
    expect(html).toContain(
      `<script type="module" src="/widget/${MANIFEST.file}" integrity="${MANIFEST.integrity}" crossorigin="anonymous">`,
    );
    expect(html).toContain('data-order-id="order-1001"');
    // The fallback, shown until the element starts.
    expect(html).toContain('class="pay-fallback"');
    // The page is the same for an order that does not exist: nothing is asked without the token.
    expect(resolve).not.toHaveBeenCalled();
  });

  it('follows a new build of the element', async () => {
    writeFileSync(join(dir, 'integrity.json'), JSON.stringify({ file: 'pix-checkout.fedcba9876543210.js', integrity: 'sha384-ZZZZ' }));
    const html = await (await app.request('/pay/order-1001')).text();
    expect(html).toContain('src="/widget/pix-checkout.fedcba9876543210.js" integrity="sha384-ZZZZ"');
  });

  it.each([
    ['a space', '/pay/a%20b'],
    ['markup', '/pay/%3Cscript%3Ealert(1)%3C%2Fscript%3E'],
    ['a quote', '/pay/a%22b'],
    ['65 characters', `/pay/${'x'.repeat(65)}`],
    ["the assets' folder", '/pay/_'],
    ['an unknown asset', '/pay/_/other.js'],
  ])('is a 404 page for an order id with %s', async (_name, path) => {
    const response = await app.request(path);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-security-policy')).toBe(PAY_PAGE_CSP);
    const html = await response.text();
    expect(html).toContain('Link de pagamento inválido');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('alert(1)');
  });

  it('answers GET and HEAD only', async () => {
    expect((await app.request('/pay/order-1001', { method: 'HEAD' })).status).toBe(200);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const response = await app.request('/pay/order-1001', { method, body: '{}' });
      expect(response.status, method).toBe(404);
      expect(response.headers.get('content-type')).not.toMatch(/html/);
    }
    expect((await app.request('/pay/_/pay.js', { method: 'POST' })).status).toBe(404);
  });

  it('is a 503 page saying so while the element is not built', async () => {
    rmSync(join(dir, 'integrity.json'));
    const warn = vi.fn();
    const bare = new Hono().route('/pay', payPage({ widgetDir: dir, orders: { resolve }, orderTokenSecret: KEY, clock: clock, warn }));
    const response = await bare.request('/pay/order-1001');
    expect(response.status).toBe(503);
    expect(await response.text()).toContain('indisponível');
    await bare.request('/pay/order-1001');
    expect(warn).toHaveBeenCalledTimes(1);
  });
});

describe("the page's own script", () => {
  it('is a classic script after the slot, so it runs while the page is parsed, before the element and with no stylesheet to wait for', async () => {
    const html = await (await app.request('/pay/order-1001')).text();
    const inline = /<script>([\s\S]*?)<\/script>/.exec(html)!;
    expect(inline.index).toBeGreaterThan(html.indexOf('id="pay-slot"'));
    expect(html).not.toMatch(/<link\b[^>]*rel="stylesheet"/);
    // The token is read from the fragment and wiped from the address; the element's first request leaves at once.
    expect(inline[1]).toContain("location.hash.slice(1)).get('t')");
    expect(inline[1]).toContain('history.replaceState');
    expect(inline[1]).toContain('element.orderLookup = lookUp(orderId, token)');
  });

  it('is in the page only: the names of the former files are the 404 page', async () => {
    for (const name of ['pay.js', 'pay.css']) {
      const response = await app.request(`/pay/_/${name}`);
      expect(response.status, name).toBe(404);
      expect(await response.text(), name).toContain('Link de pagamento inválido');
    }
  });
});

describe('compression', () => {
  it('sends the page (its script and stylesheet inside) brotli- or gzip-compressed as the browser accepts, the same text', async () => {
    for (const path of ['/pay/order-1001']) {
      const plain = Buffer.from(await (await app.request(path)).arrayBuffer());
      const br = await app.request(path, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.headers.get('content-encoding'), path).toBe('br');
      expect(br.headers.get('vary'), path).toBe('Accept-Encoding');
      const brBody = Buffer.from(await br.arrayBuffer());
      expect(brotliDecompressSync(brBody), path).toEqual(plain);
      expect(brBody.length, path).toBeLessThan(plain.length);
      const gzip = await app.request(path, { headers: { 'accept-encoding': 'gzip' } });
      expect(gzip.headers.get('content-encoding'), path).toBe('gzip');
      expect(gunzipSync(Buffer.from(await gzip.arrayBuffer())), path).toEqual(plain);
    }
  });
});

describe("the shop's name", () => {
  const shop = (orderId: string, token?: string) =>
    app.request(`/pay/_/shop/${orderId}`, { headers: token === undefined ? {} : { 'x-order-token': token } });

  it("is the order source's shopName, with the order's token", async () => {
    const response = await shop('order-1001', tokenFor('order-1001'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ shopName: 'Armazém Cerrado' });
    expect(resolve).toHaveBeenCalledWith('order-1001');
  });

  it.each([
    ['no token', undefined],
    ["another order's token", tokenFor('order-2002')],
    ['a token of another key', tokenFor('order-1001', 'another-key-of-16-chars')],
    ['garbage', 'not-a-token'],
  ])('is nothing, and the order source is not asked, with %s', async (_name, token) => {
    const response = await shop('order-1001', token);
    expect(response.status).toBe(204);
    expect(resolve).not.toHaveBeenCalled();
  });

  it('is nothing when the order source gives none, has no such order, or fails', async () => {
    const token = tokenFor('order-1001');
    const answers: (() => Promise<PricedOrder | undefined>)[] = [
      async () => ({ amountCents: 1050, description: 'Pedido 1' }),
      async () => undefined,
      async () => Promise.reject(new Error('down')),
    ];
    for (const answer of answers) {
      resolve.mockImplementationOnce(answer);
      expect((await shop('order-1001', token)).status).toBe(204);
    }
  });
});

describe("the order source's shopName", () => {
  const source = (body: unknown) =>
    httpOrders({ url: 'https://shop.example/orders', token: KEY, fetch: async () => Response.json(body) }).resolve('order-1001');

  it('is read when it is a short text, and ignored otherwise', async () => {
    expect(await source({ amountCents: 100, description: 'Pedido', shopName: ' Armazém ' })).toMatchObject({ shopName: 'Armazém' });
    for (const shopName of [42, '', 'x'.repeat(81)]) {
      const order = await source({ amountCents: 100, description: 'Pedido', shopName });
      expect(order).toMatchObject({ amountCents: 100, description: 'Pedido' });
      expect(order?.shopName).toBeUndefined();
    }
  });
});

describe('in the product (the demo process)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  }, 30_000);
  afterAll(() => server?.close());

  it("serves the page at /pay/<orderId> under its own policy, not the site's", async () => {
    const { orderId } = await server.order();
    const response = await fetch(`${server.url}/pay/${orderId}`);
    // Without a build the page says the payment is unavailable; either way it is the payment link's page.
    expect([200, 503]).toContain(response.status);
    expect(response.headers.get('content-security-policy')).toBe(PAY_PAGE_CSP);
    expect(await response.text()).toContain('<title>Pagamento</title>');
    expect((await fetch(`${server.url}/pay/${orderId}`, { method: 'POST' })).status).toBe(404);
  });

  it("tells the demo shop's name with the order's token, as the order source gives it", async () => {
    const { orderId, orderToken } = await server.order();
    const named = await fetch(`${server.url}/pay/_/shop/${orderId}`, { headers: { 'x-order-token': orderToken } });
    expect(await named.json()).toEqual({ shopName: 'Armazém Cerrado' });
    expect((await fetch(`${server.url}/pay/_/shop/${orderId}`)).status).toBe(204);
  });
});
