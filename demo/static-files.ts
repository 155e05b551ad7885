/**
 * The demo's files (its pages, stylesheets and pictures from demo/public, its built scripts from dist/demo/assets) as
 * a phone on a slow network wants them: text compressed once per file and encoding (brotli or gzip, as the browser
 * accepts), with an ETag, and revalidated at each use (`no-cache`: the names carry no hash, so a rebuilt script must
 * be seen at once, and an unchanged file costs a 304 with no body). A file is read again when it changes on disk.
 * GET and HEAD only; anything else, and a path that is not a file under the root, falls through to the next route.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { getMimeType } from 'hono/utils/mime';
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { compress, type Encoding } from '../server/lib/compress';
import { notModified, pickEncoding } from '../server/widget';

/** What compresses: text of every kind, SVG pictures, JSON. */
const TEXT = /^(text\/|image\/svg\+xml|application\/(json|javascript))/;

/** A file as served: its bytes, their compressed copies (made on first use), and its ETag. */
export interface ServedFile {
  bytes: Buffer;
  type: string;
  etag: string;
  compressed: Map<Encoding, Buffer>;
}

/** `bytes` as a ServedFile of `type`, its ETag from its content. */
export function servedFile(bytes: Buffer, type: string): ServedFile {
  const etag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}"`;
  return { bytes, type, etag, compressed: new Map() };
}

export interface SendOptions {
  /** More headers of the answer. */
  headers?: Record<string, string>;
  status?: 200 | 404;
  /** Brotli's quality: 11 for a file served many times, lower for a page written per request (server/lib/compress). */
  quality?: number;
}

/** Answers with `file` in the browser's preferred encoding, or 304 when the browser has it already. */
export function sendFile(c: Context, file: ServedFile, { headers = {}, status = 200, quality }: SendOptions = {}): Response {
  const text = TEXT.test(file.type);
  const encoding = text ? pickEncoding(c.req.header('accept-encoding'), ['br', 'gzip']) : 'identity';
  const etag = encoding === 'identity' ? file.etag : `${file.etag.slice(0, -1)}-${encoding}"`;
  const all: Record<string, string> = { 'cache-control': 'no-cache', etag, ...(text ? { vary: 'Accept-Encoding' } : {}), ...headers };
  if (notModified(c.req.header('if-none-match'), etag)) return c.body(null, 304, all);
  let body = file.bytes;
  if (encoding !== 'identity') {
    body = file.compressed.get(encoding) ?? file.compressed.set(encoding, compress(file.bytes, encoding, quality)).get(encoding)!;
    all['content-encoding'] = encoding;
  }
  return c.body(new Uint8Array(body), status, { ...all, 'content-type': file.type });
}

/** Reads files through a cache that follows each file's modification time and size. */
export function fileReader() {
  const cache = new Map<string, { mtimeMs: number; size: number; file: ServedFile }>();
  /** The file at `path` (a regular file), or undefined when there is none. */
  return (path: string, type = getMimeType(path) ?? 'application/octet-stream'): ServedFile | undefined => {
    let stats;
    try {
      stats = statSync(path);
    } catch {
      return undefined;
    }
    if (!stats.isFile()) return undefined;
    const known = cache.get(path);
    if (known && known.mtimeMs === stats.mtimeMs && known.size === stats.size) return known.file;
    const file = servedFile(readFileSync(path), type);
    cache.set(path, { mtimeMs: stats.mtimeMs, size: stats.size, file });
    return file;
  };
}

/** A path of the request that names a file under the root: no `.` or `..` segment, no empty one, no backslash. */
const UNSAFE = /(?:^|[/\\])\.{1,2}(?:$|[/\\])|[/\\]{2,}|\\|\0/;

/** Serves the files under `root` at the request's path (`/` and folders: their `index.html`). */
export function staticFiles({ root }: { root: string }): MiddlewareHandler {
  const base = resolve(root);
  const read = fileReader();
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    let path: string;
    try {
      path = decodeURIComponent(c.req.path);
    } catch {
      return next();
    }
    if (UNSAFE.test(path)) return next();
    let full = join(base, path);
    if (full !== base && !full.startsWith(base + sep)) return next();
    if (path.endsWith('/') || full === base) full = join(full, 'index.html');
    const file = read(full) ?? read(join(full, 'index.html'));
    return file ? sendFile(c, file) : next();
  };
}
