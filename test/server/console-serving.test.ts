/**
 * `/admin`: the console's page under its own strict CSP and `no-store`, its content-hashed files immutable and
 * compressed as the client accepts, GET and HEAD only; a 503 saying to build it while there is no build; a rebuild
 * served at once. The build is a fixture written here, laid out as scripts/build-console.mjs leaves dist/console. And
 * the demo's page policy (securityHeaders' `pageCsp`) keeps a policy a route set for itself.
 */
import { Hono } from 'hono';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import { API_CSP, securityHeaders } from '../../server/http/security-headers';
import { CONSOLE_CSP, consoleApp } from '../../server/console';
import { IMMUTABLE } from '../../server/widget';
import { tempDir } from './helpers/server';

const DEMO_CSP = "default-src 'self'; script-src 'self'";

/** Writes a console build of `code` into `dir` as the build script does; returns the script's hashed name. */
function writeBuild(dir: string, code: string) {
  const bytes = Buffer.from(code);
  const digest = createHash('sha384').update(bytes).digest();
  const name = `console.${digest.toString('hex').slice(0, 16)}.js`;
  const integrity = `sha384-${digest.toString('base64')}`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'assets', name), bytes);
  writeFileSync(join(dir, 'assets', `${name}.gz`), gzipSync(bytes));
  writeFileSync(join(dir, 'assets', `${name}.br`), brotliCompressSync(bytes));
  writeFileSync(join(dir, 'assets', 'favicon.0123456789abcdef.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><title>Console</title><script type="module" src="/admin/assets/${name}" integrity="${integrity}"></script>`,
  );
  const assets = {
    [name]: { type: 'text/javascript; charset=utf-8', integrity, bytes: bytes.length },
    'favicon.0123456789abcdef.svg': { type: 'image/svg+xml', integrity: 'sha384-x', bytes: 41 },
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ page: 'index.html', assets }));
  return { name, bytes };
}

const CODE = `customElements.define('bo-app', class extends HTMLElement {});\n${'// padding for the compressor\n'.repeat(40)}`;

let dir: string;
let warnings: string[];
let app: Hono;

/** The console mounted as server.ts mounts it, behind the demo's page policy, with the root's 404 envelope. */
function mount() {
  warnings = [];
  app = new Hono();
  app.use(securityHeaders({ pageCsp: DEMO_CSP }));
  app.route('/', consoleApp({ dir, warn: (line) => warnings.push(line) }));
  app.get('/page.html', (c) => c.html('<p>a demo page</p>'));
  app.notFound((c) => c.json({ statusCode: 'Error', error: { code: 'not_found' } }, 404));
}

beforeEach(() => {
  dir = join(tempDir(), 'console');
});

describe('the console under /admin', () => {
  it('serves the page at /admin and /admin/ under its own CSP, never cached, with the demo page policy left to the demo', async () => {
    writeBuild(dir, CODE);
    mount();
    expect(warnings).toEqual([]);
    for (const path of ['/admin', '/admin/']) {
      const res = await app.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.text()).toContain('<script type="module" src="/admin/assets/console.');
    }
    // Any other page still gets the demo's policy.
    expect((await app.request('/page.html')).headers.get('content-security-policy')).toBe(DEMO_CSP);
  });

  it('has no inline script or style allowance in its policy', () => {
    const directives = Object.fromEntries(CONSOLE_CSP.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['style-src']).toEqual(["'self'"]);
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(CONSOLE_CSP).not.toContain('unsafe');
  });

  it('serves the hashed files for a year, compressed as asked, and nothing the manifest does not list', async () => {
    const { name, bytes } = writeBuild(dir, CODE);
    mount();
    const plain = await app.request(`/admin/assets/${name}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(Buffer.from(await plain.arrayBuffer())).toEqual(bytes);
    const br = await app.request(`/admin/assets/${name}`, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toContain('Accept-Encoding');
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer()))).toEqual(bytes);
    const icon = await app.request('/admin/assets/favicon.0123456789abcdef.svg', { headers: { 'accept-encoding': 'br' } });
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(icon.headers.get('content-encoding')).toBeNull();
    for (const path of [
      '/admin/assets/manifest.json',
      '/admin/assets/console.js',
      `/admin/assets/${name}.gz`,
      '/admin/index.html',
      '/admin/nope',
    ]) {
      expect((await app.request(path)).status, path).toBe(404);
    }
  });

  it('answers GET and HEAD only', async () => {
    const { name } = writeBuild(dir, CODE);
    mount();
    const head = await app.request('/admin', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect((await app.request(`/admin/assets/${name}`, { method: 'HEAD' })).status).toBe(200);
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      expect((await app.request('/admin', { method })).status, method).toBe(404);
      expect((await app.request(`/admin/assets/${name}`, { method })).status, method).toBe(404);
    }
  });

  it('refuses a GET that carries a body at once (400), before writing a file Node would cut on the unread body', async () => {
    const { name } = writeBuild(dir, CODE);
    mount();
    for (const path of ['/admin', `/admin/assets/${name}`]) {
      const refused = await app.request(path, { headers: { 'content-length': '1048576' } });
      expect(refused.status, path).toBe(400);
      expect(await refused.json()).toMatchObject({ error: { code: 'bad_request' } });
    }
    expect((await app.request(`/admin/assets/${name}`)).status).toBe(200);
  });

  it('without a build: warns at start, a 503 page saying to build it, a 503 envelope for files; a build made later is served', async () => {
    mount();
    expect(warnings).toEqual([expect.stringContaining('npm run build')]);
    const page = await app.request('/admin');
    expect(page.status).toBe(503);
    expect(page.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(await page.text()).toContain('npm run build');
    const file = await app.request('/admin/assets/console.0123456789abcdef.js');
    expect(file.status).toBe(503);
    expect((await file.json()).error.code).toBe('console_not_built');
    expect(file.headers.get('content-security-policy')).toBe(API_CSP);

    const { name } = writeBuild(dir, CODE);
    expect((await app.request('/admin')).status).toBe(200);
    expect((await app.request(`/admin/assets/${name}`)).status).toBe(200);
  });

  it('serves a rebuild at once, and the previous build while a new one is half written', async () => {
    const first = writeBuild(dir, CODE);
    mount();
    expect((await app.request(`/admin/assets/${first.name}`)).status).toBe(200);
    const second = writeBuild(dir, `${CODE}// a change\n`);
    expect(second.name).not.toBe(first.name);
    expect(await (await app.request('/admin')).text()).toContain(second.name);
    expect((await app.request(`/admin/assets/${second.name}`)).status).toBe(200);
    // A manifest naming a file not yet written: the build in memory goes on.
    writeFileSync(
      join(dir, 'manifest.json'),
      JSON.stringify({ page: 'index.html', assets: { 'console.ffffffffffffffff.js': { type: 'x' } } }),
    );
    expect((await app.request(`/admin/assets/${second.name}`)).status).toBe(200);
  });
});

describe("the pages' security headers", () => {
  it('keep the policy a route set for itself, on a page and on JSON alike, and give the others theirs', async () => {
    const guarded = new Hono();
    guarded.use(securityHeaders({ pageCsp: DEMO_CSP }));
    guarded.get('/own.html', (c) => c.html('<p>own</p>', 200, { 'content-security-policy': "default-src 'none'" }));
    guarded.get('/other.html', (c) => c.html('<p>other</p>'));
    guarded.get('/own.json', (c) => c.json({}, 200, { 'content-security-policy': "default-src 'none'; sandbox" }));
    guarded.get('/other.json', (c) => c.json({}));
    expect((await guarded.request('/own.html')).headers.get('content-security-policy')).toBe("default-src 'none'");
    expect((await guarded.request('/other.html')).headers.get('content-security-policy')).toBe(DEMO_CSP);
    expect((await guarded.request('/own.json')).headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect((await guarded.request('/other.json')).headers.get('content-security-policy')).toBe(API_CSP);
  });
});
