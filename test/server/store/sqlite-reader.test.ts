/**
 * The SQLite store's reader thread (server/store/sqlite-reader.ts): a long read on a file runs beside the event loop,
 * not on it (the loop keeps turning while it runs); it sees what the request thread's connection committed; an
 * in-memory database is read in the calling thread (a worker cannot open it); a reader whose thread died reads
 * in the calling thread instead of failing, and in a new thread from the next read on; and the thread's heap is
 * capped (flat memory however long an export).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker as NodeWorker, WorkerOptions } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { READER_HEAP_LIMITS, sqliteReader } from '../../../server/store/sqlite-reader';
import { openSqliteStore } from '../../../server/store/sqlite';
import { at, draftFor } from './store-contract';

/** Every worker thread this file's readers start, with the options it was started with. */
const started = vi.hoisted(() => [] as { worker: NodeWorker; options: WorkerOptions | undefined }[]);
vi.mock('node:worker_threads', async (actual) => {
  const threads = await actual<typeof import('node:worker_threads')>();
  class RecordedWorker extends threads.Worker {
    constructor(source: string | URL, options?: WorkerOptions) {
      super(source, options);
      started.push({ worker: this, options });
    }
  }
  return { ...threads, Worker: RecordedWorker };
});

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

  it('starts its thread with a capped heap', async () => {
    const db = fileDatabase();
    const before = started.length;
    const reader = sqliteReader(db);
    try {
      expect(started.length).toBe(before + 1);
      const { resourceLimits } = started.at(-1)!.options!;
      expect(resourceLimits).toEqual(READER_HEAP_LIMITS);
      expect(resourceLimits!.maxOldGenerationSizeMb).toBeLessThanOrEqual(128);
      expect(resourceLimits!.maxYoungGenerationSizeMb).toBeLessThanOrEqual(16);
    } finally {
      await reader.close();
      db.close();
    }
  });

  it('reads in a new thread after its thread died (a read too big for its heap), the read in between here', async () => {
    const db = fileDatabase();
    db.prepare('INSERT INTO t (id, name) VALUES (?, ?)').run(3, 'three');
    const reader = sqliteReader(db);
    try {
      expect(await reader.all('SELECT name FROM t', [])).toEqual([{ name: 'three' }]);
      const first = started.at(-1)!.worker;
      // Asked while the thread dies: answered all the same.
      const during = reader.all('SELECT name FROM t', []);
      await first.terminate();
      expect(await during).toEqual([{ name: 'three' }]);
      const { turns, result } = await turnsDuring(() => reader.all(LONG_READ, [3_000_000]));
      expect(result).toEqual([{ count: 3_000_000 }]);
      expect(started.at(-1)!.worker).not.toBe(first);
      expect(turns).toBeGreaterThan(1);
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
