// Builds the demo pages' scripts into dist/demo/assets, which the demo server serves under /assets: the shop and the
// checkout page with its sandbox panel (demo/pages), and the back-office page's Lit elements (console/, the product's console, until it is served by the BFF itself). Each
// page gets one self-contained, minified ES module (the pages run under `script-src 'self'`, without inline scripts);
// prints their sizes, raw and gzip.
import { readFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = 'dist/demo/assets';

/** Served as /assets/<name>.js. */
const bundles = [
  { name: 'shop', entry: 'demo/pages/shop.ts', what: 'shop page' },
  { name: 'checkout', entry: 'demo/pages/checkout.ts', what: 'checkout page' },
  { name: 'backoffice', entry: 'console/main.ts', what: 'back-office' },
];

try {
  await rm(new URL(`../${outDir}`, import.meta.url), { recursive: true, force: true });
  for (const { name, entry } of bundles) {
    await build({
      root,
      configFile: false,
      publicDir: false,
      logLevel: 'warn',
      build: {
        outDir,
        // The directory was emptied once above; each build adds its own file.
        emptyOutDir: false,
        target: 'es2022',
        minify: true,
        sourcemap: false,
        lib: { entry, formats: ['es'], fileName: () => `${name}.js` },
        // As for the widget: Vite keeps whitespace in ES library builds, but these files are served as-is.
        rolldownOptions: { output: { codeSplitting: false, minify: true } },
      },
    });
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
for (const { name, what } of bundles) {
  const bundle = `${outDir}/${name}.js`;
  const code = await readFile(new URL(`../${bundle}`, import.meta.url));
  console.log(`${what} bundle ${bundle}: ${kb(code.length)} raw, ${kb(gzipSync(code, { level: 9 }).length)} gzip`);
}
