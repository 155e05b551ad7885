/**
 * The deliveries of the merchant's events (./merchant-events) to the merchant's webhook endpoints: queued per
 * endpoint from a cursor (`queueEndpointDeliveries`, ./endpoints), leased to one instance at a time (so several instances sharing PostgreSQL never send the
 * same attempt twice, and a crashed one's lease runs out for another to take), and every attempt kept. Delivery is
 * at least once: an attempt whose answer is lost to a crash is made again, with the same event id, which the
 * receiver uses to discard repeats. Written once for both databases (`deliveriesPart`); the claim and the batch's
 * record differ as a whole, so each has its two forms here.
 */
import type { MerchantEvent } from './merchant-events';
import { DUE_BY_ENDPOINT } from './migrations-deliveries';
import { merchantEventFromRow, type Row } from './rows';
import type { Db } from './sql/db';
import { pick } from './sql/dialect';
import { all, get, run, type Work } from './sql/work';

/** A delivery taken by `claimDeliveries`: the event, and how many attempts were made before this one. */
export interface WebhookDelivery {
  endpointId: string;
  attempts: number;
  event: MerchantEvent;
}

/** What became of one attempt. */
export interface WebhookAttempt {
  at: string;
  /** The receiver's HTTP status; null when no answer came (timeout, refused connection). */
  status: number | null;
  durationMs: number;
  error: string | null;
}

export type DeliveryOutcome = { delivered: true } | { retryAt: string } | { failed: true };

export interface DeliveryStore {
  /**
   * Takes, for each endpoint of `limits`, up to its limit of its deliveries due at `now` whose lease is free or ran
   * out, oldest due first, for `owner` until `leaseUntil`; each is taken by one caller only, on any instance. Each
   * endpoint is sought on its own, so one with thousands due (a receiver that hangs) never crowds out another.
   * Answered in event order.
   */
  claimDeliveries(limits: Readonly<Record<string, number>>, now: string, owner: string, leaseUntil: string): Promise<WebhookDelivery[]>;
  /** Records the attempt and the delivery's outcome; ignored (false) when `owner` no longer holds the lease. */
  recordAttempt(eventId: string, endpointId: string, owner: string, attempt: WebhookAttempt, outcome: DeliveryOutcome): Promise<boolean>;
  /**
   * `recordAttempt` for many deliveries (by event seq) in one transaction: one commit for a batch the worker sent,
   * instead of one each. Answers, in order, whether each was recorded (false: `owner` no longer held its lease).
   */
  recordAttempts(owner: string, attempts: readonly RecordedAttempt[]): Promise<boolean[]>;
  /**
   * Hands back every lease `owner` still holds (a worker stopping: what it claimed and did not send), so another
   * instance takes those deliveries at once instead of when their leases run out. Resolves with how many.
   */
  releaseDeliveries(owner: string): Promise<number>;
}

/** One attempt of `recordAttempts`: the delivery (its event's seq and the endpoint), what happened, and its outcome. */
export interface RecordedAttempt {
  seq: number;
  endpointId: string;
  attempt: WebhookAttempt;
  outcome: DeliveryOutcome;
}

/** The state and retry time an outcome leaves a delivery in. */
export const settledAs = (outcome: DeliveryOutcome) => ({
  state: 'delivered' in outcome ? 'delivered' : 'failed' in outcome ? 'failed' : 'pending',
  retryAt: 'retryAt' in outcome ? outcome.retryAt : null,
});

/**
 * SQLite takes one endpoint's deliveries due, oldest first, by the index of its pending deliveries (`DUE_BY_ENDPOINT`),
 * or, until that online index is built, by the index of every pending delivery. Named, because without statistics
 * SQLite prefers the endpoint's index of every delivery it ever had (an equality beats a range), delivered ones too,
 * and reads them all in each claim, holding the write lock the while: 2.6 ms a claim after 20,000 deliveries, and
 * growing with the history.
 */
export const sqliteDeliveryClaim = (index: string) => `
  UPDATE webhook_deliveries SET lease_owner = @owner, lease_until = @leaseUntil
  WHERE rowid IN (
    SELECT rowid FROM webhook_deliveries INDEXED BY ${index}
    WHERE endpoint_id = @endpointId AND state = 'pending' AND next_at <= @now AND (lease_until IS NULL OR lease_until <= @now)
    ORDER BY next_at LIMIT @limit)
  RETURNING event_seq, endpoint_id, attempts`;

/**
 * PostgreSQL takes every endpoint's deliveries due in one statement (@endpoints their ids, @takes their limits,
 * @total the limits' sum): each endpoint sought on its own (LATERAL, by the index of its pending deliveries), so one
 * with thousands due never crowds out another. SKIP LOCKED: instances claiming together each take other rows, never
 * the same one. The pick is a materialized CTE, run once: as `IN (subquery … LIMIT)` the planner may run it once per
 * outer row and lease more than the limit. Its `LIMIT @total` takes nothing away: it tells the planner how few rows
 * come out of it (a per-row LIMIT it cannot see through), so the update finds them by key instead of hashing the
 * whole table.
 */
export const POSTGRES_DELIVERY_CLAIM = `
  WITH picked AS MATERIALIZED (
    SELECT p.event_seq, p.endpoint_id FROM unnest(@endpoints::text[], @takes::int[]) AS room(endpoint_id, take)
    CROSS JOIN LATERAL (
      SELECT event_seq, endpoint_id FROM webhook_deliveries d
      WHERE d.endpoint_id = room.endpoint_id AND state = 'pending' AND next_at <= @now AND (lease_until IS NULL OR lease_until <= @now)
      ORDER BY next_at LIMIT room.take FOR UPDATE SKIP LOCKED) p
    LIMIT @total),
  taken AS (
    UPDATE webhook_deliveries d SET lease_owner = @owner, lease_until = @leaseUntil
    FROM picked p WHERE d.event_seq = p.event_seq AND d.endpoint_id = p.endpoint_id
    RETURNING d.event_seq, d.endpoint_id, d.attempts)
  SELECT taken.endpoint_id, taken.attempts, e.* FROM taken JOIN merchant_events e ON e.seq = taken.event_seq
  ORDER BY e.seq, taken.endpoint_id`;

/** PostgreSQL settles a whole batch and logs the attempts of the deliveries it settled in one statement. */
const POSTGRES_RECORD_BATCH = `
  WITH input AS (
    SELECT * FROM unnest(@seqs::bigint[], @endpoints::text[], @states::text[], @retryAts::timestamptz[], @statuses::int[],
      @errors::text[], @ats::timestamptz[], @durations::int[]) AS t(seq, endpoint_id, state, retry_at, status, error, at, duration_ms)),
  settled AS (
    UPDATE webhook_deliveries d SET attempts = d.attempts + 1, state = i.state, next_at = COALESCE(i.retry_at, d.next_at),
      lease_owner = NULL, lease_until = NULL, last_status = i.status, last_error = i.error,
      delivered_at = CASE WHEN i.state = 'delivered' THEN i.at ELSE d.delivered_at END
    FROM input i
    WHERE d.event_seq = i.seq AND d.endpoint_id = i.endpoint_id AND d.lease_owner = @owner AND d.state = 'pending'
    RETURNING d.event_seq, d.endpoint_id),
  logged AS (
    INSERT INTO webhook_attempts (event_seq, endpoint_id, at, status, duration_ms, error)
    SELECT i.seq, i.endpoint_id, i.at, i.status, i.duration_ms, i.error
    FROM input i JOIN settled s ON s.event_seq = i.seq AND s.endpoint_id = i.endpoint_id)
  SELECT event_seq, endpoint_id FROM settled`;

export function deliveriesPart(db: Db): DeliveryStore {
  const d = db.dialect;
  const sql = {
    events: `SELECT * FROM merchant_events WHERE ${d.inList('seq', 'seqs')}`,
    eventSeq: `SELECT seq FROM merchant_events WHERE id = @eventId`,
    attempt: `
      INSERT INTO webhook_attempts (event_seq, endpoint_id, at, status, duration_ms, error)
      VALUES (@seq, @endpointId, @at, @status, @durationMs, @error)`,
    settle: `
      UPDATE webhook_deliveries SET attempts = attempts + 1, state = @state, next_at = coalesce(${d.instant('retryAt')}, next_at),
        lease_owner = NULL, lease_until = NULL, last_status = @status, last_error = @error,
        delivered_at = CASE WHEN @state = 'delivered' THEN ${d.instant('at')} ELSE delivered_at END
      WHERE event_seq = @seq AND endpoint_id = @endpointId AND lease_owner = @owner AND state = 'pending'`,
    release: `UPDATE webhook_deliveries SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = @owner AND state = 'pending'`,
    claimByDueTime: sqliteDeliveryClaim('webhook_deliveries_due'),
    claimByEndpoint: sqliteDeliveryClaim(DUE_BY_ENDPOINT),
  };
  const asDelivery = (row: Row, event: MerchantEvent): WebhookDelivery => ({
    endpointId: row.endpoint_id as string,
    attempts: row.attempts as number,
    event,
  });

  /** SQLite: each endpoint's claim in one write transaction, the events read after its commit (an event never changes). */
  function* claimEach(limits: Readonly<Record<string, number>>, now: string, owner: string, leaseUntil: string): Work<Row[]> {
    // A statement naming a missing index cannot be prepared: by due time until the online index is built.
    const claim = db.built(DUE_BY_ENDPOINT) ? sql.claimByEndpoint : sql.claimByDueTime;
    const claimed: Row[] = [];
    for (const [endpointId, limit] of Object.entries(limits)) {
      if (limit > 0) claimed.push(...(yield* all(claim, { endpointId, now, owner, leaseUntil, limit })));
    }
    return claimed;
  }
  function* withEvents(claimed: Row[]): Work<WebhookDelivery[]> {
    if (claimed.length === 0) return [];
    const rows = yield* all(sql.events, { seqs: d.list([...new Set(claimed.map((row) => row.event_seq as number))]) });
    const events = new Map(rows.map((row) => [row.seq as number, merchantEventFromRow(row, d.rows)]));
    const ordered = claimed.sort((a, b) => (a.event_seq as number) - (b.event_seq as number));
    return ordered.map((row) => asDelivery(row, events.get(row.event_seq as number)!));
  }
  function* recordOne(owner: string, { seq, endpointId, attempt, outcome }: RecordedAttempt): Work<boolean> {
    const params = { ...attempt, ...settledAs(outcome), seq, endpointId, owner };
    const settled = (yield* run(sql.settle, params)) === 1;
    if (settled) yield* run(sql.attempt, params);
    return settled;
  }
  function* recordEach(owner: string, attempts: readonly RecordedAttempt[]): Work<boolean[]> {
    const recorded: boolean[] = [];
    for (const attempt of attempts) recorded.push(yield* recordOne(owner, attempt));
    return recorded;
  }
  function* recordBatch(owner: string, attempts: readonly RecordedAttempt[]): Work<boolean[]> {
    const column = <T>(of: (a: RecordedAttempt) => T) => attempts.map(of);
    const rows = yield* all<{ event_seq: string; endpoint_id: string }>(POSTGRES_RECORD_BATCH, {
      owner,
      seqs: column((a) => a.seq),
      endpoints: column((a) => a.endpointId),
      states: column((a) => settledAs(a.outcome).state),
      retryAts: column((a) => settledAs(a.outcome).retryAt),
      statuses: column((a) => a.attempt.status),
      errors: column((a) => a.attempt.error),
      ats: column((a) => a.attempt.at),
      durations: column((a) => a.attempt.durationMs),
    });
    const done = new Set(rows.map((row) => `${row.event_seq}:${row.endpoint_id}`));
    return attempts.map((a) => done.has(`${a.seq}:${a.endpointId}`));
  }

  const recordAttempt: DeliveryStore['recordAttempt'] = (eventId, endpointId, owner, attempt, outcome) =>
    db.write(function* () {
      const found = yield* get<{ seq: number | string }>(sql.eventSeq, { eventId });
      return found ? yield* recordOne(owner, { seq: Number(found.seq), endpointId, attempt, outcome }) : false;
    });

  const releaseDeliveries: DeliveryStore['releaseDeliveries'] = (owner) => db.write(() => run(sql.release, { owner }));

  return pick(d, {
    sqlite: {
      recordAttempt,
      releaseDeliveries,
      async claimDeliveries(limits, now, owner, leaseUntil) {
        const claimed = await db.write(() => claimEach(limits, now, owner, leaseUntil));
        return db.read(() => withEvents(claimed));
      },
      async recordAttempts(owner, attempts) {
        return attempts.length ? db.write(() => recordEach(owner, attempts)) : [];
      },
    },
    postgres: {
      recordAttempt,
      releaseDeliveries,
      async claimDeliveries(limits, now, owner, leaseUntil) {
        const rooms = Object.entries(limits).filter(([, take]) => take > 0);
        if (rooms.length === 0) return [];
        const rows = await db.read(() =>
          all(POSTGRES_DELIVERY_CLAIM, {
            endpoints: rooms.map(([endpointId]) => endpointId),
            takes: rooms.map(([, take]) => take),
            total: rooms.reduce((sum, [, take]) => sum + take, 0),
            now,
            owner,
            leaseUntil,
          }),
        );
        return rows.map((row) => asDelivery(row, merchantEventFromRow(row, d.rows)));
      },
      async recordAttempts(owner, attempts) {
        return attempts.length ? db.read(() => recordBatch(owner, attempts)) : [];
      },
    },
  });
}
