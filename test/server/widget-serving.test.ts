/**
 * `/widget`: the element under its content-hashed name (immutable) and its fixed name (short cache, ETag), brotli or
 * gzip as the client accepts, CORS for any page (a public asset), and the manifest with the SRI hash. The
 * build is a fixture written here, laid out as scripts/build-widget.mjs leaves dist/widget.
 */
import { Hono } from 'hono';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import { securityHeaders } from '../../server/http/security-headers';
import { FIXED_NAME, IMMUTABLE, SHORT, pickEncoding, widgetFiles } from '../../server/widget';
import { tempDir } from './helpers/server';

const STOREFRONT = 'https://shop.example';

/** Writes a build of `code` into `dir` as the build script does; returns its hashed name and SRI hash. */
function writeBuild(dir: string, code: string) {
  const bytes = Buffer.from(code);
  const digest = createHash('sha384').update(bytes).digest();
  const file = `pix-checkout.${digest.toString('hex').slice(0, 16)}.js`;
  const integrity = `sha384-${digest.toString('base64')}`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, FIXED_NAME), bytes);
  writeFileSync(join(dir, file), bytes);
  writeFileSync(join(dir, `${file}.gz`), gzipSync(bytes));
  writeFileSync(join(dir, `${file}.br`), brotliCompressSync(bytes));
  writeFileSync(join(dir, 'integrity.json'), JSON.stringify({ file, integrity, bytes: bytes.length }));
  return { file, integrity, bytes };
}

const CODE = `export class PixCheckout extends HTMLElement {}\n${'// padding so compression has something to do\n'.repeat(40)}`;

let dir: string;
let build: ReturnType<typeof writeBuild>;
let app: Hono;
beforeEach(() => {
  dir = join(tempDir(), 'widget');
  build = writeBuild(dir, CODE);
  app = new Hono();
  app.use(securityHeaders());
  app.use('/widget/*', widgetFiles({ dir }));
  app.notFound((c) => c.json({ error: 'not found' }, 404));
});

const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers });
const bodyOf = async (response: Response) => Buffer.from(await response.arrayBuffer());

describe('the bundle under its content-hashed name', () => {
  it('is JavaScript cached for a year as immutable, with an ETag and the CORP that lets other origins load it', async () => {
    const response = await get(`/widget/${build.file}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]{16}"$/);
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(await bodyOf(response)).toEqual(build.bytes);
  });

  it('matches its SRI hash, as the manifest gives it', async () => {
    const manifest = await (await get('/widget/integrity.json')).json();
    expect(manifest).toMatchObject({ file: build.file, integrity: build.integrity });
    const body = await bodyOf(await get(`/widget/${manifest.file}`));
    expect(`sha384-${createHash('sha384').update(body).digest('base64')}`).toBe(manifest.integrity);
  });

  it('is brotli- or gzip-compressed as the client accepts, with an ETag per encoding and Vary', async () => {
    const br = await get(`/widget/${build.file}`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    expect(brotliDecompressSync(await bodyOf(br))).toEqual(build.bytes);
    const gzip = await get(`/widget/${build.file}`, { 'accept-encoding': 'gzip' });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(await bodyOf(gzip))).toEqual(build.bytes);
    expect(Number(gzip.headers.get('content-length'))).toBeLessThan(build.bytes.length);
    const etags = new Set([br, gzip, await get(`/widget/${build.file}`)].map((r) => r.headers.get('etag')));
    expect(etags.size).toBe(3);
  });

  it('answers 304 to a matching If-None-Match, with its caching headers', async () => {
    const first = await get(`/widget/${build.file}`, { 'accept-encoding': 'br' });
    const again = await get(`/widget/${build.file}`, { 'accept-encoding': 'br', 'if-none-match': `W/${first.headers.get('etag')}` });
    expect(again.status).toBe(304);
    expect(again.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(await again.text()).toBe('');
  });

  it('answers HEAD with the headers alone', async () => {
    const response = await app.request(`/widget/${build.file}`, { method: 'HEAD', headers: { 'accept-encoding': 'gzip' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(await response.text()).toBe('');
  });
});

describe('the fixed name /widget/pix-checkout.js', () => {
  it('is the same bundle with a short cache and the same ETag, so a revalidation costs a 304', async () => {
    const fixed = await get(`/widget/${FIXED_NAME}`, { 'accept-encoding': 'br' });
    const hashed = await get(`/widget/${build.file}`, { 'accept-encoding': 'br' });
    expect(fixed.headers.get('cache-control')).toBe(SHORT);
    expect(fixed.headers.get('etag')).toBe(hashed.headers.get('etag'));
    expect(brotliDecompressSync(await bodyOf(fixed))).toEqual(build.bytes);
    const again = await get(`/widget/${FIXED_NAME}`, { 'accept-encoding': 'br', 'if-none-match': fixed.headers.get('etag')! });
    expect(again.status).toBe(304);
  });

  it('follows a rebuild at once; the old hashed name is gone with its build', async () => {
    const before = build;
    build = writeBuild(dir, `${CODE}// changed\n`);
    expect(build.file).not.toBe(before.file);
    expect(await bodyOf(await get(`/widget/${FIXED_NAME}`))).toEqual(build.bytes);
    expect((await get(`/widget/${build.file}`)).status).toBe(200);
    expect((await get(`/widget/${before.file}`)).status).toBe(404);
  });
});

describe('the chunks loaded on demand', () => {
  /** Adds a chunk to the fixture build, as the build script writes one, and names it in the manifest. */
  function addChunk(name: string, code: string) {
    const bytes = Buffer.from(code);
    const file = `pix-checkout-${name}.Ab_9-xYz.js`;
    writeFileSync(join(dir, file), bytes);
    writeFileSync(join(dir, `${file}.br`), brotliCompressSync(bytes));
    const integrity = `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
    writeFileSync(
      join(dir, 'integrity.json'),
      JSON.stringify({ file: build.file, integrity: build.integrity, chunks: [{ name, file, integrity }] }),
    );
    return { file, bytes };
  }

  it('are served by the names the manifest gives, immutable, compressed as the client accepts, to any origin', async () => {
    const chunk = addChunk('es', `export const es = { chooseMethod: '¿Cómo quieres pagar?' };\n${'// padding\n'.repeat(40)}`);
    const response = await get(`/widget/${chunk.file}`, { 'accept-encoding': 'br', origin: STOREFRONT });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(brotliDecompressSync(await bodyOf(response))).toEqual(chunk.bytes);
    expect(await bodyOf(await get(`/widget/${chunk.file}`))).toEqual(chunk.bytes);
  });

  it('are not found when the manifest does not name them, even if the file is there', async () => {
    const chunk = addChunk('es', 'export const es = {};');
    writeFileSync(join(dir, 'pix-checkout-en.Zz_9-xYz.js'), 'export const en = {};');
    expect((await get(`/widget/${chunk.file}`)).status).toBe(200);
    expect((await get('/widget/pix-checkout-en.Zz_9-xYz.js')).status).toBe(404);
    expect((await get(`/widget/${chunk.file}.br`)).status).toBe(404);
  });
});

describe('CORS', () => {
  it('lets a page on any origin load the module and its manifest (without credentials), the same answer for all', async () => {
    for (const path of [`/widget/${build.file}`, `/widget/${FIXED_NAME}`, '/widget/integrity.json']) {
      for (const origin of [STOREFRONT, 'https://not-yet-allowed.example']) {
        const answer = await get(path, { origin });
        expect(answer.status).toBe(200);
        expect(answer.headers.get('access-control-allow-origin')).toBe('*');
        expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
        expect(answer.headers.get('vary') ?? '').not.toContain('Origin');
      }
    }
  });
});

describe('anything else under /widget', () => {
  it('is not found: other names, an unknown hash, the precompressed files themselves, a missing build', async () => {
    for (const name of ['pix-checkout.0123456789abcdef.js', `${build.file}.br`, `${build.file}.gz`, 'index.html', '../package.json']) {
      expect((await get(`/widget/${name}`)).status).toBe(404);
    }
    rmSync(dir, { recursive: true, force: true });
    const fresh = new Hono();
    fresh.use('/widget/*', widgetFiles({ dir }));
    expect((await fresh.request(`/widget/${FIXED_NAME}`)).status).toBe(404);
  });

  it('is not written to', async () => {
    expect((await app.request(`/widget/${FIXED_NAME}`, { method: 'POST' })).status).toBe(404);
  });
});

describe('pickEncoding', () => {
  const all = ['br', 'gzip', 'identity'] as const;
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.9', 'gzip'],
    ['*', 'br'],
    ['*;q=0', 'identity'],
    ['identity', 'identity'],
    ['GZIP', 'gzip'],
  ])('Accept-Encoding %j → %s', (header, expected) => {
    expect(pickEncoding(header, all)).toBe(expected);
  });

  it('offers only the encodings the build has', () => {
    expect(pickEncoding('br, gzip', ['gzip', 'identity'])).toBe('gzip');
    expect(pickEncoding('br', ['identity'])).toBe('identity');
  });
});
