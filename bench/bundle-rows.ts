/** The element's size: dist/widget/pix-checkout.js as built, gzip (level 9) and brotli (quality 11). */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
export const BUNDLE = here('../dist/widget/pix-checkout.js');

/**
 * Builds the element before measuring it, always: a build left in dist/ by something else (a test's, an older
 * checkout's) must not be what the row reports.
 */
export function ensureBuilt(log: (line: string) => void) {
  log('bench: building the element (node scripts/build-widget.mjs)');
  execFileSync(process.execPath, [here('../scripts/build-widget.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
}

export function bundleRows() {
  const bytes = readFileSync(BUNDLE);
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}
