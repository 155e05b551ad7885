/**
 * Applies the PostgreSQL store's missing schema steps (./migrations) when it opens: DDL is transactional, so each
 * instance checks and applies them in one transaction under an advisory lock. An online step's indexes
 * (./migration-step.ts) are built there too when their tables are empty; otherwise the step is left to
 * `buildOnlinePostgres`, which builds them with `CREATE INDEX CONCURRENTLY` after the store opens.
 */
import type pg from 'pg';
import { tableOf, type Migration, type OnlineIndex } from './migration-step';
import { migrations } from './migrations';
import { ONLINE_START_DELAY_MS, startDelay } from './migrate-online';
import { inTransaction } from './pg-transaction';

/** Key of the advisory lock that makes instances starting together apply migrations one at a time. */
const MIGRATION_LOCK = `hashtext('checkout-store schema_migrations')`;
/** Key of the lock held by the one instance building the online indexes (the others leave it to that one). */
const ONLINE_LOCK = `hashtext('checkout-store online indexes')`;

/** Applies `steps` missing from the database; returns the online steps left to build after the store opens. */
export async function migratePostgres(pool: pg.Pool, steps: readonly Migration[] = migrations): Promise<Migration[]> {
  return inTransaction(pool, async (client) => {
    await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((row) => row.version));
    const pending: Migration[] = [];
    for (const migration of steps) {
      if (applied.has(migration.version)) continue;
      await client.query(migration.postgres);
      const online = migration.online ?? [];
      let hasRows = false;
      for (const index of online) {
        hasRows ||= (await client.query(`SELECT 1 FROM ${tableOf(index.postgres)} LIMIT 1`)).rowCount !== 0;
      }
      if (hasRows) {
        pending.push(migration);
        continue;
      }
      for (const index of online) await client.query(`CREATE INDEX IF NOT EXISTS ${index.name} ON ${index.postgres}`);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
    }
    return pending;
  });
}

/**
 * Builds one online index without blocking writes. A build that failed or was cancelled leaves an invalid index of
 * that name, which IF NOT EXISTS would take for done: it is dropped and built again.
 */
async function buildIndex(client: pg.ClientBase, index: OnlineIndex): Promise<void> {
  const { rows } = await client.query<{ valid: boolean }>(
    `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace`,
    [index.name],
  );
  if (rows[0]?.valid) return;
  if (rows[0]) await client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${index.name}`);
  await client.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${index.name} ON ${index.postgres}`);
}

/** How often an instance that found another one building checks whether that one is gone (its lock freed). */
export const ONLINE_TAKEOVER_POLL_MS = 5_000;

/**
 * Builds the online indexes of `steps` on a connection of its own, each statement on its own (CONCURRENTLY cannot
 * run in a transaction), and records each step once its indexes exist. Only one instance builds at a time: the
 * others wait, trying the lock every `pollMs`, and a builder that dies frees it with its session, so the next one to
 * get it takes over the steps still unrecorded (an index the dead build left invalid is dropped and built again).
 * It starts once `after` resolves (`ONLINE_START_DELAY_MS` by default). `stop` cancels a build in progress, or the
 * wait (the store closes); the next start finishes it.
 */
export function buildOnlinePostgres(
  pool: pg.Pool,
  steps: readonly Migration[],
  { after, pollMs = ONLINE_TAKEOVER_POLL_MS }: { after?: Promise<void>; pollMs?: number } = {},
) {
  let client: pg.PoolClient | undefined;
  let stopped = false;
  let cancel!: () => void;
  const cancelled = new Promise<void>((resolve) => (cancel = resolve));
  /** One try: false when another instance holds the lock, true when every step is recorded. */
  const tryBuild = async (): Promise<boolean> => {
    client = await pool.connect();
    try {
      const { rows } = await client.query<{ got: boolean }>(`SELECT pg_try_advisory_lock(${ONLINE_LOCK}) AS got`);
      if (!rows[0]!.got) return false;
      try {
        // What a builder before this one recorded is done.
        const done = await client.query<{ version: number }>('SELECT version FROM schema_migrations WHERE version = ANY($1)', [
          steps.map((step) => step.version),
        ]);
        const recorded = new Set(done.rows.map((row) => Number(row.version)));
        for (const step of steps.filter((s) => !recorded.has(s.version))) {
          for (const index of step.online ?? []) if (!stopped) await buildIndex(client, index);
          if (stopped) return true;
          await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
            step.version,
            step.name,
          ]);
        }
        return true;
      } finally {
        await client.query(`SELECT pg_advisory_unlock(${ONLINE_LOCK})`);
      }
    } finally {
      client.release();
      client = undefined;
    }
  };
  const build = async () => {
    while (!stopped && steps.length > 0 && !(await tryBuild())) await startDelay(pollMs, cancelled);
  };
  // Cancelled by `stop`: not a failure.
  const start = steps.length === 0 ? Promise.resolve() : Promise.race([after ?? startDelay(ONLINE_START_DELAY_MS, cancelled), cancelled]);
  const done = start.then(build).catch((error: unknown) => {
    if (!stopped) throw error;
  });
  return {
    done,
    async stop() {
      stopped = true;
      cancel();
      // The building connection's server process (pg's `Client.processID`), to cancel its statement.
      const pid = (client as { processID?: number } | undefined)?.processID;
      if (pid) await pool.query('SELECT pg_cancel_backend($1)', [pid]).catch(() => undefined);
      await done.catch(() => undefined);
    },
  };
}
