/**
 * Opens the configured persistence: PostgreSQL with a LISTEN/NOTIFY hub when a database URL is given (several BFF
 * instances may share it), else a SQLite file in the data directory with an in-process hub (one process). The store
 * returned tells the hub of every change it commits (`./feed`).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { publishingCommits } from './feed';
import { createLocalHub, createPostgresHub } from './hub';
import { openPostgresStore } from './postgres';
import { openSqliteStore } from './sqlite';
import type { StatusHub, Store } from './types';

export interface StoreOptions {
  /** Directory of `checkout.sqlite`; created when missing. Unused with `databaseUrl`. */
  dataDir: string;
  /** A `postgres://` URL; when set, PostgreSQL is used instead of SQLite. */
  databaseUrl?: string | undefined;
}

export async function openStore({ dataDir, databaseUrl }: StoreOptions): Promise<{ store: Store; hub: StatusHub }> {
  if (databaseUrl) {
    const store = await openPostgresStore({ connectionString: databaseUrl });
    const hub = await createPostgresHub({ connectionString: databaseUrl }).catch(async (error) => {
      await store.close();
      throw error;
    });
    return { store: publishingCommits(store, hub), hub };
  }
  mkdirSync(dataDir, { recursive: true });
  const hub = createLocalHub();
  return { store: publishingCommits(openSqliteStore({ file: join(dataDir, 'checkout.sqlite') }), hub), hub };
}

export { cashOutTopic, publishingCommits } from './feed';
export { createLocalHub, createPostgresHub } from './hub';
export { openPostgresStore } from './postgres';
export { openSqliteStore } from './sqlite';
export * from './types';
export type * from './checkout-store';
export * from './back-office';
