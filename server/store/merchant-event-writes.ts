/**
 * Writing one of the merchant's events (./merchant-events) inside the transaction of the change it tells of, for any
 * part written over a `Db`. Events are read in `seq` order from a cursor (the pull feed, each endpoint's queue), and
 * PostgreSQL's sequence hands numbers out at insert, not at commit: two transactions committing out of order would
 * let a reader pass the lower number before it is visible, and miss it for good. So on PostgreSQL every transaction
 * that writes an event first takes the dialect's feed lock, held to its commit; SQLite's writes are serial already.
 */
import type { NewMerchantEvent } from './merchant-events';
import { toJson } from './rows';
import type { Dialect } from './sql/dialect';
import { get, run, type Work } from './sql/work';

export interface MerchantEventWriter {
  /** Writes `event` in the current write transaction. */
  write(event: NewMerchantEvent): Work<void>;
}

/** The writer of `dialect`, its statements made once. */
export function merchantEventWriter(d: Dialect): MerchantEventWriter {
  const lock = d.feedLock;
  const insert = `INSERT INTO merchant_events (id, type, created_at, data) VALUES (@id, @type, @createdAt, ${d.json('data')})`;
  return {
    *write({ id, type, createdAt, data }) {
      if (lock) yield* get(lock);
      yield* run(insert, { id, type, createdAt, data: toJson(data) });
    },
  };
}
