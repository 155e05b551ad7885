/**
 * `Store.claimStaleCheckouts`, `claimDueExpiries`, `claimStaleReservations` and `claimStaleCashOuts`, written once for
 * both databases (`reconcilePart`): the claim's input checked and normalised, the statements, and the order the
 * claimed rows are returned in (an UPDATE … RETURNING gives its rows in no set order). A claim differs as a whole
 * between the databases, so both its forms are here (`claimOf`); the rows it picks are written once.
 *
 * On SQLite each claim runs in a BEGIN IMMEDIATE transaction (the stale claims' two statements in one): it takes the
 * write lock before reading, so a second process on the same file waits and then sees this one's claims, and never
 * claims the same rows. Each query is driven by its partial index (`INDEXED BY`, so a planner's whim cannot turn it
 * into a scan of every checkout), but for the cash-outs `Sending`, whose index an online step may still be building.
 *
 * On PostgreSQL each claim is one statement: its materialized CTE picks the rows once and locks them with
 * `FOR UPDATE SKIP LOCKED` (as `id IN (subquery … LIMIT)`, the planner may run the subquery once per outer row and
 * claim more than the limit), so an instance claiming at the same moment passes over them and picks others, and the
 * UPDATE pushes their `next_check_at` before the locks go, so an instance claiming a moment later finds them not due
 * (READ COMMITTED re-checks a locked row's conditions on its newest version). Live checkouts are claimed first, then
 * expired ones up to the limit; checkouts past their window are claimed for expiring the same way, and so are
 * reservations whose provider call never answered, for settling, and cash-outs left `Sending` or unheard of.
 */
import { CREATING, EXPIRED, LIVE_STATES } from '../../core/states';
import { CASH_OUT_SENDING, type CashOut } from './back-office';
import { UNSETTLED } from './back-office-sql';
import type { ReconcileStore } from './checkout-store';
import { sqlList } from './migration-step';
import { cashOutFromRow, checkoutFromRow, type Row } from './rows';
import type { Db } from './sql/db';
import { pick, postgresDialect, sqliteDialect, type Dialect } from './sql/dialect';
import { all, type Work } from './sql/work';
import { InstantSchema, type Checkout, type StaleClaim } from './types';

/** Milliseconds in a day: SQLite's date arithmetic counts in days. */
const DAY_MS = 86_400_000;

/** The terms of staleness both claims share: nothing heard since `@before`, and no claim still running at `@now`. */
const STALE = `
  coalesce(last_webhook_at, created_at) < @before
  AND (last_checked_at IS NULL OR last_checked_at < @before)
  AND (next_check_at IS NULL OR next_check_at <= @now)`;

/** A claim: the rows of `table` whose `key` the SELECT `picked` gives get `next_check_at = until`, and come back. */
export const claimOf = (d: Dialect, table: string, key: string, picked: string, until: string) =>
  pick(d, {
    sqlite: `
      UPDATE ${table} SET next_check_at = ${until}
      WHERE ${key} IN (${picked})
      RETURNING *`,
    postgres: `
      WITH picked AS MATERIALIZED (${picked})
      UPDATE ${table} SET next_check_at = ${until} FROM picked WHERE ${table}.${key} = picked.${key}
      RETURNING ${table}.*`,
  });

/**
 * An expired checkout's next check is due after its age (time since it expired), kept within the backoff's bounds:
 * its date and the bounds' parameters (SQLite counts days, PostgreSQL an interval of milliseconds).
 */
const backoffOf = (d: Dialect) =>
  pick(d, {
    sqlite: {
      until: `strftime('%Y-%m-%dT%H:%M:%fZ',
        julianday(@now) + min(max(julianday(@now) - julianday(updated_at), @minDays), @maxDays))`,
      params: (minMs: number, maxMs: number) => ({ minDays: minMs / DAY_MS, maxDays: maxMs / DAY_MS }),
    },
    postgres: {
      until: `@now::timestamptz
        + LEAST(GREATEST(@now::timestamptz - updated_at, @minMs::float8 * interval '1 millisecond'), @maxMs::float8 * interval '1 millisecond')`,
      params: (minMs: number, maxMs: number) => ({ minMs, maxMs }),
    },
  });

/** The claims' statements on a database: `@now`, `@before`, `@limit`, and their own lease's end. */
function claimsOf(d: Dialect) {
  const checkouts = (index: string) => d.indexedBy('checkouts', index);
  const order = `ORDER BY last_checked_at NULLS FIRST, created_at, id LIMIT @limit${d.skipLocked}`;
  const live = `state IN (${sqlList(LIVE_STATES)})`;
  const checkoutClaim = (picked: string, until: string) => claimOf(d, 'checkouts', 'id', picked, until);
  const cashOutClaim = (picked: string) => claimOf(d, 'cashouts', 'idempotency_key', picked, '@until');
  return {
    checkouts: {
      live: checkoutClaim(`SELECT id FROM ${checkouts('checkouts_live')} WHERE ${live} AND ${STALE} ${order}`, '@liveUntil'),
      // `@since`: the start of the followed expiries.
      expired: checkoutClaim(
        `SELECT id FROM ${checkouts('checkouts_expired')} WHERE state = '${EXPIRED}' AND updated_at >= @since AND ${STALE} ${order}`,
        backoffOf(d).until,
      ),
      // A lease taken before the window ended was the stale claim's, for a read, not for expiring.
      dueExpiries: checkoutClaim(
        `SELECT id FROM ${checkouts('checkouts_expiring')}
        WHERE ${live} AND expires_at <= @now AND (next_check_at IS NULL OR next_check_at <= @now OR next_check_at <= expires_at)
        ORDER BY expires_at, id LIMIT @limit${d.skipLocked}`,
        '@until',
      ),
      // Reservations whose provider call crashed or never answered, for settling.
      staleReservations: checkoutClaim(
        `SELECT id FROM ${checkouts('checkouts_creating')}
        WHERE state = '${CREATING}' AND created_at < @before AND (next_check_at IS NULL OR next_check_at <= @now)
        ORDER BY created_at, id LIMIT @limit${d.skipLocked}`,
        '@until',
      ),
    },
    /**
     * The stale cash-outs' claim (`claimStaleCashOuts`): `@now`, `@before`, `@limit`, `@until`. Those `Sending` are
     * read through their partial index once it is built (an online step; SQLite is not told of it); those followed
     * through `cashouts_unsettled`.
     */
    cashOuts: {
      sending: cashOutClaim(
        `SELECT idempotency_key FROM cashouts
        WHERE state = '${CASH_OUT_SENDING}' AND coalesce(decided_at, created_at) < @before AND (next_check_at IS NULL OR next_check_at <= @now)
        ORDER BY created_at, idempotency_key LIMIT @limit${d.skipLocked}`,
      ),
      followed: cashOutClaim(
        `SELECT idempotency_key FROM ${d.indexedBy('cashouts', 'cashouts_unsettled')}
        WHERE state IN (${UNSETTLED}) AND updated_at < @before AND (next_check_at IS NULL OR next_check_at <= @now)
        ORDER BY updated_at, idempotency_key LIMIT @limit${d.skipLocked}`,
      ),
    },
  };
}

const SQLITE = claimsOf(sqliteDialect);
const POSTGRES = claimsOf(postgresDialect);

/** Each statement's `@name` parameters as `$n`, numbered in the order of `names`: the order the plan tests give their values in. */
function numbered<K extends string>(statements: Readonly<Record<K, string>>, names: Readonly<Record<K, readonly string[]>>) {
  const texts = {} as Record<K, string>;
  for (const key of Object.keys(statements) as K[]) {
    texts[key] = statements[key].replace(/@([A-Za-z_]\w*)/g, (_, name: string) => {
      const index = names[key].indexOf(name);
      if (index < 0) throw new Error(`${key}: @${name} is not among ${names[key].join(', ')}`);
      return `$${index + 1}`;
    });
  }
  return texts;
}

/** The claim statements on SQLite, shared with the plan tests. */
export const SQLITE_CLAIMS = SQLITE.checkouts;
/** The stale cash-outs' claim on SQLite, shared with the plan tests. */
export const SQLITE_CASH_OUT_CLAIMS = SQLITE.cashOuts;
/**
 * The claim statements on PostgreSQL, for the plan tests: the stale claims take $1 now, $2 before, $3 limit, then
 * their own (live: $4 liveUntil; expired: $4 since, $5 and $6 the backoff's bounds in ms); the due expiries $1 now,
 * $2 limit, $3 until; the stale reservations $1 now, $2 before, $3 limit, $4 until. (The store runs the same text
 * with its parameters numbered as they first appear, ./sql/postgres-executor.)
 */
export const POSTGRES_CLAIMS = numbered(POSTGRES.checkouts, {
  live: ['now', 'before', 'limit', 'liveUntil'],
  expired: ['now', 'before', 'limit', 'since', 'minMs', 'maxMs'],
  dueExpiries: ['now', 'limit', 'until'],
  staleReservations: ['now', 'before', 'limit', 'until'],
});
/** The stale cash-outs' claim on PostgreSQL, for the plan tests: $1 now, $2 before, $3 limit, $4 until. */
export const POSTGRES_CASH_OUT_CLAIMS = numbered(POSTGRES.cashOuts, {
  sending: ['now', 'before', 'limit', 'until'],
  followed: ['now', 'before', 'limit', 'until'],
});

/** The claim with every date in the stores' `toISOString()` form; throws on a date that is not an instant. */
function parseClaim(claim: StaleClaim): StaleClaim {
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
function byClaimOrder(a: Checkout, b: Checkout): number {
  if (a.lastCheckedAt !== b.lastCheckedAt) {
    if (a.lastCheckedAt === null) return -1;
    if (b.lastCheckedAt === null) return 1;
    return a.lastCheckedAt < b.lastCheckedAt ? -1 : 1;
  }
  return compare(a.createdAt, b.createdAt) || compare(a.id, b.id);
}
/** Oldest first, then by id: the order of the claim of stale reservations. */
const byCreation = (a: Checkout, b: Checkout) => compare(a.createdAt, b.createdAt) || compare(a.id, b.id);
/** Earliest window end first, then by id: the order of the claim of due expiries. */
const byWindowEnd = (a: Checkout, b: Checkout) => compare(a.expiresAt ?? '', b.expiresAt ?? '') || compare(a.id, b.id);
/** Oldest first, then by key: the order of the claim of cash-outs `Sending` (an UPDATE … RETURNING gives no order). */
const bySending = (a: CashOut, b: CashOut) => compare(a.createdAt, b.createdAt) || compare(a.idempotencyKey, b.idempotencyKey);
/** Least recently updated first, then by key: the order of the claim of cash-outs followed at the provider. */
const byUpdate = (a: CashOut, b: CashOut) => compare(a.updatedAt, b.updatedAt) || compare(a.idempotencyKey, b.idempotencyKey);
const compare = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/** A lease's terms, every date checked. */
const leaseOf = (now: string, before: string, limit: number, until: string) => ({
  now: InstantSchema.parse(now),
  before: InstantSchema.parse(before),
  limit,
  until: InstantSchema.parse(until),
});

export function reconcilePart(db: Db): ReconcileStore {
  const d = db.dialect;
  const sql = pick(d, { sqlite: SQLITE, postgres: POSTGRES });
  const backoff = backoffOf(d);
  // SQLite takes the write lock before a claim reads (BEGIN IMMEDIATE), its statements in one transaction; on
  // PostgreSQL each statement is a claim of its own, its rows locked (SKIP LOCKED) only until it commits.
  const claim = pick(d, {
    sqlite: <T>(work: () => Work<T>) => db.write(work),
    postgres: <T>(work: () => Work<T>) => db.read(work),
  });
  const checkouts = (rows: Row[]) => rows.map((row) => checkoutFromRow(row, d.rows));
  const cashOuts = (rows: Row[]) => rows.map(cashOutFromRow);

  function* claimStale({ now, before, limit, liveUntil, expired }: StaleClaim): Work<Checkout[]> {
    const live = checkouts(yield* all(sql.checkouts.live, { now, before, limit, liveUntil })).sort(byClaimOrder);
    if (!expired || live.length >= limit) return live;
    const params = {
      now,
      before,
      limit: limit - live.length,
      since: expired.since,
      ...backoff.params(expired.minDelayMs, expired.maxDelayMs),
    };
    return [...live, ...checkouts(yield* all(sql.checkouts.expired, params)).sort(byClaimOrder)];
  }
  /** Those `Sending` first, then those followed. */
  function* claimCashOuts(lease: ReturnType<typeof leaseOf>): Work<CashOut[]> {
    const sending = cashOuts(yield* all(sql.cashOuts.sending, lease)).sort(bySending);
    if (sending.length >= lease.limit) return sending;
    const followed = cashOuts(yield* all(sql.cashOuts.followed, { ...lease, limit: lease.limit - sending.length }));
    return [...sending, ...followed.sort(byUpdate)];
  }

  return {
    async claimStaleCheckouts(input) {
      const parsed = parseClaim(input);
      return claim(() => claimStale(parsed));
    },
    async claimDueExpiries(now, limit, until) {
      const params = { now: InstantSchema.parse(now), limit, until: InstantSchema.parse(until) };
      return checkouts(await claim(() => all(sql.checkouts.dueExpiries, params))).sort(byWindowEnd);
    },
    async claimStaleReservations(now, before, limit, until) {
      const lease = leaseOf(now, before, limit, until);
      return checkouts(await claim(() => all(sql.checkouts.staleReservations, lease))).sort(byCreation);
    },
    async claimStaleCashOuts(now, before, limit, until) {
      const lease = leaseOf(now, before, limit, until);
      return claim(() => claimCashOuts(lease));
    },
  };
}
