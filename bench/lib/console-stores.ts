/**
 * The stores the console rows (../console-rows.ts) measure: a fresh store of each database holding `n` checkouts of
 * the seeded history (./console-seed.ts), opened as the server opens it (its migrations applied), and thrown away
 * afterwards. SQLite: a file in a temporary folder. PostgreSQL: a schema of its own in the database of the URL
 * given (made and dropped by the bench, so the database's other tables are never touched), the store's connections
 * pointed at it by their search_path.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { openBenchStore } from './open-store';
import type { CheckoutAppStore } from '../../server/bff/app';
import type { StoreConnection } from '../../server/store';
import { seedPostgres, seedSqlite } from './console-seed';

/**
 * What the console rows take of a store: the back office's list and export, the shoppers' status beside them (the
 * checkout app's ports, ./console-status.ts), and its connection.
 */
export type ConsoleStore = CheckoutAppStore & StoreConnection;

export interface BenchStore {
  store: ConsoleStore;
  /** Seconds the history took to write (and, on PostgreSQL, to ANALYZE). */
  seedSeconds: number;
  /** Where another process finds the same store: SQLite's file, or PostgreSQL's URL scoped to the schema. */
  location: { file: string } | { url: string };
  /** Runs SQL on the store's database outside the store (the restart rows undo a schema step with it). */
  exec(sql: string): Promise<void>;
  /** The schema steps recorded in the store's database. */
  schemaVersions(): Promise<number[]>;
  close(): Promise<void>;
}

export type BenchDatabase = 'SQLite' | 'PostgreSQL';

/** A fresh SQLite store file holding `n` checkouts. */
export async function sqliteBenchStore(n: number): Promise<BenchStore> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-console-'));
  const file = join(dir, 'store.sqlite');
  await (await openBenchStore({ file })).close();
  const started = performance.now();
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  try {
    seedSqlite(db, n);
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  const seedSeconds = (performance.now() - started) / 1000;
  const store = await openBenchStore({ file });
  return {
    store,
    seedSeconds,
    location: { file },
    async exec(sql) {
      const other = new Database(file, { timeout: 60_000 });
      try {
        other.exec(sql);
      } finally {
        other.close();
      }
    },
    async schemaVersions() {
      const other = new Database(file, { readonly: true });
      try {
        return other.prepare('SELECT version FROM schema_migrations').pluck().all() as number[];
      } finally {
        other.close();
      }
    },
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function versions(url: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((row) => row.version);
  } finally {
    await client.end();
  }
}

/** A fresh PostgreSQL store, in a schema of its own on the database of `url`, holding `n` checkouts. */
export async function postgresBenchStore(url: string, n: number): Promise<BenchStore> {
  const schema = `bench_console_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.end();
  }
  const scoped = new URL(url);
  scoped.searchParams.set('options', `-c search_path=${schema}`);
  const drop = async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    } finally {
      await client.end();
    }
  };
  try {
    await (await openBenchStore({ databaseUrl: scoped.toString() })).close();
    const client = new pg.Client({ connectionString: scoped.toString() });
    await client.connect();
    const started = performance.now();
    try {
      await seedPostgres(client, n);
    } finally {
      await client.end();
    }
    const seedSeconds = (performance.now() - started) / 1000;
    const store = await openBenchStore({ databaseUrl: scoped.toString() });
    return {
      store,
      seedSeconds,
      location: { url: scoped.toString() },
      async exec(sql) {
        const other = new pg.Client({ connectionString: scoped.toString() });
        await other.connect();
        try {
          await other.query(sql);
        } finally {
          await other.end();
        }
      },
      async schemaVersions() {
        return versions(scoped.toString());
      },
      async close() {
        await store.close();
        await drop();
      },
    };
  } catch (error) {
    await drop();
    throw error;
  }
}

/** A fresh store of `database` holding `n` checkouts (`url`: PostgreSQL's). */
export const benchStore = (database: BenchDatabase, n: number, url: string | undefined) =>
  database === 'SQLite' ? sqliteBenchStore(n) : postgresBenchStore(url!, n);
