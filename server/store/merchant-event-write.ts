/**
 * A merchant event written inside the caller's write transaction (see ./merchant-events), on either database.
 * Events are read in `seq` order from a cursor (the pull feed, each endpoint's queue), and a sequence hands numbers
 * out at insert, not at commit: so on PostgreSQL the transaction first takes the feed's lock (`Dialect.feedLock`),
 * held to its commit, and events commit in `seq` order; SQLite's writes are serial already.
 */
import type { NewMerchantEvent } from './merchant-events';
import { toJson } from './rows';
import type { Dialect } from './sql/dialect';
import { get, run, type Work } from './sql/work';

/** The work of writing `event`, for a part's write on the database of `d`. */
export function merchantEventWriter(d: Dialect): (event: NewMerchantEvent) => Work<void> {
  const insert = `INSERT INTO merchant_events (id, type, created_at, data) VALUES (@id, @type, @createdAt, ${d.json('data')})`;
  const lock = d.feedLock;
  return function* ({ id, type, createdAt, data }) {
    if (lock) yield* get(lock);
    yield* run(insert, { id, type, createdAt, data: toJson(data) });
  };
}
