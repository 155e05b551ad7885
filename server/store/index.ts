/**
 * Opens the configured persistence, the one way to open a store outside this folder: PostgreSQL with a LISTEN/NOTIFY
 * hub when a database URL is given (several BFF instances may share it), else a SQLite file (by default in the data
 * directory) with an in-process hub (one process). The store returned tells its hub of every change it commits
 * (`./feed`), so no store is opened that does not feed one.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { publishingCommits } from './feed';
import { createLocalHub, createPostgresHub } from './hub';
import { openPostgresStore, type PostgresStoreOptions } from './postgres';
import { openSqliteStore, type SqliteStoreOptions } from './sqlite';
import type { StatusHub, Store } from './types';

export interface StoreOptions {
  /** Directory of `checkout.sqlite`; created when missing. Unused with `databaseUrl` or `file`. */
  dataDir?: string;
  /** A `postgres://` URL; when set, PostgreSQL is used instead of SQLite. */
  databaseUrl?: string | undefined;
  /** SQLite: this file instead of `checkout.sqlite` in `dataDir`. */
  file?: string;
  /**
   * The hub the store tells of its commits, when the caller has one already (a second connection of the same
   * process, a thread whose commits no stream waits for); by default a new one, which `openStore` returns.
   */
  hub?: StatusHub;
  /** SQLite's options besides its file. */
  sqlite?: Omit<SqliteStoreOptions, 'file'>;
  /** PostgreSQL's options besides its URL. */
  postgres?: Omit<PostgresStoreOptions, 'connectionString'>;
}

export async function openStore(options: StoreOptions): Promise<{ store: Store; hub: StatusHub }> {
  const { dataDir, databaseUrl, file, sqlite, postgres } = options;
  if (databaseUrl) {
    const store = await openPostgresStore({ ...postgres, connectionString: databaseUrl });
    const hub =
      options.hub ??
      (await createPostgresHub({ connectionString: databaseUrl }).catch(async (error) => {
        await store.close();
        throw error;
      }));
    return { store: publishingCommits(store, hub), hub };
  }
  if (!file && !dataDir) throw new Error('a SQLite store needs its file or a data directory');
  if (!file) mkdirSync(dataDir!, { recursive: true });
  const hub = options.hub ?? createLocalHub();
  return { store: publishingCommits(openSqliteStore({ ...sqlite, file: file ?? join(dataDir!, 'checkout.sqlite') }), hub), hub };
}

export { cashOutTopic } from './feed';
export { createLocalHub, createPostgresHub } from './hub';
export * from './types';
export type * from './checkout-store';
export * from './back-office';
