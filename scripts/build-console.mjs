// Builds the merchant console (console/) into dist/console, which the product serves under /admin (server/console.ts):
//
//   dist/console/index.html                         the page: console/index.html with the hashed addresses below,
//                                                   and the SRI hash (integrity=) of its script and stylesheet
//   dist/console/assets/console.<hash>.js(.br|.gz)  the Lit elements (entry console/main.ts), one minified ES module
//   dist/console/assets/console.<hash>.css(.br|.gz) the page's stylesheet (console/console.css), minified
//   dist/console/assets/favicon.<hash>.svg          the icon
//   dist/console/manifest.json                      { page, assets: { <name>: { type, integrity, bytes } } }
//
// Every asset is named by its content, so the server lets browsers keep it for a year. Nothing is removed before the
// new build is whole: the new assets are added beside the old ones, the page and then the manifest replace theirs by
// a rename, and only then do the files no manifest names any more go. A server running meanwhile (or a test reading
// dist/console) always finds a complete build. Always Lit's production build, whatever NODE_ENV is
// (scripts/production.mjs). Prints the sizes, raw and gzip.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { transform } from 'esbuild';
import { build } from 'vite';
import { assertProduction, productionBuild } from './production.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (path) => new URL(`../${path}`, import.meta.url);
const outDir = 'dist/console';
/** Where Vite writes the bundle before it gets its hashed name (outside dist/console: emptied by Vite). */
const scratch = 'dist/.console-build';

function fail(error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

try {
  await build({
    ...productionBuild,
    root,
    configFile: false,
    publicDir: false,
    logLevel: 'warn',
    build: {
      outDir: scratch,
      emptyOutDir: true,
      target: 'es2022',
      minify: true,
      sourcemap: false,
      lib: { entry: 'console/main.ts', formats: ['es'], fileName: () => 'console.js' },
      // As for the widget: Vite keeps whitespace and comments in ES library builds, but this file is served as-is.
      rolldownOptions: { output: { codeSplitting: false, minify: true, comments: false } },
    },
  });
} catch (error) {
  fail(error);
}

const script = await readFile(at(`${scratch}/console.js`));
try {
  assertProduction(script, 'the console bundle');
} catch (error) {
  fail(error);
}
const style = Buffer.from((await transform(await readFile(at('console/console.css'), 'utf8'), { loader: 'css', minify: true })).code);
const icon = await readFile(at('console/favicon.svg'));
await rm(at(scratch), { recursive: true, force: true });
await mkdir(at(`${outDir}/assets`), { recursive: true });

/** Writes `path` at once, as far as a reader can tell: beside it first, then renamed over it. */
async function replace(path, data) {
  await writeFile(at(`${path}.tmp`), data);
  await rename(at(`${path}.tmp`), at(path));
}

const assets = {};
/** Writes `body` as assets/<stem>.<hash>.<ext> (and its compressed copies) and returns its address and SRI hash. */
async function emit(stem, ext, type, body, compress) {
  const sha384 = createHash('sha384').update(body).digest();
  const name = `${stem}.${sha384.toString('hex').slice(0, 16)}.${ext}`;
  const integrity = `sha384-${sha384.toString('base64')}`;
  await replace(`${outDir}/assets/${name}`, body);
  if (compress) {
    await replace(`${outDir}/assets/${name}.gz`, gzipSync(body, { level: 9 }));
    const brotli = brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
    await replace(`${outDir}/assets/${name}.br`, brotli);
  }
  assets[name] = { type, integrity, bytes: body.length };
  return { href: `/admin/assets/${name}`, integrity };
}

const js = await emit('console', 'js', 'text/javascript; charset=utf-8', script, true);
const css = await emit('console', 'css', 'text/css; charset=utf-8', style, true);
const svg = await emit('favicon', 'svg', 'image/svg+xml', icon, false);

/** Replaces the one tag of the template that `pattern` finds; the template and this script must agree. */
function replaceOnce(html, pattern, tag) {
  const found = html.match(new RegExp(pattern.source, 'g')) ?? [];
  if (found.length !== 1) fail(`console/index.html: expected one ${pattern}, found ${found.length}`);
  return html.replace(pattern, tag);
}
let page = (await readFile(at('console/index.html'), 'utf8')).replace(/\s*<!--[\s\S]*?-->/g, '');
page = replaceOnce(page, /<link rel="icon" href="\.\/favicon\.svg"[^>]*>/, `<link rel="icon" href="${svg.href}" type="image/svg+xml" />`);
page = replaceOnce(
  page,
  /<link rel="stylesheet" href="\.\/console\.css"[^>]*>/,
  `<link rel="stylesheet" href="${css.href}" integrity="${css.integrity}" />`,
);
page = replaceOnce(
  page,
  /<script type="module" src="\.\/main\.ts"><\/script>/,
  `<script type="module" src="${js.href}" integrity="${js.integrity}"></script>`,
);
await replace(`${outDir}/index.html`, page);
// Last: the server reads the build again when this file changes.
await replace(`${outDir}/manifest.json`, `${JSON.stringify({ page: 'index.html', assets }, null, 2)}\n`);
// The files of earlier builds, now that no manifest names them.
for (const name of await readdir(at(`${outDir}/assets`))) {
  if (!(name.replace(/\.(br|gz)$/, '') in assets)) await rm(at(`${outDir}/assets/${name}`), { force: true });
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
for (const [name, body] of [
  [js.href, script],
  [css.href, style],
]) {
  console.log(`console ${name}: ${kb(body.length)} raw, ${kb(gzipSync(body, { level: 9 }).length)} gzip`);
}
console.log(`console page ${outDir}/index.html, served at /admin`);
