/** One schema step, written for both databases side by side, and the helper that puts our constants into its SQL. */

export interface Migration {
  version: number;
  name: string;
  /** Run when the store opens, in the transaction that applies the missing steps. */
  sqlite: string;
  postgres: string;
  /**
   * Indexes built after the store has opened and answers (./migrate-online.ts), for a step whose indexes only make
   * queries faster, never change what they return: built at open only when their tables are empty (a new
   * database), else in the background, in batches of one index (SQLite: each in its own write transaction;
   * PostgreSQL: `CREATE INDEX CONCURRENTLY`, which blocks no write). The step is recorded once they all exist, so a
   * restart cut short builds what is missing. The steps after it may be applied first: none may need these indexes.
   */
  online?: readonly OnlineIndex[];
}

/** An index an online step builds: its name, and what follows `ON` in each database's `CREATE INDEX`. */
export interface OnlineIndex {
  name: string;
  sqlite: string;
  postgres: string;
}

/** The table an online index is on: the first word of its `ON` clause. */
export const tableOf = (on: string) => on.trim().split(/[\s(]/)[0]!;

/** A SQL list of string literals; only ever given our own constants. */
export function sqlList(values: readonly string[]): string {
  return values.map((value) => `'${value}'`).join(', ');
}
