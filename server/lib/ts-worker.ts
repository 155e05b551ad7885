/**
 * A worker thread whose entry is a TypeScript module: it registers tsx itself before loading its entry, so it starts
 * the same under `tsx`, `node --import tsx` and vitest (Node 20 does not carry `--import` hooks into a worker's own
 * entry module). `workerData` reaches the entry as given (with the two fields the bootstrap reads beside it). Under
 * the production build (scripts/build-server.mjs) the entry's bundle starts instead, with plain Node.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** Defined by the production build: each worker entry's source path → its bundle, both from the repository's root. */
declare const BUILT_WORKER_ENTRIES: Record<string, string> | undefined;
const builtEntries = typeof BUILT_WORKER_ENTRIES === 'undefined' ? undefined : BUILT_WORKER_ENTRIES;
const ROOT = new URL('../../', import.meta.url).href;

const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
import(workerData.tsx).then(({ register }) => { register(); return import(workerData.entry); });
`;

/** tsx's ESM API: `require.resolve` finds its CommonJS build, and the ESM one (which registers hooks) lies beside it. */
const tsxApi = () =>
  pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;

/** Starts `entry` (a module's URL) in a new worker thread with `workerData`. */
export function startTypeScriptWorker(entry: URL, workerData: object): Worker {
  if (builtEntries) {
    const bundle = builtEntries[entry.href.slice(ROOT.length)];
    if (!bundle) throw new Error(`${entry.href} is not a worker entry of the build (scripts/build-server.mjs)`);
    return new Worker(new URL(bundle, ROOT), { workerData });
  }
  return new Worker(BOOTSTRAP, { eval: true, workerData: { ...workerData, tsx: tsxApi(), entry: entry.href } });
}
