/**
 * What both stores share of `Store.claimStaleCheckouts`, `claimDueExpiries`, `claimStaleReservations` and
 * `claimStaleCashOuts`: the claim's input checked and normalised, and the order the claimed rows are returned in (an
 * UPDATE … RETURNING gives its rows in no set order).
 */
import type { CashOut } from './back-office';
import { InstantSchema, type Checkout, type StaleClaim } from './types';

/** Milliseconds in a day: SQLite's date arithmetic counts in days. */
export const DAY_MS = 86_400_000;

/** The claim with every date in the stores' `toISOString()` form; throws on a date that is not an instant. */
export function parseClaim(claim: StaleClaim): StaleClaim {
  const { expired } = claim;
  if (expired && !(expired.minDelayMs > 0 && expired.maxDelayMs >= expired.minDelayMs)) {
    throw new Error(`expired checkouts' backoff needs 0 < minDelayMs <= maxDelayMs, got ${expired.minDelayMs} and ${expired.maxDelayMs}`);
  }
  return {
    now: InstantSchema.parse(claim.now),
    before: InstantSchema.parse(claim.before),
    limit: claim.limit,
    liveUntil: InstantSchema.parse(claim.liveUntil),
    ...(expired && { expired: { ...expired, since: InstantSchema.parse(expired.since) } }),
  };
}

/** Never-checked first, then the longest unchecked, then the oldest: the order each claim query picks its rows in. */
export function byClaimOrder(a: Checkout, b: Checkout): number {
  if (a.lastCheckedAt !== b.lastCheckedAt) {
    if (a.lastCheckedAt === null) return -1;
    if (b.lastCheckedAt === null) return 1;
    return a.lastCheckedAt < b.lastCheckedAt ? -1 : 1;
  }
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Oldest first, then by id: the order of the claim of stale reservations. */
export function byCreation(a: Checkout, b: Checkout): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Earliest window end first, then by id: the order of the claim of due expiries. */
export function byWindowEnd(a: Checkout, b: Checkout): number {
  const [x, y] = [a.expiresAt ?? '', b.expiresAt ?? ''];
  if (x !== y) return x < y ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Oldest first, then by key: the order of the claim of cash-outs `Sending` (an UPDATE … RETURNING gives no order). */
export const bySending = (a: CashOut, b: CashOut) => compare(a.createdAt, b.createdAt) || compare(a.idempotencyKey, b.idempotencyKey);
/** Least recently updated first, then by key: the order of the claim of cash-outs followed at the provider. */
export const byUpdate = (a: CashOut, b: CashOut) => compare(a.updatedAt, b.updatedAt) || compare(a.idempotencyKey, b.idempotencyKey);
const compare = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
