/**
 * Applies the store's missing schema steps (./migrations) when it opens, written once for both databases: the steps
 * missing from `schema_migrations` run in one transaction, so processes (SQLite, BEGIN IMMEDIATE) or instances
 * (PostgreSQL, whose DDL is transactional, under an advisory lock) opening together take turns, and the later ones
 * find the steps applied. A step's back-fill (./migration-step.ts), rows rewritten with what SQL cannot compute, runs
 * after its DDL in that same transaction. The indexes of an online step (./migration-step.ts) are built there too when their tables
 * are empty (or the SQLite database is in memory); otherwise the step is left to ./migrate-online.ts, which builds
 * them once the store is open (SQLite: `buildOnlineSqlite`, started by ./sqlite-online.ts; PostgreSQL:
 * `buildOnlinePostgres`, with `CREATE INDEX CONCURRENTLY`).
 */
import type Database from 'better-sqlite3';
import type pg from 'pg';
import type { Migration } from './migration-step';
import { migrations } from './migrations';
import { inTransaction } from './pg-transaction';
import { createTable, instant, integer, render, text } from './sql/ddl';
import { pick, postgresDialect, sqliteDialect, type Dialect } from './sql/dialect';
import { compileNamed } from './sql/postgres-executor';
import { all, driveAsync, driveSync, run, type Op } from './sql/work';

/** Key of the advisory lock that makes PostgreSQL instances starting together apply migrations one at a time. */
const MIGRATION_LOCK = `hashtext('checkout-store schema_migrations')`;

/** The applied steps. PostgreSQL's `applied_at` has a default, for the online builder's record (./migrate-online.ts). */
const SCHEMA_MIGRATIONS = createTable(
  'schema_migrations',
  { version: integer().primaryKey(), name: text().notNull(), applied_at: instant().notNull().default('now()', 'postgres') },
  { ifNotExists: true },
);

/** DDL text of one or more statements, run as it is (SQLite's `exec`, `pg`'s simple query). */
interface Exec {
  kind: 'exec';
  sql: string;
}

function* exec(sql: string): Generator<Exec, void, unknown> {
  if (sql) yield { kind: 'exec', sql };
}

/** The migration, as the statements it runs; returns the online steps left to build after the store opens. */
function* apply(dialect: Dialect, steps: readonly Migration[], inMemory: boolean): Generator<Op | Exec, Migration[], unknown> {
  yield* exec(render([SCHEMA_MIGRATIONS], dialect));
  const applied = new Set((yield* all<{ version: number }>('SELECT version FROM schema_migrations')).map((row) => Number(row.version)));
  const pending: Migration[] = [];
  for (const migration of steps) {
    if (applied.has(migration.version)) continue;
    yield* exec(pick(dialect, migration));
    if (migration.backfill) {
      yield* migration.backfill.work(dialect);
      yield* exec(pick(dialect, migration.backfill));
    }
    const online = migration.online ?? [];
    // An in-memory database has no other connection to build them later: it builds them now, whatever its rows.
    let hasRows = false;
    for (const index of online) {
      if (inMemory || hasRows) break;
      hasRows = (yield* all(`SELECT 1 FROM ${index.table} LIMIT 1`)).length > 0;
    }
    if (hasRows) {
      pending.push(migration);
      continue;
    }
    for (const index of online) yield* exec(index.sql(dialect, { ifNotExists: true }));
    yield* run(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (@version, @name, ${dialect.instant('at')})`, {
      version: migration.version,
      name: migration.name,
      at: new Date().toISOString(),
    });
  }
  return pending;
}

/** Applies `steps` missing from the SQLite file, in one write transaction; returns the online steps left to build. */
export function migrateSqlite(db: Database.Database, steps: readonly Migration[] = migrations): Migration[] {
  const answer = (ask: Op | Exec): unknown => {
    if (ask.kind === 'exec') return void db.exec(ask.sql);
    const statement = db.prepare(ask.sql);
    // better-sqlite3 refuses named parameters to a statement that has none.
    const args = Object.keys(ask.params).length ? [ask.params] : [];
    if (ask.kind === 'run') return statement.run(...args).changes;
    return ask.kind === 'get' ? statement.get(...args) : statement.all(...args);
  };
  return db.transaction(() => driveSync(apply(sqliteDialect, steps, db.memory), answer)).immediate();
}

/** Applies `steps` missing from the PostgreSQL database, in one transaction under the lock; returns the online steps left to build. */
export async function migratePostgres(pool: pg.Pool, steps: readonly Migration[] = migrations): Promise<Migration[]> {
  return inTransaction(pool, async (client) => {
    await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    const answer = async (ask: Op | Exec): Promise<unknown> => {
      if (ask.kind === 'exec') return void (await client.query(ask.sql));
      const { text: sql, names } = compileNamed(ask.sql);
      const result = await client.query(
        sql,
        names.map((name) => ask.params[name] ?? null),
      );
      if (ask.kind === 'run') return result.rowCount ?? 0;
      return ask.kind === 'get' ? result.rows[0] : result.rows;
    };
    return driveAsync(apply(postgresDialect, steps, false), answer);
  });
}
