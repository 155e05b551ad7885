/**
 * A store for a test, through the publishing opener (`openStore`, the only one outside server/store): on a SQLite
 * file or a PostgreSQL database, telling an in-process hub of its own, so a test opens no LISTEN connection it does
 * not use. A test that watches the hub passes its own.
 */
import { createLocalHub, openStore, type StoreOptions, type Store } from '../../../server/store';

export type TestStoreAt = { file: string } | { databaseUrl: string };

export async function openTestStore(at: TestStoreAt, options: Omit<StoreOptions, 'file' | 'databaseUrl' | 'dataDir'> = {}): Promise<Store> {
  return (await openStore({ hub: createLocalHub(), ...options, ...at })).store;
}
