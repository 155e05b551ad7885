/**
 * No production file over 300 lines (docs/style.md: one job per file, split past ~300): ./file-lengths.test.ts fails
 * on one. Production is the code we write and ship or run, in every folder of it and at the root: tests (`test/`,
 * `*.test.ts`) and what a build, a run or a package manager writes (dist/, data, bench/runs/, bench/results/) are not.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const MAX_LINES = 300;

/** The folders of production code; the files at the root (configs) count too. */
const PRODUCTION_FOLDERS = ['core', 'server', 'widget', 'console', 'demo', 'bench', 'scripts', 'packages'];
const CODE = /\.(?:[cm]?[jt]s|css|html)$/;
const NOT_PRODUCTION = /(?:^|\/)(?:node_modules|dist|data|\.data|coverage)\/|^bench\/(?:results|runs)\/|\.test\.[cm]?[jt]s$/;

/** The production files under `root` (paths from `root`), sorted. */
export function productionFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const name = relative(root, path);
      if (entry.isDirectory()) {
        if (!NOT_PRODUCTION.test(`${name}/`)) walk(path);
      } else if (CODE.test(entry.name) && !NOT_PRODUCTION.test(name)) found.push(name);
    }
  };
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (entry.isDirectory() && PRODUCTION_FOLDERS.includes(entry.name)) walk(join(root, entry.name));
    else if (entry.isFile() && CODE.test(entry.name) && !NOT_PRODUCTION.test(entry.name)) found.push(entry.name);
  }
  return found.sort();
}

/** Lines of `text`, a last line without its newline counted too. */
export const lineCount = (text: string) => (text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));

/** The production files under `root` longer than MAX_LINES, each with its length. */
export const overLong = (root: string) =>
  productionFiles(root)
    .map((file) => ({ file, lines: lineCount(readFileSync(join(root, file), 'utf8')) }))
    .filter(({ lines }) => lines > MAX_LINES);
