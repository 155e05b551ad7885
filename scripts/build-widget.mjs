// Builds the drop-in widget bundle with Vite (vite.config.ts) and prints its size, raw and gzip.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = 'dist/widget/pix-checkout.js';

try {
  await build({ root, configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)), logLevel: 'warn' });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

const code = await readFile(new URL(`../${bundle}`, import.meta.url));
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
console.log(`widget bundle ${bundle}: ${kb(code.length)} raw, ${kb(gzipSync(code, { level: 9 }).length)} gzip`);
