// `npm run serve`: the built server (dist/server/main.js, made by `npm run build`) with plain Node. It first checks the
// build is there and newer than every source it was made from (./server-build.mjs), and otherwise stops with one line
// saying to run `npm run build`: a server quietly older than its sources is worse than none. The container starts
// dist/server/main.js itself (it holds no sources to compare).
import { fileURLToPath } from 'node:url';
import { buildProblem } from './server-build.mjs';

const problem = buildProblem(fileURLToPath(new URL('..', import.meta.url)));
if (problem) {
  console.error(problem);
  process.exit(1);
}
// The build's entry by its address, not a literal specifier: it exists only after `npm run build`, so the layer
// check (which resolves literal imports) would call it missing on a fresh clone.
await import(new URL('../dist/server/main.js', import.meta.url).href);
