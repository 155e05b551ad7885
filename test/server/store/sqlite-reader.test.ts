/**
 * The SQLite store's reader thread (server/store/sqlite-reader.ts): a long read on a file runs beside the event loop,
 * not on it (the loop keeps turning while it runs); it sees what the request thread's connection committed; an
 * in-memory database is read in the calling thread (a worker cannot open it); and a reader whose thread died reads
 * in the calling thread instead of failing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteReader } from '../../../server/store/sqlite-reader';
import { openSqliteStore } from '../../../server/store/sqlite';
import { at, draftFor } from './store-contract';

const dir = mkdtempSync(join(tmpdir(), 'sqlite-reader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** A read that takes a while whatever the machine: counts through a few million rows of a recursive CTE. */
const LONG_READ = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) SELECT count(*) AS count FROM n`;

function fileDatabase() {
  const db = new Database(join(dir, `reader-${++files}.sqlite`));
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
  return db;
}

/** How many times the event loop turned while `work` ran. */
async function turnsDuring(work: () => Promise<unknown>) {
  let turns = 0;
  let running = true;
  const spin = () => {
    if (!running) return;
    turns++;
    setImmediate(spin);
  };
  setImmediate(spin);
  const result = await work();
  running = false;
  return { turns, result };
}

describe('sqliteReader', () => {
  it('runs a long read on a file beside the event loop, which keeps turning', async () => {
    const db = fileDatabase();
    const reader = sqliteReader(db);
    try {
      const { turns, result } = await turnsDuring(() => reader.all(LONG_READ, [3_000_000]));
      expect(result).toEqual([{ count: 3_000_000 }]);
      expect(turns).toBeGreaterThan(1);
    } finally {
      await reader.close();
      db.close();
    }
  });

  it('sees what the other connection committed before the read was asked', async () => {
    const db = fileDatabase();
    const reader = sqliteReader(db);
    try {
      expect(await reader.all('SELECT * FROM t', [])).toEqual([]);
      db.prepare('INSERT INTO t (id, name) VALUES (?, ?)').run(1, 'one');
      expect(await reader.all('SELECT * FROM t WHERE id = @id', { id: 1 })).toEqual([{ id: 1, name: 'one' }]);
    } finally {
      await reader.close();
      db.close();
    }
  });

  it('reads an in-memory database in the calling thread', async () => {
    const db = new Database(':memory:');
    const reader = sqliteReader(db);
    try {
      db.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY); INSERT INTO t VALUES (7)`);
      const { turns, result } = await turnsDuring(() => reader.all(LONG_READ, [3_000_000]));
      expect(result).toEqual([{ count: 3_000_000 }]);
      // Synchronous in this thread: the loop could not turn while it ran.
      expect(turns).toBe(0);
      expect(await reader.all('SELECT id FROM t', [])).toEqual([{ id: 7 }]);
    } finally {
      await reader.close();
      db.close();
    }
  });

  it('reads in the calling thread once its thread is gone', async () => {
    const db = fileDatabase();
    db.prepare('INSERT INTO t (id, name) VALUES (?, ?)').run(2, 'two');
    const reader = sqliteReader(db);
    await reader.close();
    expect(await reader.all('SELECT name FROM t', [])).toEqual([{ name: 'two' }]);
    db.close();
  });

  it("serves an in-memory store's payments list, its indexes built at open", async () => {
    const store = openSqliteStore({ file: ':memory:' });
    try {
      const draft = draftFor('O-1', { id: 'co-1', createdAt: at(1), expiresAt: at(31) });
      await store.insertActive(draft, { state: 'Completed', transactionId: 'tx-1', details: {} }, 'webhook', null, at(1));
      expect((await store.listCheckouts({ states: ['Completed'] }, 10)).map((c) => c.id)).toEqual(['co-1']);
      expect(await store.refundsOf(['co-1'])).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
