/** The deliveries part of the SQLite store (see `deliveries.ts`); writes run in BEGIN IMMEDIATE transactions. */
import type Database from 'better-sqlite3';
import { settledAs, type DeliveryStore, type RecordedAttempt } from './deliveries';
import { merchantEventFromRow, type Row } from './rows';

export function deliveriesSqlite(db: Database.Database): DeliveryStore {
  const sql = {
    claim: db.prepare(`
      UPDATE webhook_deliveries SET lease_owner = @owner, lease_until = @leaseUntil
      WHERE rowid IN (
        SELECT rowid FROM webhook_deliveries
        WHERE state = 'pending' AND next_at <= @now AND (lease_until IS NULL OR lease_until <= @now)
          AND endpoint_id IN (SELECT value FROM json_each(@endpoints))
        ORDER BY next_at LIMIT @limit)
      RETURNING event_seq, endpoint_id, attempts`),
    event: db.prepare(`SELECT * FROM merchant_events WHERE seq = ?`),
    eventSeq: db.prepare(`SELECT seq FROM merchant_events WHERE id = ?`).pluck(),
    attempt: db.prepare(`
      INSERT INTO webhook_attempts (event_seq, endpoint_id, at, status, duration_ms, error)
      VALUES (@seq, @endpointId, @at, @status, @durationMs, @error)`),
    settle: db.prepare(`
      UPDATE webhook_deliveries SET attempts = attempts + 1, state = @state, next_at = coalesce(@retryAt, next_at),
        lease_owner = NULL, lease_until = NULL, last_status = @status, last_error = @error,
        delivered_at = CASE WHEN @state = 'delivered' THEN @at ELSE delivered_at END
      WHERE event_seq = @seq AND endpoint_id = @endpointId AND lease_owner = @owner AND state = 'pending'`),
  };

  const claim = db.transaction((endpoints: readonly string[], now: string, owner: string, leaseUntil: string, limit: number) =>
    (sql.claim.all({ endpoints: JSON.stringify(endpoints), now, owner, leaseUntil, limit }) as Row[]).map((row) => ({
      endpointId: row.endpoint_id as string,
      attempts: row.attempts as number,
      event: merchantEventFromRow(sql.event.get(row.event_seq) as Row, 'text'),
    })),
  );
  const recordOne = (owner: string, { seq, endpointId, attempt, outcome }: RecordedAttempt) => {
    const params = { ...attempt, ...settledAs(outcome) };
    const settled = sql.settle.run({ seq, endpointId, owner, ...params }).changes === 1;
    if (settled) sql.attempt.run({ seq, endpointId, ...params });
    return settled;
  };
  const record = db.transaction((owner: string, attempts: readonly RecordedAttempt[]) => attempts.map((a) => recordOne(owner, a)));

  return {
    async claimDeliveries(endpointIds, now, owner, leaseUntil, limit) {
      return claim.immediate(endpointIds, now, owner, leaseUntil, limit);
    },
    async recordAttempt(eventId, endpointId, owner, attempt, outcome) {
      const seq = sql.eventSeq.get(eventId) as number | undefined;
      if (seq === undefined) return false;
      return record.immediate(owner, [{ seq, endpointId, attempt, outcome }])[0]!;
    },
    async recordAttempts(owner, attempts) {
      return attempts.length ? record.immediate(owner, attempts) : [];
    },
  };
}
