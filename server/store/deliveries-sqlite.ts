/**
 * The deliveries part of the SQLite store (see `deliveries.ts`); writes run in BEGIN IMMEDIATE transactions. SQLite has
 * one write lock for the file, which the shoppers' status transitions wait for (busy_timeout, in sleeps of 1 ms and
 * more), so a write here holds it for the writes alone: what can be read after the commit is.
 */
import type Database from 'better-sqlite3';
import { settledAs, type DeliveryStore, type RecordedAttempt } from './deliveries';
import { merchantEventFromRow, type Row } from './rows';

/**
 * Takes the deliveries due, oldest first, by the index of pending deliveries. Named, because without statistics
 * SQLite prefers the endpoint's index (an equality beats a range) and reads every delivery the endpoint ever had,
 * delivered ones too, in each claim, holding the write lock the while: 2.6 ms a claim after 20,000 deliveries, and
 * growing with the history.
 */
export const SQLITE_DELIVERY_CLAIM = `
  UPDATE webhook_deliveries SET lease_owner = @owner, lease_until = @leaseUntil
  WHERE rowid IN (
    SELECT rowid FROM webhook_deliveries INDEXED BY webhook_deliveries_due
    WHERE state = 'pending' AND next_at <= @now AND (lease_until IS NULL OR lease_until <= @now)
      AND endpoint_id IN (SELECT value FROM json_each(@endpoints))
    ORDER BY next_at LIMIT @limit)
  RETURNING event_seq, endpoint_id, attempts`;

export function deliveriesSqlite(db: Database.Database): DeliveryStore {
  const sql = {
    claim: db.prepare(SQLITE_DELIVERY_CLAIM),
    events: db.prepare(`SELECT * FROM merchant_events WHERE seq IN (SELECT value FROM json_each(?))`),
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

  const claim = db.transaction(
    (endpoints: readonly string[], now: string, owner: string, leaseUntil: string, limit: number) =>
      sql.claim.all({ endpoints: JSON.stringify(endpoints), now, owner, leaseUntil, limit }) as Row[],
  );
  /** The claimed deliveries' events, read after the claim's commit (an event never changes once written). */
  const withEvents = (claimed: Row[]) => {
    if (claimed.length === 0) return [];
    const rows = sql.events.all(JSON.stringify([...new Set(claimed.map((row) => row.event_seq as number))])) as Row[];
    const events = new Map(rows.map((row) => [row.seq as number, merchantEventFromRow(row, 'text')]));
    return claimed.map((row) => ({
      endpointId: row.endpoint_id as string,
      attempts: row.attempts as number,
      event: events.get(row.event_seq as number)!,
    }));
  };
  const recordOne = (owner: string, { seq, endpointId, attempt, outcome }: RecordedAttempt) => {
    const params = { ...attempt, ...settledAs(outcome) };
    const settled = sql.settle.run({ seq, endpointId, owner, ...params }).changes === 1;
    if (settled) sql.attempt.run({ seq, endpointId, ...params });
    return settled;
  };
  const record = db.transaction((owner: string, attempts: readonly RecordedAttempt[]) => attempts.map((a) => recordOne(owner, a)));

  return {
    async claimDeliveries(endpointIds, now, owner, leaseUntil, limit) {
      return withEvents(claim.immediate(endpointIds, now, owner, leaseUntil, limit));
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
