/**
 * The delivery log (see ./endpoints): each endpoint's queue by its type filter, each event's deliveries and attempts,
 * and a redelivery. Written once for both databases (`deliveryLogPart`); the queueing of the next events differs as a
 * whole, so both its forms are here. Writes run in one transaction (BEGIN IMMEDIATE on SQLite).
 */
import { eventAttemptFromRow, eventDeliveryFromRow } from './endpoint-rows';
import type { EventAttempt, EventDelivery } from './endpoints';
import type { MerchantEvent } from './merchant-events';
import { merchantEventFromRow } from './rows';
import type { Db } from './sql/db';
import { pick } from './sql/dialect';
import { all, get, run, type Work } from './sql/work';

export interface DeliveryLogStore {
  /**
   * Queues for the endpoint the events written since its cursor whose type is in `types` (empty: every type), and
   * moves its cursor past the others too; the first call for an endpoint without a cursor starts it at the end of the
   * feed. Resolves with how many it queued.
   */
  queueEndpointDeliveries(endpointId: string, types: readonly string[], now: string, limit: number): Promise<number>;
  getMerchantEvent(id: string): Promise<MerchantEvent | undefined>;
  /** The deliveries of the events of `seqs`, by event then endpoint id. */
  deliveriesOfEvents(seqs: readonly number[]): Promise<EventDelivery[]>;
  /** The event's attempts, oldest first; undefined when there is no such event. */
  attemptsOfEvent(eventId: string): Promise<EventAttempt[] | undefined>;
  /**
   * Queues the event again for each endpoint, due at `now`, as a new pending delivery with no attempts (the same
   * event, so the same `webhook-id`); undefined when there is no such event.
   */
  redeliverMerchantEvent(eventId: string, endpointIds: readonly string[], now: string): Promise<EventDelivery[] | undefined>;
}

/** Where the next `limit` events after the cursor `@after` end (`last`, null when there are none), and how many were queued. */
interface Queued {
  last: number | string | null;
  queued: number;
}

/**
 * SQLite queues the next `limit` events after the cursor, those of the filter's types (`@types`, JSON text; NULL:
 * every type), then reads where they end: its write lock keeps any other event out in between.
 */
const SQLITE_QUEUE = `
  INSERT INTO webhook_deliveries (event_seq, endpoint_id, state, next_at)
  SELECT seq, @endpointId, 'pending', @now FROM (SELECT seq, type FROM merchant_events WHERE seq > @after ORDER BY seq LIMIT @limit)
  WHERE @types IS NULL OR type IN (SELECT value FROM json_each(@types))
  ON CONFLICT DO NOTHING
  RETURNING event_seq`;
const SQLITE_LAST = `SELECT max(seq) AS last FROM (SELECT seq FROM merchant_events WHERE seq > @after ORDER BY seq LIMIT @limit)`;

/**
 * PostgreSQL does both in one statement, so one snapshot: the events queued and the cursor's new place are the same
 * ones (read apart, an event committed in between would be passed by the cursor without being queued).
 */
const POSTGRES_QUEUE = `
  WITH next AS (SELECT seq, type FROM merchant_events WHERE seq > @after ORDER BY seq LIMIT @limit),
    queued AS (
      INSERT INTO webhook_deliveries (event_seq, endpoint_id, state, next_at)
      SELECT seq, @endpointId, 'pending', @now FROM next WHERE @types::text[] IS NULL OR type = ANY(@types::text[])
      ON CONFLICT DO NOTHING RETURNING event_seq)
  SELECT (SELECT max(seq) FROM next) AS last, (SELECT count(*) FROM queued) AS queued`;

export function deliveryLogPart(db: Db): DeliveryLogStore {
  const d = db.dialect;
  const sql = {
    startCursor: `
      INSERT INTO webhook_cursors (endpoint_id, after_seq)
      VALUES (@endpointId, (SELECT coalesce(max(seq), 0) FROM merchant_events)) ON CONFLICT DO NOTHING`,
    // The cursor row is locked on PostgreSQL: instances queueing for the same endpoint take turns.
    cursor: `SELECT after_seq FROM webhook_cursors WHERE endpoint_id = @endpointId${d.forUpdate}`,
    moveCursor: `UPDATE webhook_cursors SET after_seq = @seq WHERE endpoint_id = @endpointId AND after_seq < @seq`,
    event: `SELECT * FROM merchant_events WHERE id = @id`,
    seq: `SELECT seq FROM merchant_events WHERE id = @eventId`,
    deliveries: `
      SELECT * FROM webhook_deliveries WHERE ${d.inList('event_seq', 'seqs')}
      ORDER BY event_seq, ${d.textOrder('endpoint_id')}`,
    attempts: `SELECT * FROM webhook_attempts WHERE event_seq = @seq ORDER BY id`,
    // Pending again, due now, no attempts; a lease still held stays, and its attempt settles the delivery.
    redeliver: `
      INSERT INTO webhook_deliveries (event_seq, endpoint_id, state, next_at) VALUES (@seq, @endpointId, 'pending', @now)
      ON CONFLICT (event_seq, endpoint_id) DO UPDATE SET state = 'pending', attempts = 0, next_at = excluded.next_at
      RETURNING *`,
  };

  /** The next `limit` events after the cursor; those of the filter's types are queued, the cursor passes them all. */
  const queueNext = pick(d, {
    sqlite: function* (params: Record<string, unknown>): Work<Queued> {
      const queued = yield* all(SQLITE_QUEUE, params);
      const found = yield* get<Queued>(SQLITE_LAST, params);
      return { last: found?.last ?? null, queued: queued.length };
    },
    postgres: function* (params: Record<string, unknown>): Work<Queued> {
      const found = yield* get<{ last: string | null; queued: string }>(POSTGRES_QUEUE, params);
      return { last: found?.last ?? null, queued: Number(found?.queued ?? 0) };
    },
  });
  function* queue(endpointId: string, types: readonly string[], now: string, limit: number): Work<number> {
    yield* run(sql.startCursor, { endpointId });
    const cursor = yield* get<{ after_seq: number | string }>(sql.cursor, { endpointId });
    const after = Number(cursor!.after_seq);
    const { last, queued } = yield* queueNext({ endpointId, now, after, limit, types: types.length ? d.list(types) : null });
    if (last !== null) yield* run(sql.moveCursor, { seq: last, endpointId });
    return queued;
  }
  function* seqOf(eventId: string): Work<number | string | undefined> {
    return (yield* get<{ seq: number | string }>(sql.seq, { eventId }))?.seq;
  }

  return {
    queueEndpointDeliveries: (endpointId, types, now, limit) => db.write(() => queue(endpointId, types, now, limit)),
    getMerchantEvent: (id) =>
      db.read(function* () {
        const row = yield* get(sql.event, { id });
        return row ? merchantEventFromRow(row, d.rows) : undefined;
      }),
    async deliveriesOfEvents(seqs) {
      if (seqs.length === 0) return [];
      return db.read(function* () {
        return (yield* all(sql.deliveries, { seqs: d.list(seqs) })).map(eventDeliveryFromRow);
      });
    },
    attemptsOfEvent: (eventId) =>
      db.read(function* () {
        const seq = yield* seqOf(eventId);
        if (seq === undefined) return undefined;
        return (yield* all(sql.attempts, { seq })).map(eventAttemptFromRow);
      }),
    redeliverMerchantEvent: (eventId, endpointIds, now) =>
      db.write(function* () {
        const seq = yield* seqOf(eventId);
        if (seq === undefined) return undefined;
        const deliveries: EventDelivery[] = [];
        for (const endpointId of [...new Set(endpointIds)].sort()) {
          deliveries.push(eventDeliveryFromRow((yield* get(sql.redeliver, { seq, endpointId, now }))!));
        }
        return deliveries;
      }),
  };
}
