/**
 * A fresh PostgreSQL database per test file, made on the server of TEST_DATABASE_URL (whose role needs CREATEDB)
 * and dropped afterwards, so concurrent runs never share tables or LISTEN/NOTIFY channels.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

export interface TestDatabase {
  url: string;
  /** Runs SQL on the test database with a short-lived connection. */
  query(text: string, values?: unknown[]): Promise<pg.QueryResult>;
  drop(): Promise<void>;
}

async function withClient<T>(connectionString: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A data-only `pg_dump` of the database at `url`, as text (PostgreSQL's client tools come with its server). */
export function pgDump(url: string): string {
  return execFileSync('pg_dump', ['--data-only', url]).toString('latin1');
}

export async function createTestDatabase(baseUrl: string): Promise<TestDatabase> {
  const name = `store_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  await withClient(baseUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    query: (text, values) => withClient(url.toString(), (client) => client.query(text, values)),
    drop: () => dropDatabase(baseUrl, name),
  };
}

/**
 * Drops the database, ending its sessions. A session of another role cannot be ended by ours: an autovacuum worker
 * busy on the database's fresh tables makes the drop fail with 42501 (insufficient privilege) until it is done, so
 * the drop is tried again for a while.
 */
async function dropDatabase(baseUrl: string, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await withClient(baseUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '42501' || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
