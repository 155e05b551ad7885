/**
 * One schema step, written once for both databases (./sql/ddl.ts renders it to each one's SQL), and the helper that
 * puts our constants into its SQL.
 */
import { render, type Index, type Statement } from './sql/ddl';
import { postgresDialect, sqliteDialect, type Dialect } from './sql/dialect';
import type { Work } from './sql/work';

/**
 * Rows a step rewrites with what SQL alone cannot compute (a hash of each row): `work` runs after the step's DDL, in
 * the same transaction, written once over the dialect, then `then` (DDL again: a trigger put back).
 */
export interface Backfill {
  work: (dialect: Dialect) => Work<void>;
  then: readonly Statement[];
}

/** A back-fill as the migrator applies it: its closing DDL rendered once for each database. */
export interface RenderedBackfill {
  work: (dialect: Dialect) => Work<void>;
  sqlite: string;
  postgres: string;
}

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
  /** Never with `online`: the rows it rewrites are rewritten when the store opens. */
  backfill?: Backfill;
}

/** A step as the migrator (./migrate.ts) applies it: its statements rendered once for each database. */
export interface Migration {
  version: number;
  name: string;
  /** The step's statements as one text, run in one call on each database. */
  sqlite: string;
  postgres: string;
  online?: readonly Index[];
  backfill?: RenderedBackfill;
}

export function step({ version, name, ddl, online, backfill }: StepSource): Migration {
  const rendered: Migration = { version, name, sqlite: render(ddl, sqliteDialect), postgres: render(ddl, postgresDialect) };
  if (online) rendered.online = online;
  if (backfill) {
    const { work, then } = backfill;
    rendered.backfill = { work, sqlite: render(then, sqliteDialect), postgres: render(then, postgresDialect) };
  }
  return rendered;
}

/** A SQL list of string literals; only ever given our own constants. */
export function sqlList(values: readonly string[]): string {
  return values.map((value) => `'${value}'`).join(', ');
}
