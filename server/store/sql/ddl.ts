/**
 * The schema steps' DDL edge: a step (../migration-step.ts) is written once, as statements over a small typed
 * vocabulary (tables of typed columns, indexes, added columns), and rendered here to each database's SQL. The
 * differences between the databases' DDL live in this file only: how each spells a column type, SQLite's `STRICT`
 * and `WITHOUT ROWID`. A statement that is one database's alone (SQLite's table rebuild to change a CHECK,
 * PostgreSQL's functions and triggers) is said so where the step is written, with `byDialect`.
 *
 * SQLite keeps each CREATE statement's text as written, so a step once released must render exactly the text it
 * rendered then: a change here is a change of every released step.
 */
import { pick, type Dialect, type DialectName } from './dialect';

/** What each database calls a column type. */
const TYPES = {
  text: { sqlite: 'TEXT', postgres: 'text' },
  /** 32 bits in PostgreSQL (counters, HTTP statuses, durations); SQLite's INTEGER is 64 bits anyway. */
  integer: { sqlite: 'INTEGER', postgres: 'integer' },
  /** 64 bits: amounts in cents, sequence numbers. */
  bigint: { sqlite: 'INTEGER', postgres: 'bigint' },
  /** A point in time: ISO-8601 text in SQLite (which compares it as text), `timestamptz` in PostgreSQL. */
  instant: { sqlite: 'TEXT', postgres: 'timestamptz' },
  /** JSON: text in SQLite (read with its json functions), `jsonb` in PostgreSQL. */
  json: { sqlite: 'TEXT', postgres: 'jsonb' },
  /**
   * A 64-bit key the database numbers, never reused (SQLite's AUTOINCREMENT): the primary key. `serial` takes a
   * number an insert gives; `identity` (GENERATED ALWAYS) refuses one. Released steps use both; a new one, `identity`.
   */
  serial: { sqlite: 'INTEGER PRIMARY KEY AUTOINCREMENT', postgres: 'bigserial PRIMARY KEY' },
  identity: { sqlite: 'INTEGER PRIMARY KEY AUTOINCREMENT', postgres: 'bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY' },
} as const satisfies Record<string, Record<DialectName, string>>;

type ColumnType = keyof typeof TYPES;

/** A clause of a column's definition: the same on both databases, or only on those it names. */
type Clause = string | Partial<Record<DialectName, string>>;

/** A column's type and its clauses, rendered in the order they were added. */
export interface Column {
  sql(dialect: Dialect): string;
  primaryKey(): Column;
  notNull(): Column;
  unique(): Column;
  /** `DEFAULT value`; with `only`, on that database alone (a default the other never had). */
  default(value: string, only?: DialectName): Column;
  check(condition: string): Column;
  references(table: string, column: string, options?: { onDelete: 'CASCADE' }): Column;
}

function column(type: ColumnType, clauses: readonly Clause[] = []): Column {
  const and = (clause: Clause) => column(type, [...clauses, clause]);
  return {
    sql: (dialect) =>
      [TYPES[type][dialect.name], ...clauses.map((clause) => (typeof clause === 'string' ? clause : clause[dialect.name]))]
        .filter((part) => part !== undefined)
        .join(' '),
    primaryKey: () => and('PRIMARY KEY'),
    notNull: () => and('NOT NULL'),
    unique: () => and('UNIQUE'),
    default: (value, only) => and(only ? { [only]: `DEFAULT ${value}` } : `DEFAULT ${value}`),
    check: (condition) => and(`CHECK (${condition})`),
    references: (table, target, options) => and(`REFERENCES ${table} (${target})${options ? ` ON DELETE ${options.onDelete}` : ''}`),
  };
}

export const text = () => column('text');
export const integer = () => column('integer');
export const bigint = () => column('bigint');
export const instant = () => column('instant');
export const json = () => column('json');
export const serial = () => column('serial');
export const identity = () => column('identity');

/** One statement of a step, or several (`byDialect`), as each database runs them. */
export interface Ddl {
  statements(dialect: Dialect): readonly string[];
}

/** A statement written as SQL text, the same on both databases (a data move that both can say alike). */
export type Statement = Ddl | string;

const statementsOf = (statement: Statement, dialect: Dialect): readonly string[] =>
  typeof statement === 'string' ? [statement] : statement.statements(dialect);

/** The statements each database runs where they differ as a whole; either list may be empty. */
export const byDialect = (forms: Readonly<Record<DialectName, readonly Statement[]>>): Ddl => ({
  statements: (dialect) => pick(dialect, forms).flatMap((statement) => statementsOf(statement, dialect)),
});

export interface TableOptions {
  /** A primary key over several columns, after the columns. */
  primaryKey?: readonly string[];
  /** SQLite: a table clustered on its primary key (no rowid), for small rows read by their key. */
  withoutRowid?: boolean;
  ifNotExists?: boolean;
}

/**
 * `CREATE TABLE`, its columns in the order given. Every SQLite table is STRICT: SQLite then refuses a REAL (or text)
 * amount instead of silently storing it.
 */
export const createTable = (name: string, columns: Readonly<Record<string, Column>>, options: TableOptions = {}): Ddl => ({
  statements: (dialect) => {
    const lines = Object.entries(columns).map(([column, type]) => `${column} ${type.sql(dialect)}`);
    if (options.primaryKey) lines.push(`PRIMARY KEY (${options.primaryKey.join(', ')})`);
    const sqlite = options.withoutRowid ? ' STRICT, WITHOUT ROWID' : ' STRICT';
    const head = `CREATE TABLE ${options.ifNotExists ? 'IF NOT EXISTS ' : ''}${name}`;
    return [`${head} (\n  ${lines.join(',\n  ')}\n)${pick(dialect, { sqlite, postgres: '' })}`];
  },
});

export const addColumn = (table: string, name: string, type: Column): Ddl => ({
  statements: (dialect) => [`ALTER TABLE ${table} ADD COLUMN ${name} ${type.sql(dialect)}`],
});

export const dropTable = (name: string): Ddl => ({ statements: () => [`DROP TABLE ${name}`] });

export const dropIndex = (name: string): Ddl => ({ statements: () => [`DROP INDEX ${name}`] });

export interface IndexOptions {
  unique?: boolean;
  /** A partial index's condition, or each database's where they say it differently. */
  where?: string | Readonly<Record<DialectName, string>>;
}

/** An index: a step's statement as it is (`CREATE INDEX`), or an online step's (../migrate-online.ts), which builds it with these options. */
export interface Index extends Ddl {
  readonly name: string;
  readonly table: string;
  sql(dialect: Dialect, options?: { ifNotExists?: boolean; concurrently?: boolean }): string;
}

/** An index over `keys` (columns or expressions, in order) of `table`. */
export function index(name: string, table: string, keys: readonly string[], { unique, where }: IndexOptions = {}): Index {
  const sql: Index['sql'] = (dialect, { ifNotExists, concurrently } = {}) => {
    const condition = where === undefined ? '' : ` WHERE ${typeof where === 'string' ? where : pick(dialect, where)}`;
    const create = `CREATE ${unique ? 'UNIQUE ' : ''}INDEX ${concurrently ? 'CONCURRENTLY ' : ''}${ifNotExists ? 'IF NOT EXISTS ' : ''}`;
    return `${create}${name} ON ${table} (${keys.join(', ')})${condition}`;
  };
  return { name, table, sql, statements: (dialect) => [sql(dialect)] };
}

/** The statements, as one text that each database's driver runs in one call (`exec`; `pg`'s simple query). */
export const render = (statements: readonly Statement[], dialect: Dialect): string =>
  statements
    .flatMap((statement) => statementsOf(statement, dialect))
    .map((sql) => `${sql};`)
    .join('\n');
