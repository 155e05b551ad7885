/**
 * The demo's files (demo/static-files.ts) and its checkout page (demo/checkout-page.ts): text compressed as the
 * browser accepts and identical once decompressed, an ETag and a 304, revalidated at each use, a changed file served
 * anew, nothing outside the folder; the checkout page with its inline script at the top of its head, before any
 * stylesheet, and a policy that allows that script by its hash and nothing else inline.
 */
import { Hono } from 'hono';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import { checkoutPage, INLINE_SCRIPT_MARK } from '../../demo/checkout-page';
import { demoPagePolicy } from '../../demo/page-policy';
import { staticFiles } from '../../demo/static-files';
import { tempDir } from './helpers/server';

const CSS = `body { color: #222; }\n${'.line { margin: 0; }\n'.repeat(40)}`;
const PAGE = `<!doctype html>
<html>
  <head>
    <title>Pagamento</title>
    ${INLINE_SCRIPT_MARK}
    <link rel="stylesheet" href="base.css" />
    <script type="module" src="/assets/checkout.js"></script>
  </head>
  <body></body>
</html>
`;
const INLINE = '(function(){fetch("/api/orders/A-1/checkout",{method:"POST"})})();';

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
  app = new Hono();
  app.on(['GET', 'HEAD'], '/checkout.html', checkoutPage({ publicDir, assetsDir }));
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

  it('has its inline script at the top of its head, before any stylesheet, allowed by its hash and nothing else inline', async () => {
    const response = await get('/checkout.html?order=A-1', { 'accept-encoding': 'br' });
    expect(response.status).toBe(200);
    const html = brotliDecompressSync(await bytes(response)).toString();
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)];
    expect(inline.map(([, text]) => text)).toEqual([INLINE]);
    expect(inline[0]!.index).toBeLessThan(html.indexOf('<link rel="stylesheet"'));
    expect(html).not.toContain(INLINE_SCRIPT_MARK);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toBe(demoPagePolicy([sha256(INLINE)]));
    expect(csp).toContain(`script-src 'self' ${sha256(INLINE)};`);
    expect(csp).not.toContain('unsafe');
  });

  it('follows a new build of its script', async () => {
    writeFileSync(join(assetsDir, 'checkout-inline.js'), 'void 0;');
    utimesSync(join(assetsDir, 'checkout-inline.js'), new Date(), new Date(Date.now() + 5_000));
    const response = await get('/checkout.html');
    expect(await response.text()).toContain('<script>void 0;</script>');
    expect(response.headers.get('content-security-policy')).toContain(sha256('void 0;'));
  });

  it('goes out without an inline script, under the plain policy, when the script is not built', async () => {
    rmSync(join(assetsDir, 'checkout-inline.js'));
    const response = await get('/checkout.html');
    expect(response.status).toBe(200);
    expect(await response.text()).not.toContain('<script>');
    expect(response.headers.get('content-security-policy')).toBe(demoPagePolicy());
  });
});
