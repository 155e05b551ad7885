// Builds the server to JavaScript in dist/server, so `npm run serve` (scripts/serve.mjs) and the container start it
// with plain `node`, with no TypeScript loader and no build at start:
//
//   dist/server/main.js          `npm run serve`'s server (server/main.ts)
//   dist/server/admin-cli.js     `npm run admin`'s commands (server/admin-cli.ts), for a machine without the sources
//   dist/server/thread-entry.js  the merchant webhooks' delivery thread (server/merchant-webhooks/thread-entry.ts)
//   dist/server/chunk-*.js       the code they share (ES modules, split by esbuild)
//   dist/server/build.json       { builtAt, inputs }: when, and from which sources (scripts/serve.mjs compares them)
//
// Every package stays outside the bundle and is loaded from node_modules at run time: better-sqlite3 is a native
// addon, and pino and the worker threads (server/lib/wal-checkpointer.ts, server/store/sqlite-reader.ts) resolve
// packages by name from where they run.
//
// A module reads files beside its source (server/pay-page.ts its page's script, server/server.ts ../dist/widget), so
// each module's `import.meta.url` is its source file's address, computed from the bundle's own: the build needs the
// source tree's layout at run time, not its TypeScript (the container copies server/pay-page/ for that reason). The
// delivery thread's entry is a TypeScript module under the sources; built, server/lib/ts-worker.ts starts its
// bundle instead, named in BUILT_WORKER_ENTRIES.
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = 'dist/server';
/** Built beside dist/server and renamed in place whole, so a server starting meanwhile never finds half a build. */
const scratch = `dist/.server-build-${process.pid}`;
const posix = (path) => path.split(sep).join('/');

const ENTRIES = {
  main: 'server/main.ts',
  'admin-cli': 'server/admin-cli.ts',
  'thread-entry': 'server/merchant-webhooks/thread-entry.ts',
};
/** The worker entries by source path → their bundle, both from the repository's root (server/lib/ts-worker.ts). */
const WORKERS = { [ENTRIES['thread-entry']]: `${outDir}/thread-entry.js` };

/** Each of our modules' `import.meta.url` becomes its source file's URL, resolved from the bundle (all in one folder). */
const sourceUrls = {
  name: 'source-urls',
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
      const text = await readFile(path, 'utf8');
      if (path.includes(`${sep}node_modules${sep}`) || !text.includes('import.meta.url')) return undefined;
      const fromBundle = JSON.stringify(posix(relative(`${root}${outDir}`, path)));
      return { contents: text.replaceAll('import.meta.url', `new URL(${fromBundle}, import.meta.url).href`), loader: 'ts' };
    });
  },
};

try {
  await rm(`${root}${scratch}`, { recursive: true, force: true });
  const builtAt = Date.now();
  const result = await build({
    absWorkingDir: root,
    entryPoints: ENTRIES,
    outdir: scratch,
    bundle: true,
    splitting: true,
    chunkNames: 'chunk-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
    define: { BUILT_WORKER_ENTRIES: JSON.stringify(WORKERS) },
    plugins: [sourceUrls],
  });
  const inputs = Object.keys(result.metafile.inputs)
    .filter((input) => !input.startsWith('<') && !input.includes('node_modules/'))
    .sort();
  await writeFile(`${root}${scratch}/build.json`, `${JSON.stringify({ builtAt, inputs }, null, 2)}\n`);
  await mkdir(`${root}dist`, { recursive: true });
  await rm(`${root}${outDir}`, { recursive: true, force: true });
  await rename(`${root}${scratch}`, `${root}${outDir}`);
  const bytes = Object.entries(result.metafile.outputs)
    .filter(([file]) => file.endsWith('.js'))
    .reduce((sum, [, output]) => sum + output.bytes, 0);
  console.log(
    `${outDir}: ${Object.keys(ENTRIES).length} entries from ${inputs.length} sources, ${(bytes / 1024).toFixed(0)} KiB of JavaScript`,
  );
} catch (error) {
  await rm(`${root}${scratch}`, { recursive: true, force: true });
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
