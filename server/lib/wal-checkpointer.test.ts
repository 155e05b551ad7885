import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { checkpointInBackground, checkpointWorker } from './wal-checkpointer';

const dir = mkdtempSync(join(tmpdir(), 'wal-checkpointer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A WAL database with a table, its checkpoints moved to the worker (or not). */
function open({ background = true } = {}) {
  const file = join(dir, `db-${++files}.sqlite`);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const release = background ? checkpointInBackground(db) : () => {};
  cleanups.push(() => {
    if (db.open) db.close();
    release();
  });
  const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
  const write = (rows: number) => {
    for (let i = 0; i < rows; i++) insert.run('x'.repeat(1_000));
  };
  return { db, file, write, release };
}

const size = (file: string) => (existsSync(file) ? statSync(file).size : 0);

async function eventually(condition: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

describe('WAL checkpoints in a worker thread', () => {
  it('turns automatic checkpoints off on the connection and copies the WAL into the database file in the background', async () => {
    const { db, file, write } = open();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const before = size(file);
    write(2_000); // about 2 MB: twice the default automatic threshold
    // Nothing on this thread copied the pages back: they are all in the WAL still.
    expect(size(file)).toBe(before);
    expect(size(`${file}-wal`)).toBeGreaterThan(1_000_000);
    expect(await eventually(() => size(file) > 1_000_000)).toBe(true);
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 2_000 });
  });

  it('without it, the commit that crosses 1,000 pages copies them itself (what the worker takes away)', () => {
    const { db, file, write } = open({ background: false });
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1_000);
    write(2_000);
    expect(size(file)).toBeGreaterThan(1_000_000);
  });

  it('leaves an in-memory database alone', () => {
    const db = new Database(':memory:');
    cleanups.push(() => db.close());
    checkpointInBackground(db)();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1_000);
  });

  it('gives every connection its automatic checkpoints back when the worker dies', async () => {
    const first = open();
    const second = open();
    expect(checkpointWorker.running()).toBe(true);
    await checkpointWorker.kill();
    expect(await eventually(() => !checkpointWorker.running())).toBe(true);
    for (const { db } of [first, second]) expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1_000);
    // A connection opened afterwards gets a new worker.
    const third = open();
    expect(checkpointWorker.running()).toBe(true);
    expect(third.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
  });

  it('a clean close leaves no WAL behind, the data all in the database file', async () => {
    const { db, file, write, release } = open();
    write(500);
    db.close();
    release();
    expect(await eventually(() => !existsSync(`${file}-wal`))).toBe(true);
    const reopened = new Database(file, { readonly: true });
    cleanups.push(() => reopened.close());
    expect(reopened.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 500 });
  });

  it('counts the connections of one file: the worker keeps serving it until the last one is released', async () => {
    const { file, write } = open();
    const other = new Database(file);
    const releaseOther = checkpointInBackground(other);
    other.close();
    releaseOther();
    const before = size(file);
    write(2_000);
    expect(await eventually(() => size(file) > before + 1_000_000)).toBe(true);
  });
});
