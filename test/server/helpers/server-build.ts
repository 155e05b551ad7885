/**
 * The server build (`npm run build` → dist/server) for the tests that start it with plain Node: `npm test` builds it
 * before the server tests; a test run alone builds it here when it is missing or older than its sources.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildProblem } from '../../../scripts/server-build.mjs';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Builds the server unless its build is there and fresh; throws with the build's output when it fails. */
export function ensureServerBuild(): void {
  if (!buildProblem(ROOT)) return;
  const built = spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`the server build failed:\n${built.stdout}${built.stderr}`);
}

/** The environment of a child that runs plain Node: the test runner's loaders (NODE_OPTIONS) left out. */
export function plainNodeEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const { NODE_OPTIONS: _loaders, ...inherited } = process.env;
  return { ...inherited, ...env };
}

/** Asks `probe` every 50 ms until it returns something, then returns it; fails naming `what` after `timeoutMs`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
