/**
 * `Store.claimStaleCheckouts`, `claimDueExpiries`, `claimStaleReservations` and `claimStaleCashOuts` on PostgreSQL.
 * Each claim is one statement: its materialized CTE picks the rows once and locks them with `FOR UPDATE SKIP LOCKED`
 * (as `id IN (subquery … LIMIT)`, the planner may run the subquery once per outer row and claim more than the limit),
 * so an instance claiming at the same moment passes over them and picks others, and the UPDATE pushes their
 * `next_check_at` before the locks go, so an instance claiming a moment later finds them not due (READ COMMITTED
 * re-checks a locked row's conditions on its newest version). Live checkouts are claimed first, then expired ones up
 * to the limit; checkouts past their window are claimed for expiring the same way, and so are reservations whose
 * provider call never answered, for settling, and cash-outs left `Sending` or unheard of.
 */
import type pg from 'pg';
import { CREATING, EXPIRED, LIVE_STATES } from '../../core/states';
import { sqlList } from './migration-step';
import { CASH_OUT_SENDING } from './back-office';
import { UNSETTLED } from './back-office-sql';
import { byClaimOrder, byCreation, bySending, byUpdate, byWindowEnd, parseClaim } from './reconcile-claims';
import { cashOutFromRow, checkoutFromRow, type Row } from './rows';
import { InstantSchema, type Store } from './types';

/** Nothing heard since $2 (`before`), and no claim still running at $1 (`now`). */
const STALE = `
  COALESCE(last_webhook_at, created_at) < $2
  AND (last_checked_at IS NULL OR last_checked_at < $2)
  AND (next_check_at IS NULL OR next_check_at <= $1)`;
const PICK = 'ORDER BY last_checked_at NULLS FIRST, created_at, id LIMIT $3 FOR UPDATE SKIP LOCKED';

/** The claim statements, shared with the plan tests: the stale claims take $1 now, $2 before, $3 limit, then their own. */
export const POSTGRES_CLAIMS = {
  /** $4: when a claimed live checkout may be claimed again. */
  live: `
    WITH picked AS MATERIALIZED (SELECT id FROM checkouts WHERE state IN (${sqlList(LIVE_STATES)}) AND ${STALE} ${PICK})
    UPDATE checkouts SET next_check_at = $4 FROM picked WHERE checkouts.id = picked.id
    RETURNING checkouts.*`,
  /**
   * $4: the start of the followed expiries; $5 and $6: the backoff's bounds in ms. The next check is due after the
   * checkout's age, within them.
   */
  expired: `
    WITH picked AS MATERIALIZED (SELECT id FROM checkouts WHERE state = '${EXPIRED}' AND updated_at >= $4 AND ${STALE} ${PICK})
    UPDATE checkouts
    SET next_check_at = $1::timestamptz
      + LEAST(GREATEST($1::timestamptz - updated_at, $5::float8 * interval '1 millisecond'), $6::float8 * interval '1 millisecond')
    FROM picked WHERE checkouts.id = picked.id
    RETURNING checkouts.*`,
  /** $1 now, $2 limit, $3 until. A lease taken before the window ended was the stale claim's, for a read, not for expiring. */
  dueExpiries: `
    WITH picked AS MATERIALIZED (
      SELECT id FROM checkouts
      WHERE state IN (${sqlList(LIVE_STATES)}) AND expires_at <= $1
        AND (next_check_at IS NULL OR next_check_at <= $1 OR next_check_at <= expires_at)
      ORDER BY expires_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
    UPDATE checkouts SET next_check_at = $3 FROM picked WHERE checkouts.id = picked.id
    RETURNING checkouts.*`,
  /** $1 now, $2 before, $3 limit, $4 until. */
  staleReservations: `
    WITH picked AS MATERIALIZED (
      SELECT id FROM checkouts
      WHERE state = '${CREATING}' AND created_at < $2 AND (next_check_at IS NULL OR next_check_at <= $1)
      ORDER BY created_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)
    UPDATE checkouts SET next_check_at = $4 FROM picked WHERE checkouts.id = picked.id
    RETURNING checkouts.*`,
} as const;

/**
 * The stale cash-outs' claim (`claimStaleCashOuts`), shared with the plan tests: $1 now, $2 before, $3 limit, $4 until.
 * As the checkouts' claims: a materialized CTE picks the rows once and locks them with
 * `FOR UPDATE SKIP LOCKED`, so an instance claiming at the same moment passes over them.
 */
export const POSTGRES_CASH_OUT_CLAIMS = {
  sending: `
    WITH picked AS MATERIALIZED (
      SELECT idempotency_key FROM cashouts
      WHERE state = '${CASH_OUT_SENDING}' AND COALESCE(decided_at, created_at) < $2 AND (next_check_at IS NULL OR next_check_at <= $1)
      ORDER BY created_at, idempotency_key LIMIT $3 FOR UPDATE SKIP LOCKED)
    UPDATE cashouts SET next_check_at = $4 FROM picked WHERE cashouts.idempotency_key = picked.idempotency_key
    RETURNING cashouts.*`,
  followed: `
    WITH picked AS MATERIALIZED (
      SELECT idempotency_key FROM cashouts
      WHERE state IN (${UNSETTLED}) AND updated_at < $2 AND (next_check_at IS NULL OR next_check_at <= $1)
      ORDER BY updated_at, idempotency_key LIMIT $3 FOR UPDATE SKIP LOCKED)
    UPDATE cashouts SET next_check_at = $4 FROM picked WHERE cashouts.idempotency_key = picked.idempotency_key
    RETURNING cashouts.*`,
} as const;

export function reconcilePostgres(
  pool: pg.Pool,
): Pick<Store, 'claimStaleCheckouts' | 'claimDueExpiries' | 'claimStaleReservations' | 'claimStaleCashOuts'> {
  const claimed = (rows: Row[]) => rows.map((row) => checkoutFromRow(row, 'parsed')).sort(byClaimOrder);
  return {
    async claimStaleCheckouts(input) {
      const { now, before, limit, liveUntil, expired } = parseClaim(input);
      const live = claimed((await pool.query<Row>(POSTGRES_CLAIMS.live, [now, before, limit, liveUntil])).rows);
      if (!expired || live.length >= limit) return live;
      const values = [now, before, limit - live.length, expired.since, expired.minDelayMs, expired.maxDelayMs];
      return [...live, ...claimed((await pool.query<Row>(POSTGRES_CLAIMS.expired, values)).rows)];
    },
    async claimDueExpiries(now, limit, until) {
      const { rows } = await pool.query<Row>(POSTGRES_CLAIMS.dueExpiries, [InstantSchema.parse(now), limit, InstantSchema.parse(until)]);
      return rows.map((row) => checkoutFromRow(row, 'parsed')).sort(byWindowEnd);
    },
    async claimStaleReservations(now, before, limit, until) {
      const values = [InstantSchema.parse(now), InstantSchema.parse(before), limit, InstantSchema.parse(until)];
      const { rows } = await pool.query<Row>(POSTGRES_CLAIMS.staleReservations, values);
      return rows.map((row) => checkoutFromRow(row, 'parsed')).sort(byCreation);
    },
    async claimStaleCashOuts(now, before, limit, until) {
      const values = [InstantSchema.parse(now), InstantSchema.parse(before), limit, InstantSchema.parse(until)];
      const claim = async (text: string, params: unknown[]) => (await pool.query<Row>(text, params)).rows.map(cashOutFromRow);
      const sending = (await claim(POSTGRES_CASH_OUT_CLAIMS.sending, values)).sort(bySending);
      if (sending.length >= limit) return sending;
      const followed = await claim(POSTGRES_CASH_OUT_CLAIMS.followed, [values[0], values[1], limit - sending.length, values[3]]);
      return [...sending, ...followed.sort(byUpdate)];
    },
  };
}
