/**
 * The online half of the schema steps (./migration-step.ts): indexes over tables that already hold rows, built
 * after the store has opened, so a restarted server answers at once and its queries meanwhile read the same rows,
 * only slower. One index at a time; a step is recorded when its last index exists.
 *
 * SQLite: a worker thread with a connection of its own (the file's other connections are not held while it works:
 * the request thread goes on serving), each index in its own write transaction, so a write waits at most for one
 * index's build (busy_timeout), never for the whole step.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { createIndexSqlite } from './migrate-sqlite';
import type { Migration } from './migration-step';

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
              statements: (step.online ?? []).map(createIndexSqlite),
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
