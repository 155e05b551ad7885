/**
 * The request thread and the delivery thread take turns at SQLite's write lock (server/store/write-turns.ts). Both
 * connections here have no busy timeout at all, so a write that met the other's open transaction would fail with
 * SQLITE_BUSY at once: with turns, the request thread's write waits for the background's commit, and the background's
 * waits while the request thread writes.
 *
 * Each side here waits up to `WAIT_MS` for its turn, not the server's 20 ms: on a loaded machine a thread can be off
 * its core for longer than the other's 10 ms hold, and the wait's bound is not what these tests are about.
 */
import Database from 'better-sqlite3';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTypeScriptWorker } from '../../../server/lib/ts-worker';
import { takeWriteTurns, writeTurnsOf } from '../../../server/store/write-turns';

const entry = new URL('./fixtures/turn-writer.ts', import.meta.url);
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

const WAIT_MS = 5_000;

type FromWriter = { op: 'ready' | 'holding' | 'wrote' } | { op: 'failed'; message: string };

describe('write turns between the request thread and the delivery thread', () => {
  let dir: string;
  let file: string;
  let worker: Worker;
  const next = async (): Promise<FromWriter> => ((await once(worker, 'message')) as [FromWriter])[0];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'write-turns-'));
    file = join(dir, 'turns.sqlite');
    const setup = new Database(file);
    setup.pragma('journal_mode = WAL');
    setup.exec('CREATE TABLE rows (n INTEGER PRIMARY KEY, who TEXT NOT NULL)');
    setup.close();
    worker = startTypeScriptWorker(entry, { file, buffer: writeTurnsOf(file), waitMs: WAIT_MS });
    expect(await next()).toEqual({ op: 'ready' });
  });
  afterEach(async () => {
    await worker.terminate();
    rmSync(dir, { recursive: true, force: true });
  });

  const connection = (turns: boolean) => {
    const db = new Database(file, { timeout: 0 });
    if (turns) takeWriteTurns(db, { buffer: writeTurnsOf(file), role: 'request', waitMs: WAIT_MS });
    return db;
  };
  const order = (db: Database.Database) => (db.prepare('SELECT who FROM rows ORDER BY n').all() as { who: string }[]).map((r) => r.who);

  it("waits for the background's open transaction instead of failing, and writes after it", async () => {
    const db = connection(true);
    worker.postMessage({ op: 'hold', holdMs: 10 });
    expect(await next()).toEqual({ op: 'holding' });
    db.transaction(() => db.prepare("INSERT INTO rows (who) VALUES ('request')").run()).immediate();
    expect(await next()).toEqual({ op: 'wrote' });
    expect(order(db)).toEqual(['background', 'request']);
    db.close();
  });

  it('fails with SQLITE_BUSY in the same moment without turns (what the busy handler would sleep on)', async () => {
    const db = connection(false);
    // Held long enough that the background is still in it when this thread hears it began, however loaded the machine.
    worker.postMessage({ op: 'hold', holdMs: 200 });
    expect(await next()).toEqual({ op: 'holding' });
    expect(() => db.transaction(() => db.prepare("INSERT INTO rows (who) VALUES ('request')").run()).immediate()).toThrow(/locked|busy/i);
    expect(await next()).toEqual({ op: 'wrote' });
    db.close();
  });

  it("holds the background's write back while the request thread writes", async () => {
    const db = connection(true);
    db.transaction(() => {
      db.prepare("INSERT INTO rows (who) VALUES ('request')").run();
      worker.postMessage({ op: 'write', holdMs: 0 });
      // The background thread asks for its turn meanwhile; without one it would fail at once on the open write.
      pause(10);
    }).immediate();
    expect(await next()).toEqual({ op: 'wrote' });
    expect(order(db)).toEqual(['request', 'background']);
    db.close();
  });
});
