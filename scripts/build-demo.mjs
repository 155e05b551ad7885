// Builds the demo pages' scripts into dist/demo/assets, which the demo server serves under /assets: the shop, the
// checkout page with its sandbox panel, and the sandbox portal (the provider's portal stand-in), all in demo/pages.
// Each page gets one self-contained, minified ES module (the pages run under `script-src 'self'`), always with Lit's
// production build whatever NODE_ENV is (scripts/production.mjs); prints their sizes, raw and gzip. Besides them, the
// checkout page's inline script, a classic script in a function of its own, which the server writes into the page and
// allows by its hash (demo/checkout-page.ts). The merchant console is the product's: scripts/build-console.mjs.
import { readFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { assertProduction, productionBuild } from './production.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = 'dist/demo/assets';

/** Served as /assets/<name>.js. */
const bundles = [
  { name: 'shop', entry: 'demo/pages/shop.ts', what: 'shop page' },
  { name: 'checkout', entry: 'demo/pages/checkout.ts', what: 'checkout page' },
  { name: 'sandbox-portal', entry: 'demo/pages/sandbox-portal.ts', what: 'sandbox portal' },
  { name: 'checkout-inline', entry: 'demo/pages/checkout-inline.ts', what: "checkout page's inline", format: 'iife' },
];

try {
  await rm(new URL(`../${outDir}`, import.meta.url), { recursive: true, force: true });
  for (const { name, entry, format = 'es' } of bundles) {
    await build({
      ...productionBuild,
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
        // An iife's name would be a global for its exports; the inline script has none, so it adds no global.
        lib: { entry, formats: [format], fileName: () => `${name}.js`, name: 'checkoutInline' },
        // As for the widget: Vite keeps whitespace in ES library builds, but these files are served as-is.
        rolldownOptions: { output: { codeSplitting: false, minify: true } },
      },
    });
    assertProduction(await readFile(new URL(`../${outDir}/${name}.js`, import.meta.url)), `the ${name} bundle`);
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
