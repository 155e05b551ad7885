/**
 * The back office's long reads on SQLite, off the request thread. better-sqlite3 is synchronous, so a console list or
 * an export page read on the connection that serves requests holds every shopper's status request for as long as it
 * runs. Here such reads go to one worker thread per store with its own read-only connection to the same file: in WAL
 * mode it reads the last committed state without blocking (or being blocked by) the writer, so a read sent after a
 * commit has returned sees that commit, as it would on the request thread's connection.
 *
 * The thread's heap is capped (`READER_HEAP_LIMITS`): it only ever holds one read's rows (a console page, an export's
 * page of a few hundred rows, a thousand checkouts' refunds: a few megabytes), and an uncapped heap is sized by V8
 * for the whole machine, so the garbage of a long export could pile up there before a collection. Capped, its share
 * of the process's memory stays the same however long the export.
 *
 * An in-memory database (`:memory:`, used by tests and tools) is private to its connection, so a worker could not
 * open it: its reads run in the calling thread, as they did before. Should the worker die, reads fall back to the
 * calling thread too, so a list never fails for want of the thread; a worker that had answered reads before it died
 * (a read too big for its heap) is replaced at the next read, so one oversized read does not put every later one
 * back on the request thread.
 */
import { createRequire } from 'node:module';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { Row } from './rows';

/** Reads `text` with named or positional `params`: the rows, as `Statement.all` gives them. */
export interface SqliteReader {
  all(text: string, params: unknown): Promise<Row[]>;
  close(): Promise<void>;
}

/** The reader thread's heap: room for pages many times an export's, and the young generation kept small. */
export const READER_HEAP_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };

// CommonJS, run with `eval` (as ../lib/wal-checkpointer.ts): the same under tsx, vitest and plain Node.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true, timeout: workerData.timeoutMs });
const statements = new Map();
parentPort.on('message', ({ id, text, params }) => {
  try {
    let statement = statements.get(text);
    if (!statement) {
      if (statements.size >= 256) statements.clear();
      statements.set(text, (statement = db.prepare(text).raw(true)));
    }
    // Arrays, not objects: the column names are sent once, not with every row. As one JSON text, which crosses
    // threads and is parsed faster than the same rows cloned value by value.
    const values = Array.isArray(params) ? statement.all(...params) : statement.all(params);
    parentPort.postMessage({ id, columns: statement.columns().map((c) => c.name), values: JSON.stringify(values) });
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

/** A row as `Statement.all` gives it: its values by column name. */
function rowOf(columns: readonly string[], values: readonly unknown[]): Row {
  const row: Row = {};
  for (let i = 0; i < columns.length; i++) row[columns[i]!] = values[i];
  return row;
}

/** Runs the reads on `db` itself: an in-memory database, or a worker that is gone. */
function inThread(db: Database.Database): SqliteReader['all'] {
  const statements = new Map<string, Database.Statement>();
  return async (text, params) => {
    let statement = statements.get(text);
    if (!statement) {
      if (statements.size >= 256) statements.clear();
      statements.set(text, (statement = db.prepare(text)));
    }
    return (Array.isArray(params) ? statement.all(...(params as unknown[])) : statement.all(params)) as Row[];
  };
}

/** A reader of `db`'s file: a worker thread with its own read-only connection, or `db` itself when it is in memory. */
export function sqliteReader(db: Database.Database, { timeoutMs = 5_000 } = {}): SqliteReader {
  const local = inThread(db);
  if (db.memory) return { all: local, close: async () => {} };
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const waiting = new Map<number, { resolve: (rows: Row[]) => void; reject: (error: Error) => void }>();
  let next = 0;
  let worker: Worker | undefined;
  /** Whether the thread may be started (again): not after close, nor after a thread died before answering anything. */
  let startable = true;
  const start = () => {
    const started = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver, file: db.name, timeoutMs },
      resourceLimits: READER_HEAP_LIMITS,
    });
    let answered = false;
    // The thread never keeps the process alive: the store's close ends it, and an exiting process need not wait.
    started.unref();
    started.on('message', ({ id, columns, values, error }: { id: number; columns?: string[]; values?: string; error?: string }) => {
      answered = true;
      const pending = waiting.get(id);
      waiting.delete(id);
      if (error !== undefined) pending?.reject(new Error(error));
      else pending?.resolve((JSON.parse(values!) as unknown[][]).map((row) => rowOf(columns!, row)));
    });
    const gone = () => {
      if (worker !== started) return;
      worker = undefined;
      // A thread that never answered (its driver cannot load, say) would fail again: the calling thread reads from now on.
      if (!answered) startable = false;
      // What was asked of the dead thread is read here instead; it was only ever reads.
      for (const { reject } of waiting.values()) reject(new Error('sqlite reader: the worker thread stopped'));
      waiting.clear();
    };
    started.on('error', gone);
    started.on('exit', gone);
    return started;
  };
  worker = start();
  return {
    all(text, params) {
      if (!worker && startable && db.open) worker = start();
      if (!worker || !db.open) return local(text, params);
      const id = next++;
      const sent = worker;
      return new Promise<Row[]>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        sent.postMessage({ id, text, params });
      }).catch((error: unknown) => {
        if (worker !== sent && db.open) return local(text, params);
        throw error;
      });
    },
    async close() {
      const stopping = worker;
      startable = false;
      worker = undefined;
      await stopping?.terminate();
    },
  };
}
