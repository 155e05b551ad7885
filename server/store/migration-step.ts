/**
 * One schema step, written once for both databases (./sql/ddl.ts renders it to each one's SQL), and the helper that
 * puts our constants into its SQL.
 */
import { render, type Index, type Statement } from './sql/ddl';
import { postgresDialect, sqliteDialect } from './sql/dialect';

/** A step as it is written: its statements over the DDL vocabulary, and the indexes it builds online. */
export interface StepSource {
  version: number;
  name: string;
  /** Run when the store opens, in the transaction that applies the missing steps. */
  ddl: readonly Statement[];
  /**
   * Indexes built after the store has opened and answers (./migrate-online.ts), for a step whose indexes only make
   * queries faster, never change what they return: built at open only when their tables are empty (a new
   * database), else in the background, in batches of one index (SQLite: each in its own write transaction;
   * PostgreSQL: `CREATE INDEX CONCURRENTLY`, which blocks no write). The step is recorded once they all exist, so a
   * restart cut short builds what is missing. The steps after it may be applied first: none may need these indexes.
   */
  online?: readonly Index[];
}

/** A step as the migrator (./migrate.ts) applies it: its statements rendered once for each database. */
export interface Migration {
  version: number;
  name: string;
  /** The step's statements as one text, run in one call on each database. */
  sqlite: string;
  postgres: string;
  online?: readonly Index[];
}

export function step({ version, name, ddl, online }: StepSource): Migration {
  const rendered = { version, name, sqlite: render(ddl, sqliteDialect), postgres: render(ddl, postgresDialect) };
  return online ? { ...rendered, online } : rendered;
}

/** A SQL list of string literals; only ever given our own constants. */
export function sqlList(values: readonly string[]): string {
  return values.map((value) => `'${value}'`).join(', ');
}
