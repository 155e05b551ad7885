/**
 * The SQLite store's side of the online schema steps (./migrate-online.ts): starts the build of what `migrateSqlite`
 * left pending, and tells the store's queries which indexes exist meanwhile.
 */
import type Database from 'better-sqlite3';
import { buildOnlineSqlite } from './migrate-online';
import type { Migration } from './migration-step';

export function startOnlineMigrations(db: Database.Database, pending: readonly Migration[], after?: Promise<void>) {
  const names = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index'`).pluck();
  let indexes = new Set(names.all() as string[]);
  const build = pending.length > 0 ? buildOnlineSqlite(db.name, pending, after ? { after } : {}) : undefined;
  build?.done.then(
    () => {
      if (db.open) indexes = new Set(names.all() as string[]);
    },
    // The store goes on without the indexes (slower lists, the same rows); the next start builds them again.
    (error: unknown) => console.error('sqlite store: an online schema step failed; the next start tries again:', error),
  );
  return {
    /** Whether the index exists (built before the store opened, or since). */
    built: (index: string) => indexes.has(index),
    stop: async () => build?.stop(),
  };
}
