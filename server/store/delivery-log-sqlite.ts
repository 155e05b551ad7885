/**
 * The delivery log of the SQLite store (see `endpoints.ts`): each endpoint's queue by its type filter, each event's
 * deliveries and attempts, and a redelivery. Writes run in BEGIN IMMEDIATE transactions.
 */
import type Database from 'better-sqlite3';
import { eventAttemptFromRow, eventDeliveryFromRow } from './endpoint-rows';
import type { DeliveryLogStore } from './endpoints';
import { merchantEventFromRow, type Row } from './rows';

export function deliveryLogSqlite(db: Database.Database): DeliveryLogStore {
  const sql = {
    startCursor: db.prepare(`
      INSERT INTO webhook_cursors (endpoint_id, after_seq)
      VALUES (?, (SELECT coalesce(max(seq), 0) FROM merchant_events)) ON CONFLICT DO NOTHING`),
    cursor: db.prepare(`SELECT after_seq FROM webhook_cursors WHERE endpoint_id = ?`).pluck(),
    // The next `limit` events after the cursor; those of the filter's types are queued, the cursor passes them all.
    queue: db.prepare(`
      INSERT INTO webhook_deliveries (event_seq, endpoint_id, state, next_at)
      SELECT seq, @endpointId, 'pending', @now FROM (SELECT seq, type FROM merchant_events WHERE seq > @after ORDER BY seq LIMIT @limit)
      WHERE @types IS NULL OR type IN (SELECT value FROM json_each(@types))
      ON CONFLICT DO NOTHING
      RETURNING event_seq`),
    last: db.prepare(`SELECT max(seq) FROM (SELECT seq FROM merchant_events WHERE seq > ? ORDER BY seq LIMIT ?)`).pluck(),
    moveCursor: db.prepare(`UPDATE webhook_cursors SET after_seq = @seq WHERE endpoint_id = @endpointId AND after_seq < @seq`),
    event: db.prepare(`SELECT * FROM merchant_events WHERE id = ?`),
    seq: db.prepare(`SELECT seq FROM merchant_events WHERE id = ?`).pluck(),
    deliveries: db.prepare(`
      SELECT * FROM webhook_deliveries WHERE event_seq IN (SELECT value FROM json_each(?)) ORDER BY event_seq, endpoint_id`),
    attempts: db.prepare(`SELECT * FROM webhook_attempts WHERE event_seq = ? ORDER BY id`),
    // Pending again, due now, no attempts; a lease still held stays, and its attempt settles the delivery.
    redeliver: db.prepare(`
      INSERT INTO webhook_deliveries (event_seq, endpoint_id, state, next_at) VALUES (@seq, @endpointId, 'pending', @now)
      ON CONFLICT (event_seq, endpoint_id) DO UPDATE SET state = 'pending', attempts = 0, next_at = excluded.next_at
      RETURNING *`),
  };

  const queue = db.transaction((endpointId: string, types: readonly string[], now: string, limit: number) => {
    sql.startCursor.run(endpointId);
    const after = sql.cursor.get(endpointId) as number;
    const filter = types.length ? JSON.stringify(types) : null;
    const queued = sql.queue.all({ endpointId, now, after, limit, types: filter });
    const seq = sql.last.get(after, limit) as number | null;
    if (seq !== null) sql.moveCursor.run({ seq, endpointId });
    return queued.length;
  });
  const redeliver = db.transaction((eventId: string, endpointIds: readonly string[], now: string) => {
    const seq = sql.seq.get(eventId) as number | undefined;
    if (seq === undefined) return undefined;
    return [...new Set(endpointIds)].sort().map((endpointId) => eventDeliveryFromRow(sql.redeliver.get({ seq, endpointId, now }) as Row));
  });

  return {
    async queueEndpointDeliveries(endpointId, types, now, limit) {
      return queue.immediate(endpointId, types, now, limit);
    },
    async getMerchantEvent(id) {
      const row = sql.event.get(id) as Row | undefined;
      return row ? merchantEventFromRow(row, 'text') : undefined;
    },
    async deliveriesOfEvents(seqs) {
      if (seqs.length === 0) return [];
      return (sql.deliveries.all(JSON.stringify(seqs)) as Row[]).map(eventDeliveryFromRow);
    },
    async attemptsOfEvent(eventId) {
      const seq = sql.seq.get(eventId) as number | undefined;
      if (seq === undefined) return undefined;
      return (sql.attempts.all(seq) as Row[]).map(eventAttemptFromRow);
    },
    async redeliverMerchantEvent(eventId, endpointIds, now) {
      return redeliver.immediate(eventId, endpointIds, now);
    },
  };
}
