import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { testsDrivingNothing, whatItDrives } from './test-layout';

const root = fileURLToPath(new URL('..', import.meta.url));

/** A throw-away repository holding `files` (path → text). */
function plant(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'test-layout-'));
  planted.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
const planted: string[] = [];
afterAll(() => planted.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('the tests under test/', () => {
  it('each drive a server, a socket, a database, a process or a browser (unit tests sit beside their module)', () => {
    expect(testsDrivingNothing(root)).toEqual([]);
  });
});

describe('what a test drives', () => {
  it('finds a pure test under test/, and nothing it drives', () => {
    const dir = plant({
      'test/server/money.test.ts':
        "import { expect, it } from 'vitest';\nimport { cents } from '../../core/money';\nit('adds', () => expect(cents(1)).toBe(1));\n",
      'core/money.ts': "import { request } from 'node:http';\nexport const cents = (n: number) => n;\n",
    });
    expect(whatItDrives(dir, 'test/server/money.test.ts')).toEqual([]);
    expect(testsDrivingNothing(dir)).toEqual(['test/server/money.test.ts']);
  });

  it('does not count a call or an import that a comment names, nor a type-only import', () => {
    const dir = plant({
      'test/a.test.ts':
        "import type { Server } from 'node:http';\n// app.request('/') and fetch('/') are for the other suite\n/* openStore() */\n",
    });
    expect(testsDrivingNothing(dir)).toEqual(['test/a.test.ts']);
  });

  it.each([
    ["import { createServer } from 'node:http';", 'a socket (node:http)'],
    ["import { spawn } from 'node:child_process';", 'a process (node:child_process)'],
    ["import Database from 'better-sqlite3';", 'a database (better-sqlite3)'],
    ["import { chromium } from 'playwright-core';", 'a browser (playwright-core)'],
    ["const res = await app.request('/api');", 'a server (app.request)'],
    ["const res = await fetch('http://127.0.0.1/');", 'a server (fetch)'],
    ['const store = await openSqliteStore(file);', 'a database (a store)'],
    ['const el = await fixture<HTMLElement>(html`<pix-checkout></pix-checkout>`);', "a browser (the page's DOM)"],
  ])('sees `%s` as driving %s', (line, reason) => {
    const dir = plant({ 'test/a.test.ts': `${line}\n` });
    expect(whatItDrives(dir, 'test/a.test.ts')).toEqual([reason]);
  });

  it('counts what a helper under test/ or bench/ drives for the test that imports it, and not what the module under test does', () => {
    const dir = plant({
      'test/a.test.ts': "import { startServer } from './helpers/server.js';\n",
      'test/helpers/server.ts': "export { cycles } from '../../bench/cycles';\n",
      'bench/cycles.ts': "import { listenOnLoopback } from './net';\nexport const cycles = () => listenOnLoopback();\n",
      'bench/net.ts': "import { createServer } from 'node:net';\nexport const listenOnLoopback = () => createServer();\n",
      'test/b.test.ts': "import { handler } from '../server/app';\n",
      'server/app.ts': "import { createServer } from 'node:http';\nexport const handler = createServer();\n",
    });
    expect(whatItDrives(dir, 'test/a.test.ts')).toEqual(['a socket (node:net, in bench/net.ts)']);
    expect(testsDrivingNothing(dir)).toEqual(['test/b.test.ts']);
  });
});
