/**
 * SQLite lets one connection write at a time, and two threads of a server hold one each on the same file: the
 * request thread, where the shoppers' status is committed, and the delivery thread (server/events/thread.ts). When
 * one begins a write while the other's is open, SQLite's busy handler sleeps, the first time for a whole millisecond
 * however soon the lock is free: while a backlog of merchant events drained, about a third of the status commits met
 * one of the delivery thread's transactions and slept.
 *
 * So the two take turns through two counters they share. The request thread says it wants to write and waits for the
 * transaction in progress, woken (`Atomics.notify`) the moment it ends; the delivery thread begins none while the
 * request thread wants one, and gives way if both begin at once (each writes its own counter before reading the
 * other's, so at least one of them sees the other). Either wait is bounded: past it, SQLite's busy handler decides as
 * it did before. Only transactions take turns (every write of the payment's path and of the deliveries is one).
 */
import { resolve } from 'node:path';
import type Database from 'better-sqlite3';

/** The request thread goes first; the delivery thread's writes are `background`. */
export type WriteRole = 'request' | 'background';

export interface WriteTurns {
  buffer: SharedArrayBuffer;
  role: WriteRole;
  /** How long this side waits for its turn before leaving it to SQLite's busy handler. Default `TURN_WAIT_MS`. */
  waitMs?: number;
}

/** 1 while the background thread is in a write transaction. */
const WRITING = 0;
/** How many of the request thread's writes are waiting or in progress. */
const WANTED = 1;
/** The longest either side waits for its turn before leaving it to SQLite's busy handler. */
export const TURN_WAIT_MS = 20;

const buffers = new Map<string, SharedArrayBuffer>();

/** The counters of the database at `file` in this process, made on first use: the delivery thread gets them in its `workerData`. */
export function writeTurnsOf(file: string): SharedArrayBuffer {
  const key = resolve(file);
  let buffer = buffers.get(key);
  if (!buffer) buffers.set(key, (buffer = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT)));
  return buffer;
}

/** After the background thread has exited: a transaction it never finished leaves nobody waiting. */
export function releaseBackgroundTurn(buffer: SharedArrayBuffer): void {
  const cells = new Int32Array(buffer);
  Atomics.store(cells, WRITING, 0);
  Atomics.notify(cells, WRITING);
}

/** Runs `write` when it is `role`'s turn. */
function turnTaker({ buffer, role, waitMs = TURN_WAIT_MS }: WriteTurns): <T>(write: () => T) => T {
  const cells = new Int32Array(buffer);
  if (role === 'request') {
    return (write) => {
      Atomics.add(cells, WANTED, 1);
      try {
        Atomics.wait(cells, WRITING, 1, waitMs);
        return write();
      } finally {
        if (Atomics.sub(cells, WANTED, 1) === 1) Atomics.notify(cells, WANTED);
      }
    };
  }
  return (write) => {
    const until = performance.now() + waitMs;
    for (;;) {
      Atomics.store(cells, WRITING, 1);
      const wanted = Atomics.load(cells, WANTED);
      const left = until - performance.now();
      if (wanted === 0 || left <= 0) break;
      // The request thread wants the lock: give way until it is done.
      Atomics.store(cells, WRITING, 0);
      Atomics.notify(cells, WRITING);
      Atomics.wait(cells, WANTED, wanted, left);
    }
    try {
      return write();
    } finally {
      Atomics.store(cells, WRITING, 0);
      Atomics.notify(cells, WRITING);
    }
  };
}

/**
 * Makes every transaction of `db` (`db.transaction(fn)`, each of its forms) take its turn. A transaction inside
 * another is already in its turn.
 */
export function takeWriteTurns(db: Database.Database, turns: WriteTurns): void {
  const turn = turnTaker(turns);
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn: (...args: unknown[]) => unknown) => {
    const tx = transaction(fn);
    const inTurn =
      (run: (...args: unknown[]) => unknown) =>
      (...args: unknown[]) =>
        db.inTransaction ? run(...args) : turn(() => run(...args));
    return Object.assign(inTurn(tx), {
      default: inTurn((...args) => tx.default(...args)),
      deferred: inTurn((...args) => tx.deferred(...args)),
      immediate: inTurn((...args) => tx.immediate(...args)),
      exclusive: inTurn((...args) => tx.exclusive(...args)),
    });
  }) as typeof db.transaction;
}
