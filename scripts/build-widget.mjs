// Builds the drop-in element into dist/widget (Vite, vite.config.ts):
//
//   dist/widget/pix-checkout.js                  the entry (the package's `pix-checkout/widget`)
//   dist/widget/pix-checkout.<hash>.js(.br|.gz)  the same bytes under a content-hashed name, precompressed for the server
//   dist/widget/pix-checkout-<name>.<hash>.js(.br|.gz)  the chunks loaded on demand (widget/chunks.ts)
//   dist/widget/integrity.json                   { file, integrity, bytes, gzip, brotli, chunks }: hashed name and SRI
//                                                hash of the entry, and { name, file, integrity, … } of each chunk
//
// The entry holds each chunk's integrity hash (widget/chunks.ts checks a chunk against it before importing it), so
// the page's one `integrity` attribute covers every byte the element runs. The package's build (--package) leaves
// that out: a merchant's bundler renames the chunks, and then checks nothing (packages/pix-checkout/README.md).
//
// and prints the sizes (raw, gzip, brotli) and the <script> tag with its integrity hash. With --types it also writes
// the element package's declarations, which a type error then stops:
//
//   dist/types/  .d.ts of widget/ and the core/ modules it uses, and widget/jsx.d.ts and widget/types.d.ts
//
// With --package <dir> (packages/pix-checkout's `prepack` passes it, with --types) the bundle, its integrity.json and
// the declarations go under <dir>/dist instead, built in a scratch folder of the system's temporary directory, so
// `npm pack ./packages/pix-checkout` packs the element alone, with no dependency of the server, and leaves dist/widget
// and dist/types (what a running server and `npm run build` read) as they were.
//
// Always Lit's production build, whatever NODE_ENV is (vite.config.ts merges scripts/production.mjs); a bundle that
// holds Lit's development build anyway stops the build.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { copyFile, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'vite';
import { assertProduction } from './production.mjs';
import { chunkList, sri, withChunkIntegrity } from './widget-chunks.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const withTypes = process.argv.includes('--types');
const packageAt = process.argv.indexOf('--package');
const target = packageAt === -1 ? undefined : process.argv[packageAt + 1];

function fail(error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

if (packageAt !== -1 && (!target || target.startsWith('--') || !withTypes)) fail('--package <dir> needs a folder, and --types');
const scratch = target ? await mkdtemp(join(tmpdir(), 'pix-checkout-package-')) : undefined;
// Gone however the build ends, fail() included.
if (scratch) process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
const outDir = scratch ? join(scratch, 'widget') : join(root, 'dist/widget');
const typesDir = scratch ? join(scratch, 'types') : join(root, 'dist/types');
const bundle = join(outDir, 'pix-checkout.js');
const shown = (path) => relative(root, path);

const found = [];
try {
  await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'warn', plugins: [chunkList(found)], build: { outDir } });
} catch (error) {
  fail(error);
}

const compress = (code) => ({
  gzip: gzipSync(code, { level: 9 }),
  brotli: brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: code.length } }),
});
/** Writes the precompressed copies of `file` (in outDir) for the server; returns the sizes for the manifest. */
async function precompress(file, code) {
  const { gzip, brotli } = compress(code);
  await writeFile(join(outDir, `${file}.gz`), gzip);
  await writeFile(join(outDir, `${file}.br`), brotli);
  return { bytes: code.length, gzip: gzip.length, brotli: brotli.length };
}

const chunks = [];
for (const { name, file } of found) {
  const chunk = await readFile(join(outDir, file));
  try {
    assertProduction(chunk, shown(join(outDir, file)));
  } catch (error) {
    fail(error);
  }
  chunks.push({ name, file, integrity: sri(chunk), ...(await precompress(file, chunk)) });
}
let code = await readFile(bundle);
try {
  assertProduction(code, shown(bundle));
  if (!scratch) {
    code = Buffer.from(withChunkIntegrity(code.toString('utf8'), chunks));
    await writeFile(bundle, code);
  }
} catch (error) {
  fail(error);
}
const sha384 = createHash('sha384').update(code).digest();
const integrity = `sha384-${sha384.toString('base64')}`;
// The name changes whenever a byte does, so the server can let browsers keep it for a year.
const file = `pix-checkout.${sha384.toString('hex').slice(0, 16)}.js`;
await writeFile(join(outDir, file), code);
const sizes = await precompress(file, code);
// Written last: the server reads the bundle again when this file changes.
const manifest = { file, integrity, ...sizes, chunks };
await writeFile(join(outDir, 'integrity.json'), `${JSON.stringify(manifest, null, 2)}\n`);

// Declarations for the package, with --types: tsc emits those of widget/index.ts and what it imports; the two hand-written ones
// (the JSX/Vue declarations and the entry that adds them) are copied beside them.
if (withTypes) {
  await rm(typesDir, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const emitted = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', typesDir], { cwd: root, encoding: 'utf8' });
  if (emitted.status !== 0) fail(`declarations (tsconfig.build.json) failed:\n${emitted.stdout}${emitted.stderr}`);
  for (const name of ['jsx.d.ts', 'types.d.ts']) await copyFile(join(root, 'widget', name), join(typesDir, 'widget', name));
  if (!scratch) console.log(`widget types ${shown(typesDir)}/widget/types.d.ts`);
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
if (target && scratch) {
  const into = join(root, target, 'dist');
  await rm(into, { recursive: true, force: true });
  await mkdir(join(into, 'widget'), { recursive: true });
  await copyFile(bundle, join(into, 'widget/pix-checkout.js'));
  for (const chunk of chunks) await copyFile(join(outDir, chunk.file), join(into, 'widget', chunk.file));
  await copyFile(join(outDir, 'integrity.json'), join(into, 'widget/integrity.json'));
  await cp(typesDir, join(into, 'types'), { recursive: true });
  console.log(
    `element package ${target}/dist: the bundle (${kb(code.length)} raw, ${kb(sizes.gzip)} gzip), its ${chunks.length} chunks, integrity.json and the declarations`,
  );
} else {
  console.log(`widget bundle ${shown(bundle)}: ${kb(code.length)} raw, ${kb(sizes.gzip)} gzip, ${kb(sizes.brotli)} brotli`);
  for (const chunk of chunks) console.log(`  on demand: ${chunk.name} ${chunk.file}, ${kb(chunk.gzip)} gzip (SRI in the entry)`);
  console.log(`  served as /widget/${file} (immutable) and /widget/pix-checkout.js; SRI in ${shown(outDir)}/integrity.json:`);
  console.log(`  <script type="module" src="https://<bff>/widget/${file}" integrity="${integrity}" crossorigin="anonymous"></script>`);
}
