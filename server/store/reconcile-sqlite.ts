/**
 * `Store.claimStaleCheckouts`, `claimDueExpiries`, `claimStaleReservations` and `claimStaleCashOuts` on SQLite. Each
 * claim runs in a BEGIN IMMEDIATE transaction (the stale claims' two statements in one): it takes the write lock before
 * reading, so a second process on the same file waits and then sees this one's claims, and never claims the same
 * rows. Each query is driven by its partial index (`INDEXED BY`, so a planner's whim cannot turn it into a scan of
 * every checkout), but for the cash-outs `Sending`, whose index an online step may still be building.
 */
import type Database from 'better-sqlite3';
import { CREATING, EXPIRED, LIVE_STATES } from '../../core/states';
import { sqlList } from './migration-step';
import { CASH_OUT_SENDING } from './back-office';
import { UNSETTLED } from './back-office-sql';
import { byClaimOrder, byCreation, bySending, byUpdate, byWindowEnd, DAY_MS, parseClaim } from './reconcile-claims';
import { cashOutFromRow, checkoutFromRow, type Row } from './rows';
import { InstantSchema, type StaleClaim, type Store } from './types';

/** The terms of staleness both claims share: nothing heard since `@before`, and no claim still running. */
const STALE = `
  coalesce(last_webhook_at, created_at) < @before
  AND (last_checked_at IS NULL OR last_checked_at < @before)
  AND (next_check_at IS NULL OR next_check_at <= @now)`;
const ORDER = 'ORDER BY last_checked_at NULLS FIRST, created_at, id LIMIT @limit';

/** The claim statements, shared with the plan tests. */
export const SQLITE_CLAIMS = {
  live: `
    UPDATE checkouts SET next_check_at = @liveUntil
    WHERE id IN (
      SELECT id FROM checkouts INDEXED BY checkouts_live
      WHERE state IN (${sqlList(LIVE_STATES)}) AND ${STALE}
      ${ORDER})
    RETURNING *`,
  // The next check is due after the checkout's age (time since it expired), kept within the backoff's bounds.
  expired: `
    UPDATE checkouts SET next_check_at = strftime('%Y-%m-%dT%H:%M:%fZ',
      julianday(@now) + min(max(julianday(@now) - julianday(updated_at), @minDays), @maxDays))
    WHERE id IN (
      SELECT id FROM checkouts INDEXED BY checkouts_expired
      WHERE state = '${EXPIRED}' AND updated_at >= @since AND ${STALE}
      ${ORDER})
    RETURNING *`,
  // A lease taken before the window ended was the stale claim's, for a read, not for expiring.
  dueExpiries: `
    UPDATE checkouts SET next_check_at = @until
    WHERE id IN (
      SELECT id FROM checkouts INDEXED BY checkouts_expiring
      WHERE state IN (${sqlList(LIVE_STATES)}) AND expires_at <= @now
        AND (next_check_at IS NULL OR next_check_at <= @now OR next_check_at <= expires_at)
      ORDER BY expires_at, id LIMIT @limit)
    RETURNING *`,
  // Reservations whose provider call crashed or never answered, for settling.
  staleReservations: `
    UPDATE checkouts SET next_check_at = @until
    WHERE id IN (
      SELECT id FROM checkouts INDEXED BY checkouts_creating
      WHERE state = '${CREATING}' AND created_at < @before AND (next_check_at IS NULL OR next_check_at <= @now)
      ORDER BY created_at, id LIMIT @limit)
    RETURNING *`,
} as const;

/**
 * The stale cash-outs' claim (`claimStaleCashOuts`), shared with the plan tests: `@now`, `@before`, `@limit`, `@until`.
 * Those `Sending` are read through their partial index once it is built (an online step); those followed through
 * `cashouts_unsettled`.
 */
export const SQLITE_CASH_OUT_CLAIMS = {
  sending: `
    UPDATE cashouts SET next_check_at = @until
    WHERE idempotency_key IN (
      SELECT idempotency_key FROM cashouts
      WHERE state = '${CASH_OUT_SENDING}' AND coalesce(decided_at, created_at) < @before
        AND (next_check_at IS NULL OR next_check_at <= @now)
      ORDER BY created_at, idempotency_key LIMIT @limit)
    RETURNING *`,
  followed: `
    UPDATE cashouts SET next_check_at = @until
    WHERE idempotency_key IN (
      SELECT idempotency_key FROM cashouts INDEXED BY cashouts_unsettled
      WHERE state IN (${UNSETTLED}) AND updated_at < @before AND (next_check_at IS NULL OR next_check_at <= @now)
      ORDER BY updated_at, idempotency_key LIMIT @limit)
    RETURNING *`,
} as const;

export function reconcileSqlite(
  db: Database.Database,
): Pick<Store, 'claimStaleCheckouts' | 'claimDueExpiries' | 'claimStaleReservations' | 'claimStaleCashOuts'> {
  const live = db.prepare(SQLITE_CLAIMS.live);
  const expired = db.prepare(SQLITE_CLAIMS.expired);
  const dueExpiries = db.prepare(SQLITE_CLAIMS.dueExpiries);
  const staleReservations = db.prepare(SQLITE_CLAIMS.staleReservations);
  const claimed = (rows: unknown[]) => (rows as Row[]).map((row) => checkoutFromRow(row, 'text')).sort(byClaimOrder);
  const cashOuts = { sending: db.prepare(SQLITE_CASH_OUT_CLAIMS.sending), followed: db.prepare(SQLITE_CASH_OUT_CLAIMS.followed) };
  const cashOutsOf = (rows: unknown[]) => (rows as Row[]).map(cashOutFromRow);
  /** The stale cash-outs' claim: those `Sending` first, then those followed, in one IMMEDIATE transaction. */
  const claimCashOuts = db.transaction((params: { now: string; before: string; limit: number; until: string }) => {
    const sending = cashOutsOf(cashOuts.sending.all(params)).sort(bySending);
    if (sending.length >= params.limit) return sending;
    const followed = cashOutsOf(cashOuts.followed.all({ ...params, limit: params.limit - sending.length }));
    return [...sending, ...followed.sort(byUpdate)];
  });
  const claim = db.transaction((input: StaleClaim) => {
    const { now, before, limit, liveUntil } = input;
    const found = claimed(live.all({ now, before, limit, liveUntil }));
    if (!input.expired || found.length >= limit) return found;
    const { since, minDelayMs, maxDelayMs } = input.expired;
    const params = { now, before, limit: limit - found.length, since, minDays: minDelayMs / DAY_MS, maxDays: maxDelayMs / DAY_MS };
    return [...found, ...claimed(expired.all(params))];
  });
  return {
    async claimStaleCheckouts(input) {
      return claim.immediate(parseClaim(input));
    },
    async claimDueExpiries(now, limit, until) {
      const params = { now: InstantSchema.parse(now), limit, until: InstantSchema.parse(until) };
      const rows = db.transaction(() => dueExpiries.all(params) as Row[]).immediate();
      return rows.map((row) => checkoutFromRow(row, 'text')).sort(byWindowEnd);
    },
    async claimStaleReservations(now, before, limit, until) {
      const params = { now: InstantSchema.parse(now), before: InstantSchema.parse(before), limit, until: InstantSchema.parse(until) };
      const rows = db.transaction(() => staleReservations.all(params) as Row[]).immediate();
      return rows.map((row) => checkoutFromRow(row, 'text')).sort(byCreation);
    },
    async claimStaleCashOuts(now, before, limit, until) {
      const params = { now: InstantSchema.parse(now), before: InstantSchema.parse(before), limit, until: InstantSchema.parse(until) };
      return claimCashOuts.immediate(params);
    },
  };
}
