/**
 * Text compressed for the wire, as a browser on a slow network wants it: brotli or gzip (the caller picks the one the
 * browser accepts), or the bytes themselves.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type Encoding = 'br' | 'gzip' | 'identity';

/**
 * `body` in `encoding`. Brotli's quality 11 suits what is compressed once and served many times; a page built per
 * request passes a lower one (5), which costs a fraction of the time for a few bytes more.
 */
export function compress(body: string | Buffer, encoding: Encoding, quality = 11): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  if (encoding === 'gzip') return gzipSync(bytes, { level: 9 });
  if (encoding === 'br') return brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: quality } });
  return bytes;
}
