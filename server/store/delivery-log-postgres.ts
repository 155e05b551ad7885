/** The delivery log of the PostgreSQL store (see `endpoints.ts`), with the same behaviour as the SQLite one. */
import type pg from 'pg';
import { eventAttemptFromRow, eventDeliveryFromRow } from './endpoint-rows';
import type { DeliveryLogStore } from './endpoints';
import { inTransaction } from './pg-transaction';
import { merchantEventFromRow, type Row } from './rows';

export function deliveryLogPostgres(pool: pg.Pool): DeliveryLogStore {
  const seqOf = async (client: pg.Pool | pg.PoolClient, eventId: string) => {
    const { rows } = await client.query<{ seq: string }>('SELECT seq FROM merchant_events WHERE id = $1', [eventId]);
    return rows[0]?.seq;
  };

  return {
    async queueEndpointDeliveries(endpointId, types, now, limit) {
      return inTransaction(pool, async (client) => {
        await client.query(
          `INSERT INTO webhook_cursors (endpoint_id, after_seq)
           SELECT $1, coalesce(max(seq), 0) FROM merchant_events ON CONFLICT DO NOTHING`,
          [endpointId],
        );
        // The cursor row is locked: instances queueing for the same endpoint take turns.
        const { rows } = await client.query<{ after_seq: string }>(
          'SELECT after_seq FROM webhook_cursors WHERE endpoint_id = $1 FOR UPDATE',
          [endpointId],
        );
        const after = Number(rows[0]!.after_seq);
        // The next `limit` events after the cursor; those of the filter's types are queued, the cursor passes them all.
        // One statement, so one snapshot: the events queued and the cursor's new place are the same ones (read apart,
        // an event committed in between would be passed by the cursor without being queued).
        const { rows: moved } = await client.query<{ last: string | null; queued: string }>(
          `WITH next AS (SELECT seq, type FROM merchant_events WHERE seq > $3 ORDER BY seq LIMIT $4),
             queued AS (
               INSERT INTO webhook_deliveries (event_seq, endpoint_id, state, next_at)
               SELECT seq, $1, 'pending', $2 FROM next WHERE $5::text[] IS NULL OR type = ANY($5::text[])
               ON CONFLICT DO NOTHING RETURNING event_seq)
           SELECT (SELECT max(seq) FROM next) AS last, (SELECT count(*) FROM queued) AS queued`,
          [endpointId, now, after, limit, types.length ? types : null],
        );
        const seq = moved[0]?.last;
        if (seq !== null && seq !== undefined) {
          await client.query('UPDATE webhook_cursors SET after_seq = $2 WHERE endpoint_id = $1 AND after_seq < $2', [endpointId, seq]);
        }
        return Number(moved[0]?.queued ?? 0);
      });
    },
    async getMerchantEvent(id) {
      const { rows } = await pool.query<Row>('SELECT * FROM merchant_events WHERE id = $1', [id]);
      return rows[0] ? merchantEventFromRow(rows[0], 'parsed') : undefined;
    },
    async deliveriesOfEvents(seqs) {
      if (seqs.length === 0) return [];
      const { rows } = await pool.query<Row>(
        'SELECT * FROM webhook_deliveries WHERE event_seq = ANY($1::bigint[]) ORDER BY event_seq, endpoint_id COLLATE "C"',
        [seqs],
      );
      return rows.map(eventDeliveryFromRow);
    },
    async attemptsOfEvent(eventId) {
      const seq = await seqOf(pool, eventId);
      if (seq === undefined) return undefined;
      const { rows } = await pool.query<Row>('SELECT * FROM webhook_attempts WHERE event_seq = $1 ORDER BY id', [seq]);
      return rows.map(eventAttemptFromRow);
    },
    async redeliverMerchantEvent(eventId, endpointIds, now) {
      return inTransaction(pool, async (client) => {
        const seq = await seqOf(client, eventId);
        if (seq === undefined) return undefined;
        const deliveries = [];
        // Pending again, due now, no attempts; a lease still held stays, and its attempt settles the delivery.
        for (const endpointId of [...new Set(endpointIds)].sort()) {
          const { rows } = await client.query<Row>(
            `INSERT INTO webhook_deliveries (event_seq, endpoint_id, state, next_at) VALUES ($1, $2, 'pending', $3)
             ON CONFLICT (event_seq, endpoint_id) DO UPDATE SET state = 'pending', attempts = 0, next_at = excluded.next_at
             RETURNING *`,
            [seq, endpointId, now],
          );
          deliveries.push(eventDeliveryFromRow(rows[0]!));
        }
        return deliveries;
      });
    },
  };
}
