// Builds the drop-in element into dist/widget (Vite, vite.config.ts):
//
//   dist/widget/pix-checkout.js                  the bundle (the package's `pix-checkout/widget`)
//   dist/widget/pix-checkout.<hash>.js(.br|.gz)  the same bytes under a content-hashed name, precompressed for the server
//   dist/widget/integrity.json                   { file, integrity, bytes, gzip, brotli }: hashed name and SRI hash
//
// and prints the sizes (raw, gzip, brotli) and the <script> tag with its integrity hash. With --types it also writes
// the element package's declarations, which a type error then stops:
//
//   dist/types/  .d.ts of widget/ and the core/ modules it uses, and widget/jsx.d.ts and widget/types.d.ts
//
// With --package <dir> (packages/pix-checkout's `prepack` passes it) the bundle, its integrity.json and the
// declarations are copied under <dir>/dist, so `npm pack packages/pix-checkout` packs the element alone, with no
// dependency of the server.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (path) => new URL(`../${path}`, import.meta.url);
const outDir = 'dist/widget';
const bundle = `${outDir}/pix-checkout.js`;

function fail(error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

try {
  await build({ root, configFile: fileURLToPath(at('vite.config.ts')), logLevel: 'warn' });
} catch (error) {
  fail(error);
}

const code = await readFile(at(bundle));
const sha384 = createHash('sha384').update(code).digest();
const integrity = `sha384-${sha384.toString('base64')}`;
// The name changes whenever a byte does, so the server can let browsers keep it for a year.
const file = `pix-checkout.${sha384.toString('hex').slice(0, 16)}.js`;
const gzip = gzipSync(code, { level: 9 });
const brotli = brotliCompressSync(code, {
  params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: code.length },
});
await writeFile(at(`${outDir}/${file}`), code);
await writeFile(at(`${outDir}/${file}.gz`), gzip);
await writeFile(at(`${outDir}/${file}.br`), brotli);
// Written last: the server reads the bundle again when this file changes.
const manifest = { file, integrity, bytes: code.length, gzip: gzip.length, brotli: brotli.length };
await writeFile(at(`${outDir}/integrity.json`), `${JSON.stringify(manifest, null, 2)}\n`);

// Declarations for the package, with --types: tsc emits those of widget/index.ts and what it imports; the two hand-written ones
// (the JSX/Vue declarations and the entry that adds them) are copied beside them.
if (process.argv.includes('--types')) {
  await rm(at('dist/types'), { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const emitted = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, encoding: 'utf8' });
  if (emitted.status !== 0) fail(`declarations (tsconfig.build.json) failed:\n${emitted.stdout}${emitted.stderr}`);
  for (const name of ['jsx.d.ts', 'types.d.ts']) await copyFile(at(`widget/${name}`), at(`dist/types/widget/${name}`));
  console.log('widget types dist/types/widget/types.d.ts');
}

const packageAt = process.argv.indexOf('--package');
if (packageAt !== -1) {
  const target = process.argv[packageAt + 1];
  if (!target || !process.argv.includes('--types')) fail('--package <dir> needs a folder, and --types');
  const into = new URL(`../${target}/dist/`, import.meta.url);
  await rm(into, { recursive: true, force: true });
  await mkdir(new URL('widget/', into), { recursive: true });
  await copyFile(at(bundle), new URL('widget/pix-checkout.js', into));
  await copyFile(at(`${outDir}/integrity.json`), new URL('widget/integrity.json', into));
  await cp(at('dist/types'), new URL('types', into), { recursive: true });
  console.log(`element package ${target}/dist: the bundle, integrity.json and the declarations`);
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
console.log(`widget bundle ${bundle}: ${kb(code.length)} raw, ${kb(gzip.length)} gzip, ${kb(brotli.length)} brotli`);
console.log(`  served as /widget/${file} (immutable) and /widget/pix-checkout.js; SRI in ${outDir}/integrity.json:`);
console.log(`  <script type="module" src="https://<bff>/widget/${file}" integrity="${integrity}" crossorigin="anonymous"></script>`);
