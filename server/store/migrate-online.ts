/**
 * The online half of the schema steps (./migration-step.ts): indexes over tables that already hold rows, built
 * after the store has opened, so a restarted server answers at once and its queries meanwhile read the same rows,
 * only slower. One index at a time; a step is recorded when its last index exists.
 *
 * SQLite: a worker thread with a connection of its own (the file's other connections are not held while it works:
 * the request thread goes on serving), each index in its own write transaction, so a write waits at most for one
 * index's build (busy_timeout), never for the whole step.
 *
 * PostgreSQL: `CREATE INDEX CONCURRENTLY` on a connection of its own, which blocks no write, by one instance at a
 * time (an advisory lock); the others wait and take over if that one dies.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type pg from 'pg';
import type { Migration } from './migration-step';
import type { Index } from './sql/ddl';
import { postgresDialect, sqliteDialect } from './sql/dialect';

/**
 * When a build starts by default: a second after the store opens. A restarted server spends its first moments
 * loading its code and starting to listen; a build beside them (a thread of its own, or PostgreSQL's own process)
 * would slow that down on a small machine, and nothing needs the indexes that soon.
 */
export const ONLINE_START_DELAY_MS = 1_000;

/** Resolves after `ms`, or as soon as `cancelled` does; holds no process open. */
export function startDelay(ms: number, cancelled: Promise<void>): Promise<void> {
  return Promise.race([new Promise<void>((resolve) => setTimeout(resolve, ms).unref()), cancelled]);
}

/** A build in progress: done when every pending step is built and recorded; `stop` ends it (the store closes). */
export interface OnlineBuild {
  done: Promise<void>;
  stop(): Promise<void>;
}

// CommonJS, run with `eval` (as ../lib/wal-checkpointer.ts): the same under tsx, vitest and plain Node.
const SQLITE_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true, timeout: workerData.timeoutMs });
const record = db.prepare('INSERT OR IGNORE INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
for (const step of workerData.steps) {
  for (const statement of step.statements) db.transaction(() => db.exec(statement)).immediate();
  record.run(step.version, step.name, new Date().toISOString());
}
db.close();
parentPort.postMessage('done');
`;

/**
 * Builds the online indexes of `steps` in the SQLite file `file`, off the calling thread. `after`: what the build
 * waits for before it starts (`ONLINE_START_DELAY_MS` by default; tests hold it to look at a store whose step is
 * still pending).
 */
export function buildOnlineSqlite(
  file: string,
  steps: readonly Migration[],
  { timeoutMs = 60_000, after }: { timeoutMs?: number; after?: Promise<void> } = {},
): OnlineBuild {
  let worker: Worker | undefined;
  let stopped = false;
  let cancel!: () => void;
  const cancelled = new Promise<void>((resolve) => (cancel = resolve));
  const done = Promise.race([after ?? startDelay(ONLINE_START_DELAY_MS, cancelled), cancelled]).then(
    () =>
      new Promise<void>((resolve, reject) => {
        if (stopped) return resolve();
        worker = new Worker(SQLITE_WORKER, {
          eval: true,
          workerData: {
            driver: createRequire(import.meta.url).resolve('better-sqlite3'),
            file,
            timeoutMs,
            steps: steps.map((step) => ({
              version: step.version,
              name: step.name,
              // IF NOT EXISTS: a build cut short (or made by another process) is taken as it is.
              statements: (step.online ?? []).map((index) => index.sql(sqliteDialect, { ifNotExists: true })),
            })),
          },
        });
        worker.on('message', () => resolve());
        worker.on('error', reject);
        worker.on('exit', () => (stopped ? resolve() : reject(new Error('online migration: the worker stopped before it was done'))));
      }),
  );
  return {
    done,
    async stop() {
      stopped = true;
      cancel();
      // A build cut short rolls back its index; the next start builds it again.
      await worker?.terminate();
      await done.catch(() => undefined);
    },
  };
}

/** Key of the lock held by the one instance building the online indexes (the others leave it to that one). */
const ONLINE_LOCK = `hashtext('checkout-store online indexes')`;

/**
 * Builds one online index without blocking writes. A build that failed or was cancelled leaves an invalid index of
 * that name, which IF NOT EXISTS would take for done: it is dropped and built again.
 */
async function buildIndex(client: pg.ClientBase, index: Index): Promise<void> {
  const { rows } = await client.query<{ valid: boolean }>(
    `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace`,
    [index.name],
  );
  if (rows[0]?.valid) return;
  if (rows[0]) await client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${index.name}`);
  await client.query(index.sql(postgresDialect, { concurrently: true, ifNotExists: true }));
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
): OnlineBuild {
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
