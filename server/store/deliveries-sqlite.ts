/**
 * The deliveries part of the SQLite store (see `deliveries.ts`); writes run in BEGIN IMMEDIATE transactions. SQLite has
 * one write lock for the file, which the shoppers' status transitions wait for (busy_timeout, in sleeps of 1 ms and
 * more), so a write here holds it for the writes alone: what can be read after the commit is.
 */
import type Database from 'better-sqlite3';
import { settledAs, type DeliveryStore, type RecordedAttempt } from './deliveries';
import { DUE_BY_ENDPOINT } from './migrations-deliveries';
import { merchantEventFromRow, type Row } from './rows';

/**
 * Takes one endpoint's deliveries due, oldest first, by the index of its pending deliveries (`DUE_BY_ENDPOINT`), or,
 * until that online index is built, by the index of every pending delivery. Named, because without statistics SQLite
 * prefers the endpoint's index of every delivery it ever had (an equality beats a range), delivered ones too, and
 * reads them all in each claim, holding the write lock the while: 2.6 ms a claim after 20,000 deliveries, and growing
 * with the history.
 */
export const sqliteDeliveryClaim = (index: string) => `
  UPDATE webhook_deliveries SET lease_owner = @owner, lease_until = @leaseUntil
  WHERE rowid IN (
    SELECT rowid FROM webhook_deliveries INDEXED BY ${index}
    WHERE endpoint_id = @endpointId AND state = 'pending' AND next_at <= @now AND (lease_until IS NULL OR lease_until <= @now)
    ORDER BY next_at LIMIT @limit)
  RETURNING event_seq, endpoint_id, attempts`;

/** `built` tells whether an online index exists yet (./sqlite-online.ts). */
export function deliveriesSqlite(db: Database.Database, built: (index: string) => boolean): DeliveryStore {
  const sql = {
    claimByDueTime: db.prepare(sqliteDeliveryClaim('webhook_deliveries_due')),
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

  /** Prepared once its index exists: a statement naming a missing index cannot be prepared. */
  let claimByEndpoint: Database.Statement | undefined;
  const claim = db.transaction((limits: Readonly<Record<string, number>>, now: string, owner: string, leaseUntil: string) => {
    const statement = built(DUE_BY_ENDPOINT) ? (claimByEndpoint ??= db.prepare(sqliteDeliveryClaim(DUE_BY_ENDPOINT))) : sql.claimByDueTime;
    return Object.entries(limits).flatMap(([endpointId, limit]) =>
      limit > 0 ? (statement.all({ endpointId, now, owner, leaseUntil, limit }) as Row[]) : [],
    );
  });
  /** The claimed deliveries' events, read after the claim's commit (an event never changes once written). */
  const withEvents = (claimed: Row[]) => {
    if (claimed.length === 0) return [];
    const rows = sql.events.all(JSON.stringify([...new Set(claimed.map((row) => row.event_seq as number))])) as Row[];
    const events = new Map(rows.map((row) => [row.seq as number, merchantEventFromRow(row, 'text')]));
    const ordered = claimed.sort((a, b) => (a.event_seq as number) - (b.event_seq as number));
    return ordered.map((row) => ({
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
    async claimDeliveries(limits, now, owner, leaseUntil) {
      return withEvents(claim.immediate(limits, now, owner, leaseUntil));
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
