// Builds the back-office page's Lit elements (demo/backoffice/main.ts) into one minified ES module,
// dist/demo/assets/backoffice.js, which the server serves under /assets; prints its size, raw and gzip.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = 'dist/demo/assets/backoffice.js';

try {
  await build({
    root,
    configFile: false,
    publicDir: false,
    logLevel: 'warn',
    build: {
      outDir: 'dist/demo/assets',
      emptyOutDir: true,
      target: 'es2022',
      minify: true,
      sourcemap: false,
      lib: { entry: 'demo/backoffice/main.ts', formats: ['es'], fileName: () => 'backoffice.js' },
      // As for the widget: Vite keeps whitespace in ES library builds, but this file is served as-is.
      rolldownOptions: { output: { codeSplitting: false, minify: true } },
    },
  });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

const code = await readFile(new URL(`../${bundle}`, import.meta.url));
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
console.log(`back-office bundle ${bundle}: ${kb(code.length)} raw, ${kb(gzipSync(code, { level: 9 }).length)} gzip`);
