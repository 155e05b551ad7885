// Whether the server build (dist/server, scripts/build-server.mjs) can be started as it is: `npm run serve`
// (scripts/serve.mjs) asks before it starts it, and the tests that start it ask before they build it again.
import { readFileSync, statSync } from 'node:fs';

/**
 * Why the build under `root` (the repository's folder, ending in a slash) cannot be started: missing, or older than
 * one of the sources it was made from (dist/server/build.json lists them); undefined when it can. One line, naming
 * `npm run build`.
 */
export function buildProblem(root) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(`${root}dist/server/build.json`, 'utf8'));
    statSync(`${root}dist/server/main.js`);
  } catch {
    return 'serve: no server build (dist/server); run `npm run build` first.';
  }
  for (const input of manifest.inputs) {
    let changed;
    try {
      changed = statSync(`${root}${input}`).mtimeMs > manifest.builtAt;
    } catch {
      changed = true;
    }
    if (changed) return `serve: the server build (dist/server) is older than ${input}; run \`npm run build\` again.`;
  }
  return undefined;
}
