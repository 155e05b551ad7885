/** The deliveries part of the PostgreSQL store (see `deliveries.ts`), with the same behaviour as the SQLite one. */
import type pg from 'pg';
import { settledAs, type DeliveryStore, type RecordedAttempt } from './deliveries';
import { inTransaction } from './pg-transaction';
import { merchantEventFromRow, type Row } from './rows';

/**
 * Takes each endpoint's deliveries due, oldest first ($1 endpoint ids, $2 their limits, $3 now, $4 owner, $5 lease
 * until, $6 the limits' sum): each endpoint sought on its own (LATERAL, by the index of its pending deliveries), so
 * one with thousands due never crowds out another. SKIP LOCKED: instances claiming together each take other rows,
 * never the same one. The pick is a materialized CTE, run once: as `IN (subquery … LIMIT)` the planner may run it
 * once per outer row and lease more than the limit. Its `LIMIT $6` takes nothing away: it tells the planner how few
 * rows come out of it (a per-row LIMIT it cannot see through), so the update finds them by key instead of hashing
 * the whole table.
 */
export const POSTGRES_DELIVERY_CLAIM = `
  WITH picked AS MATERIALIZED (
    SELECT p.event_seq, p.endpoint_id FROM unnest($1::text[], $2::int[]) AS room(endpoint_id, take)
    CROSS JOIN LATERAL (
      SELECT event_seq, endpoint_id FROM webhook_deliveries d
      WHERE d.endpoint_id = room.endpoint_id AND state = 'pending' AND next_at <= $3 AND (lease_until IS NULL OR lease_until <= $3)
      ORDER BY next_at LIMIT room.take FOR UPDATE SKIP LOCKED) p
    LIMIT $6),
  taken AS (
    UPDATE webhook_deliveries d SET lease_owner = $4, lease_until = $5
    FROM picked p WHERE d.event_seq = p.event_seq AND d.endpoint_id = p.endpoint_id
    RETURNING d.event_seq, d.endpoint_id, d.attempts)
  SELECT taken.endpoint_id, taken.attempts, e.* FROM taken JOIN merchant_events e ON e.seq = taken.event_seq
  ORDER BY e.seq, taken.endpoint_id`;

export function deliveriesPostgres(pool: pg.Pool): DeliveryStore {
  return {
    async claimDeliveries(limits, now, owner, leaseUntil) {
      const rooms = Object.entries(limits).filter(([, take]) => take > 0);
      if (rooms.length === 0) return [];
      const { rows } = await pool.query<Row>(POSTGRES_DELIVERY_CLAIM, [
        rooms.map(([endpointId]) => endpointId),
        rooms.map(([, take]) => take),
        now,
        owner,
        leaseUntil,
        rooms.reduce((sum, [, take]) => sum + take, 0),
      ]);
      return rows.map((row) => ({
        endpointId: row.endpoint_id as string,
        attempts: row.attempts as number,
        event: merchantEventFromRow(row, 'parsed'),
      }));
    },
    async recordAttempt(eventId, endpointId, owner, attempt, outcome) {
      const { state, retryAt } = settledAs(outcome);
      return inTransaction(pool, async (client) => {
        const settled = await client.query<{ event_seq: string }>(
          `UPDATE webhook_deliveries d SET attempts = attempts + 1, state = $4, next_at = COALESCE($5, next_at),
             lease_owner = NULL, lease_until = NULL, last_status = $6, last_error = $7,
             delivered_at = CASE WHEN $4 = 'delivered' THEN $8::timestamptz ELSE delivered_at END
           FROM merchant_events e
           WHERE e.id = $1 AND d.event_seq = e.seq AND d.endpoint_id = $2 AND d.lease_owner = $3 AND d.state = 'pending'
           RETURNING d.event_seq`,
          [eventId, endpointId, owner, state, retryAt, attempt.status, attempt.error, attempt.at],
        );
        const seq = settled.rows[0]?.event_seq;
        if (seq === undefined) return false;
        await client.query(
          `INSERT INTO webhook_attempts (event_seq, endpoint_id, at, status, duration_ms, error) VALUES ($1, $2, $3, $4, $5, $6)`,
          [seq, endpointId, attempt.at, attempt.status, attempt.durationMs, attempt.error],
        );
        return true;
      });
    },
    async recordAttempts(owner, attempts) {
      if (attempts.length === 0) return [];
      // One statement settles the whole batch and logs the attempts of the deliveries it settled.
      const column = <T>(pick: (a: RecordedAttempt) => T) => attempts.map(pick);
      const { rows } = await pool.query<{ event_seq: string; endpoint_id: string }>(
        `WITH input AS (
           SELECT * FROM unnest($2::bigint[], $3::text[], $4::text[], $5::timestamptz[], $6::int[], $7::text[], $8::timestamptz[],
             $9::int[]) AS t(seq, endpoint_id, state, retry_at, status, error, at, duration_ms)),
         settled AS (
           UPDATE webhook_deliveries d SET attempts = d.attempts + 1, state = i.state, next_at = COALESCE(i.retry_at, d.next_at),
             lease_owner = NULL, lease_until = NULL, last_status = i.status, last_error = i.error,
             delivered_at = CASE WHEN i.state = 'delivered' THEN i.at ELSE d.delivered_at END
           FROM input i
           WHERE d.event_seq = i.seq AND d.endpoint_id = i.endpoint_id AND d.lease_owner = $1 AND d.state = 'pending'
           RETURNING d.event_seq, d.endpoint_id),
         logged AS (
           INSERT INTO webhook_attempts (event_seq, endpoint_id, at, status, duration_ms, error)
           SELECT i.seq, i.endpoint_id, i.at, i.status, i.duration_ms, i.error
           FROM input i JOIN settled s ON s.event_seq = i.seq AND s.endpoint_id = i.endpoint_id)
         SELECT event_seq, endpoint_id FROM settled`,
        [
          owner,
          column((a) => a.seq),
          column((a) => a.endpointId),
          column((a) => settledAs(a.outcome).state),
          column((a) => settledAs(a.outcome).retryAt),
          column((a) => a.attempt.status),
          column((a) => a.attempt.error),
          column((a) => a.attempt.at),
          column((a) => a.attempt.durationMs),
        ],
      );
      const done = new Set(rows.map((row) => `${row.event_seq}:${row.endpoint_id}`));
      return attempts.map((a) => done.has(`${a.seq}:${a.endpointId}`));
    },
  };
}
