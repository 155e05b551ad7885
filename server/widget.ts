/**
 * The built element under `/widget`, as `npm run build` leaves it in `dist/widget` (scripts/build-widget.mjs):
 *
 * - `/widget/pix-checkout.<hash>.js`: the bundle under its content-hashed name, cached for a year as immutable;
 * - `/widget/pix-checkout.js`: the same bytes under the fixed name, cached for five minutes, then revalidated (ETag);
 * - `/widget/pix-checkout-<name>.<hash>.js`: each chunk the element loads on demand (a language), cached for a year;
 *   its integrity hash is inside the entry, which checks it before running it (widget/chunks.ts);
 * - `/widget/integrity.json`: the hashed name and the bundle's SRI hash (`sha384-…`), always revalidated.
 *
 * The bundle is sent brotli- or gzip-compressed when the client accepts it (precompressed by the build), and with
 * `Access-Control-Allow-Origin: *`: a module script from another origin is fetched with CORS (without credentials),
 * and the element is a public asset that loads on any origin. On a page the BFF does not allow it still runs, so it
 * can tell the shopper that this page may not take payments (and the page's console why) instead of leaving an empty
 * box; the API itself refuses such a page (server/bff/guards.ts, `refuseForeignOrigins`).
 */
import type { MiddlewareHandler } from 'hono';
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What the build writes to `dist/widget/integrity.json`. */
export interface WidgetManifest {
  /** The content-hashed file name, for example `pix-checkout.3f9a1c0d5e7b2a64.js`. */
  file: string;
  /** Subresource Integrity of the bundle (either name): `sha384-<base64>`. */
  integrity: string;
  /** The chunks loaded on demand, each under a content-hashed name (absent from builds before them). */
  chunks?: { name: string; file: string; integrity: string }[];
}

export const FIXED_NAME = 'pix-checkout.js';
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const SHORT = 'public, max-age=300';
const HASHED_NAME = /^pix-checkout\.[0-9a-f]{8,64}\.js$/;
/** A chunk's name: the bundler's content hash (base64url) after its name. */
const CHUNK_NAME = /^pix-checkout-[\w]+\.[\w-]{8,64}\.js$/;

type Encoding = 'br' | 'gzip' | 'identity';

/** Any page may load the element (without credentials): the same answer for every origin, so no `Vary: Origin`. */
const ANY_ORIGIN = { 'access-control-allow-origin': '*' } as const;

interface Bundle {
  manifest: WidgetManifest;
  /** The manifest file as served. */
  manifestText: string;
  files: Map<string, ServedFile>;
}

interface ServedFile {
  /** The content hash of the file name: the ETag of each encoding is derived from it. */
  hash: string;
  bodies: Partial<Record<Encoding, Buffer>>;
}

/** The client's preferred encoding among those we have: brotli, then gzip, then none (RFC 9110 `Accept-Encoding`). */
export function pickEncoding(header: string | undefined, available: readonly Encoding[]): Encoding {
  const weights = new Map<string, number>();
  for (const part of (header ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    weights.set(name, q === undefined ? 1 : Number(q));
  }
  const weight = (name: string) => weights.get(name) ?? weights.get('*') ?? 0;
  const offered = (['br', 'gzip'] as const).filter((e) => available.includes(e) && weight(e) > 0);
  return offered.sort((a, b) => weight(b) - weight(a))[0] ?? 'identity';
}

/** True when `If-None-Match` names `etag` (weak comparison, as RFC 9110 asks for GET) or is `*`. */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

/**
 * Serves the element from `dir` (normally `dist/widget`). The build is read again when its manifest changes, so a
 * rebuild while the server runs is served at once.
 */
export function widgetFiles({ dir }: { dir: string }): MiddlewareHandler {
  const manifestPath = join(dir, 'integrity.json');
  let loaded: { mtimeMs: number; bundle: Bundle } | undefined;

  function current(): Bundle | undefined {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(manifestPath).mtimeMs;
    } catch {
      return undefined;
    }
    if (loaded?.mtimeMs === mtimeMs) return loaded.bundle;
    try {
      const bundle = load();
      if (bundle) loaded = { mtimeMs, bundle };
      return bundle ?? loaded?.bundle;
    } catch {
      // A build in progress: keep serving the previous one (held in memory) until the new one is whole.
      return loaded?.bundle;
    }
  }

  /** A built file and its precompressed copies; undefined when the file itself is missing. */
  function readFile(file: string, hash: string): ServedFile | undefined {
    const read = (suffix: string) => {
      try {
        return readFileSync(join(dir, file + suffix));
      } catch {
        return undefined;
      }
    };
    const identity = read('');
    if (!identity) return undefined;
    const bodies: ServedFile['bodies'] = { identity };
    const br = read('.br');
    const gzip = read('.gz');
    if (br) bodies.br = br;
    if (gzip) bodies.gzip = gzip;
    return { hash, bodies };
  }

  function load(): Bundle | undefined {
    const manifestText = readFileSync(manifestPath, 'utf8');
    const manifest = JSON.parse(manifestText) as WidgetManifest;
    if (!HASHED_NAME.test(manifest.file)) throw new Error(`dist/widget/integrity.json names no hashed bundle: ${manifest.file}`);
    const entry = readFile(manifest.file, manifest.file.slice('pix-checkout.'.length, -'.js'.length));
    if (!entry) return undefined;
    const files = new Map([
      [FIXED_NAME, entry],
      [manifest.file, entry],
    ]);
    for (const chunk of manifest.chunks ?? []) {
      if (!CHUNK_NAME.test(chunk.file)) throw new Error(`dist/widget/integrity.json names a chunk without its hash: ${chunk.file}`);
      // The build writes the chunks before the manifest: a missing one means a build in progress.
      const served = readFile(chunk.file, createHash('sha256').update(chunk.integrity).digest('hex').slice(0, 16));
      if (!served) throw new Error(`dist/widget/${chunk.file} is missing`);
      files.set(chunk.file, served);
    }
    return { manifest, manifestText, files };
  }

  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const name = c.req.path.slice(c.req.path.lastIndexOf('/') + 1);
    const bundle = current();
    if (!bundle) return next();

    if (name === 'integrity.json') {
      const etag = `"${bundle.files.get(FIXED_NAME)!.hash}-manifest"`;
      const headers = { 'cache-control': 'no-cache', etag, ...ANY_ORIGIN };
      if (notModified(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
      return c.body(bundle.manifestText, 200, { ...headers, 'content-type': 'application/json; charset=utf-8' });
    }
    const served = bundle.files.get(name);
    if (!served) return next();

    const encoding = pickEncoding(c.req.header('accept-encoding'), Object.keys(served.bodies) as Encoding[]);
    const body = served.bodies[encoding]!;
    const etag = `"${served.hash}${encoding === 'identity' ? '' : `-${encoding}`}"`;
    const headers: Record<string, string> = {
      'cache-control': name === FIXED_NAME ? SHORT : IMMUTABLE,
      etag,
      vary: 'Accept-Encoding',
      ...ANY_ORIGIN,
    };
    if (notModified(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
    if (encoding !== 'identity') headers['content-encoding'] = encoding;
    headers['content-type'] = 'text/javascript; charset=utf-8';
    headers['content-length'] = String(body.length);
    return c.body(new Uint8Array(body), 200, headers);
  };
}
