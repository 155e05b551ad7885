/**
 * What a store tells whoever watches it (the product's metrics, server/metrics): how long each unit of work took on
 * the database, and each checkout change it committed. Told after the fact and never awaited, so a watcher never
 * holds up a commit.
 */
import type { Db } from './sql/db';
import type { CommittedChange } from './types';

export type StoreKind = 'sqlite' | 'postgres';

export interface StoreObserver {
  /** One `read`/`list` (a `read`) or one transaction (a `write`), from its start to its answer or its failure. */
  query: (store: StoreKind, kind: 'read' | 'write', seconds: number) => void;
  /** A checkout's change as this instance committed it (one of another instance never comes here). */
  committed: (change: CommittedChange) => void;
}

/** `db`, each of whose units of work is timed for `observe`. */
export function timedDb(db: Db, store: StoreKind, observe: StoreObserver['query']): Db {
  /** Runs `work` and tells how long it took, whether it answered or failed. */
  const timed = async <T>(kind: 'read' | 'write', work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await work();
    } finally {
      observe(store, kind, (performance.now() - started) / 1000);
    }
  };
  return {
    dialect: db.dialect,
    write: (work, options) => timed('write', () => db.write(work, options)),
    read: (work) => timed('read', () => db.read(work)),
    list: (work) => timed('read', () => db.list(work)),
    built: (index) => db.built(index),
  };
}
