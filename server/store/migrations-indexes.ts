/**
 * Schema step 14: the indexes that keep the back office's payments list (`checkoutListQuery` in ./back-office-sql)
 * as fast with a million checkouts as with a thousand, on both databases, and the names the list's queries read
 * them by. Listed in order by `./migrations`.
 *
 * The list is newest first (`created_at`, then `id`, both descending) and pages by a cursor, so each index that
 * drives it ends in (created_at, id): it is walked in the list's order from the cursor on and stops after one page,
 * however deep the page. Which one drives a query is chosen by its filter (`listIndexFor` in ./back-office-sql): the
 * order's index (step 2), the partial index of flagged payments (here; only flagged rows are in it, so it costs a
 * write only to them), the state's or the method's (here), or the time index (step 5). The state and the method
 * trail the flagged index, and the method the state's, so that those filters on top are checked in the index, not
 * row by row in the table: a rare combination (refunded duplicates) costs what a common one does. The cash-outs
 * refunding a page's checkouts are found by `cashouts_by_refund` (step 13).
 *
 * A late payment (paid after its window) is one whose receipt's `paidAt` (an ISO string in `details`) is after
 * `expires_at`. A partial index's condition may only call immutable functions, and PostgreSQL's `to_char` is only
 * stable (some of its patterns follow the locale), so PostgreSQL gets `checkout_paid_late`, declared immutable: its
 * pattern has only digits and fixed characters and the time is turned to UTC first, so it depends on nothing else.
 */
import { step, type Migration } from './migration-step';
import { byDialect, index } from './sql/ddl';

/** The indexes a payments list query may be driven by. */
export const LIST_INDEXES = {
  /** (created_at, id): no filter, or only a period. */
  recent: 'checkouts_recent',
  /** (order_id, created_at): an order has a handful of checkouts. */
  order: 'checkouts_by_order',
  /** (created_at, id, state, method) of the duplicate and late payments only. */
  flagged: 'checkouts_flagged',
  /** (state, created_at, id, method). */
  state: 'checkouts_by_state',
  /** (method, created_at, id). */
  method: 'checkouts_by_method',
} as const;
export type ListIndex = (typeof LIST_INDEXES)[keyof typeof LIST_INDEXES];

/**
 * Paid after its window, as each database writes it: the list's query says it in exactly these words, since a
 * partial index serves a query only when the query's condition says what the index's does. (The column comes first
 * in SQLite's: its planner turns `f(x) > column` round into `column < f(x)` in a query but not in an index.)
 */
export const PAID_LATE = {
  sqlite: `expires_at < json_extract(details, '$.paidAt')`,
  postgres: `checkout_paid_late(details, expires_at)`,
} as const;

/** The rows of `checkouts_flagged`: duplicates, and every payment whose `paidAt` is after its window. */
const flagged = (paidLate: string) => `duplicate_of IS NOT NULL OR ${paidLate}`;

/**
 * Built online (./migrate-online.ts): at a million checkouts these three took seconds to build, all of them before
 * a restarted server could answer. Until they exist the list reads the same rows, only slower, and its SQLite query
 * names no index it lacks (`listIndexFor` in ./back-office-sql).
 */
export const indexSteps: readonly Migration[] = [
  step({
    version: 14,
    name: "back-office: the payments list's indexes (by state, by method, flagged payments), so every filter and page seeks",
    ddl: [
      byDialect({
        sqlite: [],
        // OR REPLACE: run again at each start until the step's indexes are built and it is recorded.
        postgres: [
          `CREATE OR REPLACE FUNCTION checkout_paid_late(details jsonb, expires_at timestamptz) RETURNS boolean
        LANGUAGE sql IMMUTABLE PARALLEL SAFE
        AS $$ SELECT (details->>'paidAt') > to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$`,
        ],
      }),
    ],
    online: [
      index(LIST_INDEXES.state, 'checkouts', ['state', 'created_at', 'id', 'method']),
      index(LIST_INDEXES.method, 'checkouts', ['method', 'created_at', 'id']),
      index(LIST_INDEXES.flagged, 'checkouts', ['created_at', 'id', 'state', 'method'], {
        where: { sqlite: flagged(PAID_LATE.sqlite), postgres: flagged(PAID_LATE.postgres) },
      }),
    ],
  }),
];
