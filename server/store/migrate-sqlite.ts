/**
 * Applies the SQLite store's missing schema steps (./migrations) when it opens, inside one write transaction, so
 * processes opening the file together take turns. The indexes of an online step (./migration-step.ts) are built
 * there too when their tables are empty or the database is in memory; otherwise the step is left to
 * `buildOnlineSqlite` (./migrate-online.ts), which the store starts once it is open.
 */
import type Database from 'better-sqlite3';
import { tableOf, type Migration } from './migration-step';
import { migrations } from './migrations';

export const SCHEMA_MIGRATIONS_SQLITE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT`;

/** An online index's statement; IF NOT EXISTS, so a build cut short (or made by another process) is taken as it is. */
export const createIndexSqlite = (index: { name: string; sqlite: string }) => `CREATE INDEX IF NOT EXISTS ${index.name} ON ${index.sqlite}`;

/** Applies `steps` missing from the file; returns the online steps left to build after the store opens. */
export function migrateSqlite(db: Database.Database, steps: readonly Migration[] = migrations): Migration[] {
  const pending: Migration[] = [];
  db.transaction(() => {
    db.exec(SCHEMA_MIGRATIONS_SQLITE);
    const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    const hasRows = (table: string) => db.prepare(`SELECT EXISTS (SELECT 1 FROM ${table})`).pluck().get() === 1;
    for (const migration of steps) {
      if (applied.has(migration.version)) continue;
      db.exec(migration.sqlite);
      const online = migration.online ?? [];
      if (!db.memory && online.some((index) => hasRows(tableOf(index.sqlite)))) {
        pending.push(migration);
        continue;
      }
      for (const index of online) db.exec(createIndexSqlite(index));
      record.run(migration.version, migration.name, new Date().toISOString());
    }
  }).immediate();
  return pending;
}
