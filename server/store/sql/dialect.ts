/**
 * What differs between SQLite and PostgreSQL in the statements the store parts share, as fragments of SQL text. A
 * part writes each statement once, with `@name` parameters and these fragments, at open (never per call), so a
 * statement's text is a constant the executors prepare once. A statement that differs as a whole (a claim that
 * PostgreSQL makes with `SKIP LOCKED` over `LATERAL` joins and SQLite with a loop) is written beside its part, both
 * forms in one place, chosen by `name` (`pick`).
 */
import type { JsonColumns } from '../rows';

export type DialectName = 'sqlite' | 'postgres';

export interface Dialect {
  readonly name: DialectName;
  /** How JSON columns come back: SQLite's text, `pg`'s parsed values. */
  readonly rows: JsonColumns;
  /** Parameter `p` (written `@p`) holding JSON text, as a JSON value of the column's type. */
  json(p: string): string;
  /** `column` with the JSON object in parameter `p` merged over it (`details`). */
  jsonMerge(column: string, p: string): string;
  /** The later of the instant in `column` and in parameter `p`; either may be NULL, and then the other is kept. */
  later(column: string, p: string): string;
  /** Parameter `p` as an instant (PostgreSQL must be told where it cannot infer it; SQLite compares ISO text). */
  instant(p: string): string;
  /** `column` is one of the values of the list in parameter `p`, given as `list(values)`. */
  inList(column: string, p: string): string;
  /** The value of a list parameter for `inList`: JSON text for SQLite, an array for `pg`. */
  list(values: readonly unknown[]): unknown;
  /** Ends a SELECT whose rows the transaction will write: locks them in PostgreSQL; SQLite's write lock already holds. */
  readonly forUpdate: string;
  /** As `forUpdate`, skipping rows another transaction holds (claims that instances share). */
  readonly skipLocked: string;
  /** `table` read through `index`: SQLite is told (`INDEXED BY`), PostgreSQL's planner chooses. */
  indexedBy(table: string, index: string): string;
  /**
   * Taken first by every transaction that writes a merchant event, held to its commit, so events commit in `seq`
   * order (see ../merchant-events.ts): PostgreSQL's advisory lock; nothing on SQLite, whose writes are serial.
   */
  readonly feedLock: string | undefined;
  /** Whether a driver's error is a unique index's violation. */
  isUniqueViolation(error: unknown): boolean;
  /**
   * `column` in ORDER BY, ordered by its text's bytes, as SQLite compares text: PostgreSQL's default collation would
   * sort ids with `_` and mixed case otherwise, and the two stores would list ties in different orders.
   */
  textOrder(column: string): string;
}

/** The form of a statement that differs as a whole between the databases. */
export const pick = <T>(dialect: Dialect, forms: Readonly<Record<DialectName, T>>): T => forms[dialect.name];

export const sqliteDialect: Dialect = {
  name: 'sqlite',
  rows: 'text',
  json: (p) => `@${p}`,
  jsonMerge: (column, p) => `json_patch(${column}, @${p})`,
  // max() of SQLite returns NULL when an argument is NULL: '' sorts before any instant, and a NULL parameter keeps the column.
  later: (column, p) => `coalesce(max(coalesce(${column}, ''), @${p}), ${column})`,
  instant: (p) => `@${p}`,
  inList: (column, p) => `${column} IN (SELECT value FROM json_each(@${p}))`,
  list: (values) => JSON.stringify(values),
  forUpdate: '',
  skipLocked: '',
  indexedBy: (table, index) => `${table} INDEXED BY ${index}`,
  feedLock: undefined,
  isUniqueViolation: (error) => (error as { code?: unknown } | null)?.code === 'SQLITE_CONSTRAINT_UNIQUE',
  textOrder: (column) => column,
};

/** SQLSTATE of a unique index violation. */
const UNIQUE_VIOLATION = '23505';

export const postgresDialect: Dialect = {
  name: 'postgres',
  rows: 'parsed',
  json: (p) => `@${p}::jsonb`,
  jsonMerge: (column, p) => `${column} || @${p}::jsonb`,
  // GREATEST skips NULL.
  later: (column, p) => `GREATEST(${column}, @${p}::timestamptz)`,
  instant: (p) => `@${p}::timestamptz`,
  inList: (column, p) => `${column} = ANY(@${p})`,
  list: (values) => values,
  forUpdate: ' FOR UPDATE',
  skipLocked: ' FOR UPDATE SKIP LOCKED',
  indexedBy: (table) => table,
  feedLock: `SELECT pg_advisory_xact_lock(hashtext('merchant_events'))`,
  isUniqueViolation: (error) => (error as { code?: unknown } | null)?.code === UNIQUE_VIOLATION,
  textOrder: (column) => `${column} COLLATE "C"`,
};
