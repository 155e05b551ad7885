/**
 * Runs store parts' work on a `pg` pool: each statement's `@name` parameters turned into `$n` once per text, a write
 * awaited statement by statement on one client inside BEGIN … COMMIT (../pg-transaction.ts), reads on the pool.
 */
import type pg from 'pg';
import { inTransaction } from '../pg-transaction';
import type { Row } from '../rows';
import type { Db } from './db';
import { postgresDialect } from './dialect';
import { driveAsync, type Op, type Work } from './work';

interface Compiled {
  text: string;
  names: readonly string[];
}

const NAME = /@([A-Za-z_][A-Za-z0-9_]*)/g;

/** `@name` → `$n`, one number per name however often it appears. */
export function compileNamed(sql: string): Compiled {
  const names: string[] = [];
  const text = sql.replace(NAME, (_, name: string) => {
    let index = names.indexOf(name);
    if (index < 0) index = names.push(name) - 1;
    return `$${index + 1}`;
  });
  return { text, names };
}

export function postgresDb(pool: pg.Pool): Db {
  const compiled = new Map<string, Compiled>();
  const exec =
    (client: pg.Pool | pg.PoolClient) =>
    async ({ kind, sql, params }: Op): Promise<unknown> => {
      let found = compiled.get(sql);
      if (!found) compiled.set(sql, (found = compileNamed(sql)));
      const result = await client.query<Row>(
        found.text,
        found.names.map((name) => params[name] ?? null),
      );
      if (kind === 'run') return result.rowCount ?? 0;
      return kind === 'get' ? result.rows[0] : result.rows;
    };
  const onPool = exec(pool);
  return {
    dialect: postgresDialect,
    async write<T>(work: () => Work<T>, { attempts = 1 } = {}) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await inTransaction(pool, (client) => driveAsync(work(), exec(client)));
        } catch (error) {
          if (attempt >= attempts || !postgresDialect.isUniqueViolation(error)) throw error;
        }
      }
    },
    read: (work) => driveAsync(work(), onPool),
    list: (work) => driveAsync(work(), onPool),
    built: () => true,
  };
}
