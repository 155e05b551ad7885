/**
 * Runs store parts' work on better-sqlite3: synchronously, each statement prepared once and cached by its text
 * (a part's texts are constants made at open), a write inside one BEGIN IMMEDIATE transaction, so a second process
 * on the file waits for the write lock instead of reading a stale row. Long reads go to the reader thread.
 */
import type Database from 'better-sqlite3';
import type { SqliteReader } from '../sqlite-reader';
import type { Db } from './db';
import { sqliteDialect } from './dialect';
import { driveAsync, driveSync, type Op, type Params, type Work } from './work';

/** A prepared statement and how it binds a part's parameters: every name it uses, NULL when absent, booleans as 0/1. */
interface Prepared {
  statement: Database.Statement;
  names: readonly string[];
}

const NAME = /@([A-Za-z_][A-Za-z0-9_]*)/g;

/** better-sqlite3 wants each named parameter given, and no undefined or boolean. */
function bind(names: readonly string[], params: Params): Record<string, unknown> {
  const bound: Record<string, unknown> = {};
  for (const name of names) {
    const value = params[name];
    bound[name] = value === undefined ? null : typeof value === 'boolean' ? Number(value) : value;
  }
  return bound;
}

export function sqliteDb(db: Database.Database, reader: SqliteReader, built: (index: string) => boolean): Db {
  const prepared = new Map<string, Prepared>();
  const prepare = (sql: string): Prepared => {
    let found = prepared.get(sql);
    if (!found) {
      found = { statement: db.prepare(sql), names: [...new Set([...sql.matchAll(NAME)].map((match) => match[1]!))] };
      prepared.set(sql, found);
    }
    return found;
  };
  const exec = ({ kind, sql, params }: Op): unknown => {
    const { statement, names } = prepare(sql);
    const args = names.length ? [bind(names, params)] : [];
    if (kind === 'run') return statement.run(...args).changes;
    if (kind === 'get') return statement.get(...args);
    return statement.all(...args);
  };
  const transaction = db.transaction((work: Work<unknown>) => driveSync(work, exec));
  const listed = async ({ kind, sql, params }: Op): Promise<unknown> => {
    if (kind === 'run') throw new Error('a list runs reads only');
    const rows = await reader.all(sql, bind(prepare(sql).names, params));
    return kind === 'get' ? rows[0] : rows;
  };
  return {
    dialect: sqliteDialect,
    async write<T>(work: () => Work<T>) {
      return transaction.immediate(work()) as T;
    },
    async read(work) {
      return driveSync(work(), exec);
    },
    list: (work) => driveAsync(work(), listed),
    built,
  };
}
