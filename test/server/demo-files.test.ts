/**
 * The demo's files (demo/static-files.ts) and its checkout page (demo/checkout-page.ts): text compressed as the
 * browser accepts and identical once decompressed, an ETag and a 304, revalidated at each use, a changed file served
 * anew, nothing outside the folder; the checkout page written with its order: the summary and <pix-checkout> in the
 * page, the inline script at the top of its head, the stylesheets written in, the element's script by its hashed
 * name with its integrity, and a policy that allows exactly those inline texts by their hashes.
 */
import { Hono } from 'hono';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import { checkoutPage, INLINE_SCRIPT_MARK, ORDER_MARK } from '../../demo/checkout-page';
import { demoPagePolicy } from '../../demo/page-policy';
import { staticFiles } from '../../demo/static-files';
import type { DemoOrder } from '../../demo/store';
import { tempDir } from './helpers/server';

const CSS = `body { color: #222; }\n${'.line { margin: 0; }\n'.repeat(40)}`;
const PAGE = `<!doctype html>
<html>
  <head>
    <title>Pagamento</title>
    ${INLINE_SCRIPT_MARK}
    <link rel="stylesheet" href="base.css" />
    <script type="module" src="/widget/pix-checkout.js"></script>
  </head>
  <body>
    <main>${ORDER_MARK}</main>
  </body>
</html>
`;
const INLINE = '(function(){fetch("/api/orders/A-1/checkout",{method:"POST"})})();';
const WIDGET = { file: 'pix-checkout.0123456789abcdef.js', integrity: 'sha384-abc' };
/** The shop's orders, as the page reads them. */
const ORDERS: Record<string, DemoOrder> = {
  'A-1': {
    orderId: 'A-1',
    amountCents: 7_980,
    description: '2× Café',
    items: [{ sku: 'cafe', name: 'Café <especial> & "torrado"', quantity: 2, unitPrice: '39.90' }],
    createdAt: '2026-01-01T00:00:00.000Z',
  },
};

let root: string;
let publicDir: string;
let assetsDir: string;
let app: Hono;
beforeEach(() => {
  root = tempDir();
  publicDir = join(root, 'public');
  assetsDir = join(root, 'dist', 'assets');
  mkdirSync(join(publicDir, 'products'), { recursive: true });
  mkdirSync(assetsDir, { recursive: true });
  writeFileSync(join(root, 'secret.txt'), 'not for the web');
  writeFileSync(join(publicDir, 'index.html'), '<!doctype html><title>Loja</title>');
  writeFileSync(join(publicDir, 'base.css'), CSS);
  writeFileSync(join(publicDir, 'favicon.ico'), Buffer.from([0, 0, 1, 0, 1, 0, 16, 16]));
  writeFileSync(join(publicDir, 'checkout.html'), PAGE);
  writeFileSync(join(assetsDir, 'checkout-inline.js'), `${INLINE}\n`);
  mkdirSync(join(root, 'widget'));
  writeFileSync(join(root, 'widget', 'integrity.json'), JSON.stringify(WIDGET));
  const demo = { getOrder: (id: string) => ORDERS[id], orderStatus: () => 'awaiting_payment' as const };
  app = new Hono();
  app.on(['GET', 'HEAD'], '/checkout.html', checkoutPage({ publicDir, assetsDir, widgetDir: join(root, 'widget'), demo }));
  app.on(['GET', 'HEAD'], '/*', staticFiles({ root: publicDir }));
  app.notFound((c) => c.json({ error: 'not found' }, 404));
});

const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers });
const bytes = async (response: Response) => Buffer.from(await response.arrayBuffer());

describe("the demo's files", () => {
  it('go out brotli- or gzip-compressed as the browser accepts, the same bytes once decompressed', async () => {
    const plain = await get('/base.css');
    expect(plain.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect((await bytes(plain)).toString()).toBe(CSS);
    const br = await get('/base.css', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    const brBody = await bytes(br);
    expect(brBody.length).toBeLessThan(CSS.length);
    expect(brotliDecompressSync(brBody).toString()).toBe(CSS);
    const gzip = await get('/base.css', { 'accept-encoding': 'gzip' });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(await bytes(gzip)).toString()).toBe(CSS);
  });

  it('leave a binary file as it is', async () => {
    const icon = await get('/favicon.ico', { 'accept-encoding': 'br, gzip' });
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-encoding')).toBeNull();
    expect(await bytes(icon)).toEqual(Buffer.from([0, 0, 1, 0, 1, 0, 16, 16]));
  });

  it('are revalidated at each use, and a browser that has one gets a 304 with no body', async () => {
    const first = await get('/base.css', { 'accept-encoding': 'br' });
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const again = await get('/base.css', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect((await bytes(again)).length).toBe(0);
    // Another encoding is another representation: its own tag.
    const gzip = await get('/base.css', { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(gzip.status).toBe(200);
    expect(gzip.headers.get('etag')).not.toBe(etag);
  });

  it('are served anew once changed on disk', async () => {
    const before = await (await get('/base.css')).text();
    writeFileSync(join(publicDir, 'base.css'), 'body { color: red; }\n');
    // A later modification time, whatever the file system's resolution.
    utimesSync(join(publicDir, 'base.css'), new Date(), new Date(Date.now() + 5_000));
    const after = await (await get('/base.css', { 'accept-encoding': 'br' })).arrayBuffer();
    expect(brotliDecompressSync(Buffer.from(after)).toString()).toBe('body { color: red; }\n');
    expect(before).toBe(CSS);
  });

  it("serve a folder's index.html, and fall through for anything that is no file under the folder", async () => {
    expect(await (await get('/')).text()).toContain('<title>Loja</title>');
    for (const path of [
      '/nope.css',
      '/products',
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/products/..%2f..%2fsecret.txt',
      '//base.css',
      '/%E0%A4%A',
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toContain('not for the web');
    }
  });

  it('answer GET and HEAD only', async () => {
    expect((await app.request('/base.css', { method: 'HEAD' })).status).toBe(200);
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS'])
      expect((await app.request('/base.css', { method })).status, method).toBe(404);
  });
});

describe('the checkout page', () => {
  const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
  const page = async (path: string) => {
    const response = await get(path, { 'accept-encoding': 'br' });
    return { response, html: brotliDecompressSync(await bytes(response)).toString() };
  };

  it("holds the order's summary and its element, the inline script first in its head, nothing to fetch but the element's script", async () => {
    const { response, html } = await page('/checkout.html?order=A-1');
    expect(response.status).toBe(200);
    expect(html).toContain('<code id="order-id">A-1</code>');
    expect(html).toMatch(/<dd id="order-amount">R\$\s79,80<\/dd>/);
    expect(html).toContain('data-status="awaiting_payment">Aguardando pagamento</span>');
    // The shop's words are text, never markup.
    expect(html).toContain('Café &lt;especial&gt; &amp; &quot;torrado&quot;');
    expect(html).toContain(
      '<pix-checkout endpoint="/api" methods="pix openfinance" lang="pt-BR" order-id="A-1" merchant-name="Armazém Cerrado"></pix-checkout>',
    );
    // The inline script before anything the parser would spend time on: the first thing after the title.
    const script = html.indexOf(`<script>${INLINE}</script>`);
    expect(script).toBeGreaterThan(html.indexOf('</title>'));
    expect(script).toBeLessThan(html.indexOf('<style>'));
    expect([...html.matchAll(/<script>/g)]).toHaveLength(1);
    // No order token anywhere: it stays in the browser's fragment.
    expect(html).not.toContain('order-token');
    // The stylesheet is in the page; the element's script is named by its hash, with its integrity.
    expect(html).toContain(`<style>${CSS.trim()}</style>`);
    expect(html).not.toContain('<link rel="stylesheet"');
    expect(html).toContain(
      `<script type="module" src="/widget/${WIDGET.file}" integrity="${WIDGET.integrity}" crossorigin="anonymous"></script>`,
    );
    expect([...html.matchAll(/<script[^>]* src="([^"]+)"/g)].map(([, src]) => src)).toEqual([`/widget/${WIDGET.file}`]);
    expect(html).not.toContain(ORDER_MARK);
  });

  it('allows its inline script and style by their hashes and nothing else inline', async () => {
    const { response } = await page('/checkout.html?order=A-1');
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toBe(demoPagePolicy([sha256(INLINE)], [sha256(CSS.trim())]));
    expect(csp).toContain(`script-src 'self' ${sha256(INLINE)};`);
    expect(csp).toContain(`style-src 'self' ${sha256(CSS.trim())};`);
    expect(csp).not.toContain('unsafe');
  });

  it('says what is wrong with an address that names no order the shop has, with no element', async () => {
    for (const [path, status, text] of [
      ['/checkout.html', 200, 'Nenhum pedido informado no endereço.'],
      ['/checkout.html?order=A-404', 404, 'Pedido não encontrado.'],
      ['/checkout.html?order=%3Cscript%3E', 404, 'Pedido não encontrado.'],
    ] as const) {
      const { response, html } = await page(path);
      expect(response.status, path).toBe(status);
      expect(html, path).toContain(`${text} <a href="./">Voltar para a loja</a>`);
      expect(html, path).not.toContain('<pix-checkout');
      expect(html, path).not.toContain('<script>');
    }
  });

  it('follows a new build of its script and of the element', async () => {
    writeFileSync(join(assetsDir, 'checkout-inline.js'), 'void 0;');
    utimesSync(join(assetsDir, 'checkout-inline.js'), new Date(), new Date(Date.now() + 5_000));
    writeFileSync(
      join(root, 'widget', 'integrity.json'),
      JSON.stringify({ file: 'pix-checkout.fedcba9876543210.js', integrity: 'sha384-new' }),
    );
    utimesSync(join(root, 'widget', 'integrity.json'), new Date(), new Date(Date.now() + 5_000));
    const { response, html } = await page('/checkout.html?order=A-1');
    expect(html).toContain('</title>\n    <script>void 0;</script>');
    expect(html).toContain('src="/widget/pix-checkout.fedcba9876543210.js" integrity="sha384-new"');
    expect(response.headers.get('content-security-policy')).toContain(sha256('void 0;'));
  });

  it('goes out without an inline script, under a policy that allows none, when the script is not built', async () => {
    rmSync(join(assetsDir, 'checkout-inline.js'));
    const { response, html } = await page('/checkout.html?order=A-1');
    expect(response.status).toBe(200);
    expect(html).not.toContain('<script>');
    expect(response.headers.get('content-security-policy')).toBe(demoPagePolicy([], [sha256(CSS.trim())]));
  });
});
