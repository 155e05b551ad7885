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
import type { StoreObserver } from './observer';
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
  /** Told of each unit of work's time and each checkout change committed (the product's metrics). */
  observer?: StoreObserver;
}

export async function openStore(options: StoreOptions): Promise<{ store: Store; hub: StatusHub }> {
  const { dataDir, databaseUrl, file, sqlite, postgres, observer } = options;
  const onQuery = observer && { onQuery: observer.query };
  if (databaseUrl) {
    const store = await openPostgresStore({ ...postgres, ...onQuery, connectionString: databaseUrl });
    const hub =
      options.hub ??
      (await createPostgresHub({ connectionString: databaseUrl }).catch(async (error) => {
        await store.close();
        throw error;
      }));
    return { store: publishingCommits(store, hub, observer), hub };
  }
  if (!file && !dataDir) throw new Error('a SQLite store needs its file or a data directory');
  if (!file) mkdirSync(dataDir!, { recursive: true });
  const hub = options.hub ?? createLocalHub();
  const sqliteStore = openSqliteStore({ ...sqlite, ...onQuery, file: file ?? join(dataDir!, 'checkout.sqlite') });
  return { store: publishingCommits(sqliteStore, hub, observer), hub };
}

export { cashOutTopic } from './feed';
export type { StoreObserver } from './observer';
export type { StoreGauges } from './gauges';
export { createLocalHub, createPostgresHub } from './hub';
export * from './types';
export type * from './checkout-store';
export * from './back-office';
