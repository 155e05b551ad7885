/**
 * The element's size, as built in dist/widget, gzip (level 9) and brotli (quality 11): the code that draws the first
 * QR in Portuguese (the entry: the chunks it loads on demand are the other languages and everything the first QR does
 * not need, widget/screens-chunk.ts), beside the whole build (the entry and every chunk).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
export const BUNDLE = here('../dist/widget/pix-checkout.js');
const MANIFEST = here('../dist/widget/integrity.json');

/**
 * Builds the element before measuring it, always: a build left in dist/ by something else (a test's, an older
 * checkout's) must not be what the row reports.
 */
export function ensureBuilt(log: (line: string) => void) {
  log('bench: building the element (node scripts/build-widget.mjs)');
  execFileSync(process.execPath, [here('../scripts/build-widget.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
}

const sizes = (bytes: Buffer) => ({
  raw: bytes.length,
  gzip: gzipSync(bytes, { level: 9 }).length,
  brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
});

export function bundleRows() {
  const entry = readFileSync(BUNDLE);
  const { chunks = [] } = JSON.parse(readFileSync(MANIFEST, 'utf8')) as { chunks?: { file: string }[] };
  const all = chunks.map(({ file }) => sizes(readFileSync(here(`../dist/widget/${file}`))));
  const first = sizes(entry);
  return {
    // The first QR in Portuguese needs the entry alone.
    ...first,
    whole: {
      raw: all.reduce((sum, s) => sum + s.raw, first.raw),
      gzip: all.reduce((sum, s) => sum + s.gzip, first.gzip),
      chunks: chunks.length,
    },
  };
}
