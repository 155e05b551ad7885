/**
 * The shared store for several BFF instances: PostgreSQL through a `pg` Pool, in a UTC session. Same migrations,
 * parts and behaviour as the SQLite store (./parts, each written once over a `Db`); this opens the pool, migrates,
 * starts the online schema steps and composes the parts.
 */
import pg from 'pg';
import { gaugesPart } from './gauges';
import { migratePostgres } from './migrate';
import { timedDb, type StoreObserver } from './observer';
import { buildOnlinePostgres } from './migrate-online';
import { sharedParts } from './parts';
import { storeTypes, UTC_SESSION } from './pg-types';
import { postgresDb } from './sql/postgres-executor';
import type { Store } from './types';

/** The longest a query waits for a connection of the pool (a new one, or a busy one coming back). */
const CONNECT_TIMEOUT_MS = 5_000;

export interface PostgresStoreOptions {
  connectionString: string;
  maxConnections?: number;
  /** Receives errors of idle pooled connections, which `pg` emits rather than throws. */
  onError?: (error: unknown) => void;
  /** The online half of the pending schema steps starts after this (tests hold it); a second after opening by default. */
  onlineMigrationsAfter?: Promise<void>;
  /** Told how long each unit of work took (./observer.ts). */
  onQuery?: StoreObserver['query'];
}

/** Resolves after the migrations are applied; rejects (and closes the pool) when the database is unreachable. */
export async function openPostgresStore({
  connectionString,
  maxConnections = 10,
  onError = (error) => console.error('postgres store:', error),
  onlineMigrationsAfter,
  onQuery,
}: PostgresStoreOptions): Promise<Store> {
  // A connection that does not come within the timeout fails the query (a 503 to the shopper: ../lib/store-unavailable.ts)
  // rather than holding the request while the database is away. An idle client whose server goes away is reported to
  // `onError` and dropped; the pool opens new connections on the next queries, once the database is back.
  const pool = new pg.Pool({
    connectionString,
    max: maxConnections,
    options: UTC_SESSION,
    types: storeTypes,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  pool.on('error', onError);
  const pending = await migratePostgres(pool).catch(async (error) => {
    await pool.end();
    throw error;
  });
  const online = buildOnlinePostgres(pool, pending, onlineMigrationsAfter ? { after: onlineMigrationsAfter } : {});
  // The store goes on without the indexes (slower lists, the same rows); the next start builds them again.
  online.done.catch((error: unknown) => onError(new Error('an online schema step failed; the next start tries again', { cause: error })));

  const executor = postgresDb(pool);
  const db = onQuery ? timedDb(executor, 'postgres', onQuery) : executor;
  return {
    ...sharedParts(db),
    ...gaugesPart(db, () => pool.waitingCount),
    async close() {
      await online.stop();
      await pool.end();
    },
  };
}
