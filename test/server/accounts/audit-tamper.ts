/**
 * The audit trail changed around the store, as someone with the database's own access could: its append-only
 * triggers set aside for one statement (SQLite: dropped and made again; PostgreSQL: its user triggers disabled and
 * enabled, in one transaction), and its rows read straight.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import type { TestStoreAt } from '../helpers/store';

/** Step 12's triggers (server/store/migrations-accounts.ts), as SQLite keeps them. */
const SQLITE_TRIGGERS = ['audit_log_no_update', 'audit_log_no_delete'];

/** Runs `sql` on the database with the audit trail's triggers off. */
export async function tamper(at: TestStoreAt, sql: string): Promise<void> {
  if ('file' in at) {
    const db = new Database(at.file);
    try {
      db.transaction(() => {
        const kept = SQLITE_TRIGGERS.map(
          (name) => db.prepare(`SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?`).pluck().get(name) as string,
        );
        for (const name of SQLITE_TRIGGERS) db.exec(`DROP TRIGGER ${name}`);
        db.exec(sql);
        for (const trigger of kept) db.exec(trigger);
      })();
    } finally {
      db.close();
    }
    return;
  }
  await withClient(at.databaseUrl, (client) =>
    client.query(`BEGIN; ALTER TABLE audit_log DISABLE TRIGGER USER; ${sql}; ALTER TABLE audit_log ENABLE TRIGGER USER; COMMIT`),
  );
}

/** The rows of `sql` (a SELECT), straight from the database. */
export async function rows<R = Record<string, unknown>>(at: TestStoreAt, sql: string): Promise<R[]> {
  if ('file' in at) {
    const db = new Database(at.file, { readonly: true });
    try {
      return db.prepare(sql).all() as R[];
    } finally {
      db.close();
    }
  }
  return withClient(at.databaseUrl, async (client) => (await client.query(sql)).rows as R[]);
}

/** Runs `sql` as it is (the triggers on): what the database itself allows. */
export async function exec(at: TestStoreAt, sql: string): Promise<void> {
  if ('file' in at) {
    const db = new Database(at.file);
    try {
      db.exec(sql);
    } finally {
      db.close();
    }
    return;
  }
  await withClient(at.databaseUrl, (client) => client.query(sql));
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
