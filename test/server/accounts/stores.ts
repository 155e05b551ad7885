/**
 * The stores the accounts' tests run on: a fresh SQLite file per test, and (with TEST_DATABASE_URL) one PostgreSQL
 * database per test file whose users and sessions are cleared before each test. The audit trail cannot be cleared
 * (it is append-only), so tests read it through a filter of their own (a fresh actor or action).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { Store } from '../../../server/store/types';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../store/pg-test-database';
import { openTestStore } from '../helpers/store';

export interface OpenedStore {
  store: Store;
  /** Runs SQL straight on the database, around the store (to show what the database itself refuses). */
  sql(text: string): Promise<unknown>;
}

/** `[name, open]` per database; call once per test file, at the top level. */
export function accountStores(): [string, () => Promise<OpenedStore>][] {
  const dir = mkdtempSync(join(tmpdir(), 'accounts-'));
  let pg: TestDatabase | undefined;
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await pg?.drop();
  });
  const sqlite = async (): Promise<OpenedStore> => {
    const file = join(dir, `${randomUUID()}.sqlite`);
    const store = await openTestStore({ file });
    const sql = async (text: string) => {
      const { default: Database } = await import('better-sqlite3');
      const db = new Database(file);
      try {
        return db.exec(text);
      } finally {
        db.close();
      }
    };
    return { store, sql };
  };
  const postgres = async (): Promise<OpenedStore> => {
    pg ??= await createTestDatabase(TEST_DATABASE_URL!);
    const store = await openTestStore({ databaseUrl: pg.url });
    await pg.query('DELETE FROM admin_sessions');
    await pg.query('DELETE FROM admin_users');
    return { store, sql: (text) => pg!.query(text) };
  };
  return [['SQLite', sqlite], ...(TEST_DATABASE_URL ? [['PostgreSQL', postgres] as [string, () => Promise<OpenedStore>]] : [])];
}

/** A recorder that keeps nothing, for tests about something else than the audit trail. */
export const noAudit = async () => undefined;
