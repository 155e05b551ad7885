/**
 * Where a test lives says what it is: a file under `test/` drives something real (a server, in-process through
 * `app.request` or on a socket; a database; another process or thread; a browser page), and a test that drives
 * nothing is a unit test, which sits beside its module (vitest.config.ts). ./test-layout.test.ts fails on any file
 * under `test/` that drives nothing.
 *
 * What a file drives is read from its text: the modules it imports and the calls it makes, with those of the helpers
 * it imports from `test/` and `bench/` (the harness), whose whole job is to drive something. The module under test is
 * not followed: that it opens a socket somewhere says nothing about what the test does.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Imported modules that open a socket, a database, a process or thread, or a browser. */
const DRIVER_MODULES: Readonly<Record<string, string>> = {
  'node:http': 'a socket',
  'node:https': 'a socket',
  'node:http2': 'a socket',
  'node:net': 'a socket',
  'node:tls': 'a socket',
  'node:dgram': 'a socket',
  'node:child_process': 'a process',
  'node:worker_threads': 'a thread',
  '@hono/node-server': 'a server',
  'better-sqlite3': 'a database',
  pg: 'a database',
  'playwright-core': 'a browser',
  '@web/test-runner-commands': 'a browser',
};

/** Calls that drive a server, a store or the browser's page without importing one of the modules above. */
const DRIVER_CALLS: readonly { pattern: RegExp; drives: string }[] = [
  { pattern: /\.request\(/, drives: 'a server (app.request)' },
  { pattern: /\bfetch\(/, drives: 'a server (fetch)' },
  { pattern: /\.listen\(|\blisten\(/, drives: 'a server (listen)' },
  { pattern: /\bopen(?:Sqlite|Postgres)?Store\(/, drives: 'a database (a store)' },
  { pattern: /\bcreateSandbox\(/, drives: 'a server (the emulator)' },
  { pattern: /\bfixture\s*(?:<[^>(]*>)?\(|\brender\(/, drives: "a browser (the page's DOM)" },
];

/** The folders whose modules a test imports to drive something, and so are read with it. */
const HARNESS = ['test/', 'bench/'];

/** Imports that load a module when the file runs (`import type` loads nothing). */
const IMPORTS = [
  /\b(?:import|export)\s+(?!type\s)[^;]*?\bfrom\s*['"]([^'"]+)['"]/g,
  /\bimport\s*['"]([^'"]+)['"]/g,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
];

/** The text without its comments, so that a call a comment names does not count. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

const specifiersOf = (text: string) => IMPORTS.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => m[1]!));

/** The file a relative specifier names (`./x`, `./x.js` → `./x.ts`), or undefined when none is on disk. */
function resolveRelative(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(?:js|mjs)$/, '');
  return [base, `${stem}.ts`, `${stem}.mts`, `${stem}.mjs`, `${stem}.js`, join(base, 'index.ts')].find(
    (file) => existsSync(file) && statSync(file).isFile(),
  );
}

/**
 * What `file` (a path under `root`) drives, one reason per finding ("a socket (node:http, in test/helpers/http.ts)"):
 * empty for a file that drives nothing.
 */
export function whatItDrives(root: string, file: string): string[] {
  const reasons: string[] = [];
  const seen = new Set<string>();
  const start = resolve(root, file);
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    const text = code(readFileSync(path, 'utf8'));
    const where = path === start ? '' : `, in ${relative(root, path)}`;
    for (const specifier of specifiersOf(text)) {
      if (specifier.startsWith('.')) {
        const target = resolveRelative(path, specifier);
        if (target && HARNESS.some((folder) => relative(root, target).startsWith(folder))) visit(target);
      } else if (Object.hasOwn(DRIVER_MODULES, specifier)) reasons.push(`${DRIVER_MODULES[specifier]} (${specifier}${where})`);
    }
    for (const { pattern, drives } of DRIVER_CALLS) if (pattern.test(text)) reasons.push(`${drives}${where}`);
  };
  visit(start);
  return reasons;
}

/** The test files under `root`/test (paths from `root`), sorted. */
export function testFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.test\.[cm]?[jt]s$/.test(entry.name)) found.push(relative(root, path));
    }
  };
  if (existsSync(join(root, 'test'))) walk(join(root, 'test'));
  return found.sort();
}

/** The test files under `root`/test that drive nothing: unit tests to move beside their module. */
export const testsDrivingNothing = (root: string) => testFiles(root).filter((file) => whatItDrives(root, file).length === 0);
