import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { lineCount, MAX_LINES, overLong } from './file-lengths';

const root = fileURLToPath(new URL('..', import.meta.url));

const planted: string[] = [];
afterAll(() => planted.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
/** A throw-away repository holding `files` (path → number of lines). */
function plant(files: Record<string, number>) {
  const dir = mkdtempSync(join(tmpdir(), 'file-lengths-'));
  planted.push(dir);
  for (const [path, lines] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), 'x\n'.repeat(lines));
  }
  return dir;
}

describe('production files', () => {
  it(`are at most ${MAX_LINES} lines each`, () => {
    expect(overLong(root)).toEqual([]);
  });
});

describe('the length check', () => {
  it('finds a long file in any production folder or at the root, and not tests, builds or run logs', () => {
    const dir = plant({
      'server/lib/long.ts': 301,
      'console/long.css': 400,
      'long.config.mjs': 301,
      'bench/fine.ts': 300,
      'server/lib/long.test.ts': 900,
      'test/server/long.test.ts': 900,
      'test/server/helpers/long.ts': 900,
      'dist/widget/pix-checkout.js': 900,
      'bench/runs/2026-01-01.html': 900,
      'bench/results/baseline.md': 900,
      'docs/long.md': 900,
      'demo/node_modules/x/index.js': 900,
    });
    expect(overLong(dir)).toEqual([
      { file: 'console/long.css', lines: 400 },
      { file: 'long.config.mjs', lines: 301 },
      { file: 'server/lib/long.ts', lines: 301 },
    ]);
  });

  it('counts a last line without its newline', () => {
    expect([lineCount(''), lineCount('a'), lineCount('a\n'), lineCount('a\nb')]).toEqual([0, 1, 1, 2]);
  });
});
