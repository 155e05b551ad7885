/**
 * The default store: one SQLite file through better-sqlite3. The driver is synchronous; the async `Store` surface
 * lets the BFF swap in PostgreSQL without changes. Every write runs in a BEGIN IMMEDIATE transaction, so a second
 * process on the same file waits for the write lock (busy_timeout) instead of failing or reading a stale row.
 */
import Database from 'better-sqlite3';
import { checkpointInBackground } from '../lib/wal-checkpointer';
import { gaugesPart } from './gauges';
import { migrateSqlite } from './migrate';
import { timedDb, type StoreObserver } from './observer';
import { sharedParts } from './parts';
import { startOnlineMigrations } from './sqlite-online';
import { sqliteReader } from './sqlite-reader';
import { sqliteDb } from './sql/sqlite-executor';
import type { Store } from './types';
import { takeWriteTurns, writeTurnsOf, type WriteTurns } from './write-turns';

export interface SqliteStoreOptions {
  file: string;
  /** How long a write waits for another connection's lock before failing. */
  busyTimeoutMs?: number;
  /** The online half of the pending schema steps starts after this (tests hold it); a second after opening by default. */
  onlineMigrationsAfter?: Promise<void>;
  /** Whose turn it is to write (./write-turns.ts): the request thread's, with this process's counters of `file`, by default. */
  writeTurns?: WriteTurns;
  /** Told how long each unit of work took (./observer.ts). */
  onQuery?: StoreObserver['query'];
}

export function openSqliteStore(options: SqliteStoreOptions): Store {
  const { file, busyTimeoutMs = 5_000, onlineMigrationsAfter, writeTurns, onQuery } = options;
  const db = new Database(file, { timeout: busyTimeoutMs });
  if (!db.memory) takeWriteTurns(db, writeTurns ?? { buffer: writeTurnsOf(file), role: 'request' });
  db.pragma('journal_mode = WAL');
  // WAL with synchronous=NORMAL: a commit is atomic and survives a crash of the process, but the last commits
  // before a power loss or an OS crash may be rolled back (WAL is synced at checkpoints, not at every commit). That
  // is safe here because the provider is the source of truth: a checkout whose activation is lost that way is
  // found again (its reservation is settled against the provider, a webhook of an unknown transaction of ours is
  // adopted) and a lost state change is re-read by the reconciler. See docs/architecture.md, "Durability".
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // A value overwritten or erased (a secret sealed over its clear form, an erased payer's CPF in ./payer-data.ts) is
  // zeroed in the file, not left in a free cell or page.
  db.pragma('secure_delete = ON');
  const online = startOnlineMigrations(db, migrateSqlite(db), onlineMigrationsAfter);
  // Checkpoints (copying the WAL back and its fsync) run in a worker thread, not inside a request's commit.
  const releaseCheckpoints = checkpointInBackground(db);
  // The back office's long reads run in a thread of their own (./sqlite-reader), so they never hold a shopper's request.
  const reader = sqliteReader(db, { timeoutMs: busyTimeoutMs });
  const executor = sqliteDb(db, reader, online.built);
  const parts = onQuery ? timedDb(executor, 'sqlite', onQuery) : executor;

  return {
    ...sharedParts(parts),
    ...gaugesPart(parts),
    // The pages that held erased or overwritten values (an erased payer, a secret sealed over its clear form) live on in
    // the WAL until it is written back and emptied.
    async flushErased() {
      db.pragma('wal_checkpoint(TRUNCATE)');
    },
    async close() {
      await online.stop();
      await reader.close();
      db.close();
      releaseCheckpoints();
    },
  };
}
