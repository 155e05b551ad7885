/**
 * SQLite's WAL checkpoints, off the event loop. By default SQLite checkpoints inside the commit that takes the WAL
 * past 1,000 pages, so that one request pays for copying the pages back into the database file and for its fsync:
 * on a checkout creation that was most of what its commits cost. Here the connection that serves requests turns
 * automatic checkpoints off, and one worker thread per process, with its own connection to each file, runs a
 * PASSIVE checkpoint (it never waits for, or blocks, a reader or a writer) every `INTERVAL_MS`.
 *
 * Should the worker die, every connection it served gets automatic checkpoints back, so the WAL never grows
 * unchecked. A WAL that passive checkpoints cannot empty under a steady stream of writes is restarted once it is
 * past `RESTART_AT_PAGES`; that one waits for the writer in progress, as the automatic checkpoint would have.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/** SQLite's own default, restored when the worker is gone. */
const AUTOCHECKPOINT_PAGES = 1_000;

/** How often the worker checkpoints each file, and the WAL size past which it restarts the WAL (64 MB of 4 KB pages). */
const INTERVAL_MS = 1_000;
const RESTART_AT_PAGES = 16_000;

// CommonJS, run with `eval`: the same under tsx, vitest and plain Node, and no file to ship or to resolve.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const files = new Map();
const checkpoint = (db) => {
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    if (result && result.log > workerData.restartAtPages) db.pragma('wal_checkpoint(RESTART)');
  } catch {
    // Busy or gone: the next round tries again.
  }
};
parentPort.on('message', ({ op, file }) => {
  const entry = files.get(file);
  if (op === 'open') {
    if (entry) entry.refs++;
    else {
      try {
        files.set(file, { db: new Database(file, { fileMustExist: true, timeout: 1000 }), refs: 1 });
      } catch (error) {
        parentPort.postMessage({ op: 'failed', file, message: String(error && error.message) });
      }
    }
  } else if (op === 'close' && entry && --entry.refs === 0) {
    files.delete(file);
    try { entry.db.close(); } catch {}
  }
});
setInterval(() => { for (const { db } of files.values()) checkpoint(db); }, workerData.intervalMs);
`;

interface Served {
  db: Database.Database;
  file: string;
}

let worker: Worker | undefined;
let idleTimer: NodeJS.Timeout | undefined;
const served = new Set<Served>();

const restoreAutocheckpoint = (entry: Served) => {
  try {
    if (entry.db.open) entry.db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  } catch {
    // Closed meanwhile: nothing to restore.
  }
};

function startWorker(): Worker {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const started = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver, intervalMs: INTERVAL_MS, restartAtPages: RESTART_AT_PAGES },
  });
  started.unref();
  started.on('message', (message: { op: string; file: string }) => {
    if (message.op !== 'failed') return;
    for (const entry of served) if (entry.file === message.file) restoreAutocheckpoint(entry);
  });
  const gone = () => {
    if (worker !== started) return;
    worker = undefined;
    for (const entry of served) restoreAutocheckpoint(entry);
    served.clear();
  };
  // An error is followed by 'exit'; listening to it keeps it from being thrown.
  started.on('error', gone);
  started.on('exit', gone);
  return started;
}

/**
 * Moves the checkpoints of `db` (a connection in WAL mode) to the process's checkpoint worker. Returns the release,
 * to call after `db.close()`. An in-memory database has no WAL and is left as it is.
 */
export function checkpointInBackground(db: Database.Database): () => void {
  if (db.memory) return () => {};
  const file = db.name;
  clearTimeout(idleTimer);
  worker ??= startWorker();
  const entry: Served = { db, file };
  served.add(entry);
  db.pragma('wal_autocheckpoint = 0');
  worker.postMessage({ op: 'open', file });
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (!served.delete(entry)) return;
    const current = worker;
    current?.postMessage({ op: 'close', file });
    // The last file gone: the thread stops a little later, so a store reopened at once (a restart) reuses it.
    if (current && served.size === 0) {
      idleTimer = setTimeout(() => {
        if (served.size === 0 && worker === current) {
          worker = undefined;
          void current.terminate();
        }
      }, 1_000);
      idleTimer.unref();
    }
  };
}

/** The worker thread, for tests: whether one runs, and a way to stop it as a crash would. */
export const checkpointWorker = {
  running: () => worker !== undefined,
  kill: async () => {
    await worker?.terminate();
  },
};
