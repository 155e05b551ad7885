/**
 * Schema step 15: `next_check_at`, when the reconciler may claim a checkout again (`Store.claimStaleCheckouts`,
 * `claimDueExpiries`).
 * Listed in order by `./migrations`.
 *
 * A claim pushes it forward in the statement that claims, so instances passing together take disjoint checkouts, and
 * an expired checkout's next check is spaced out by its age (the reconciler's backoff). NULL means "due now", so the
 * step adds a column and nothing else: no row is rewritten and no index is built, which keeps the step instant on a
 * table of a million checkouts. The claim's two queries are driven by partial indexes that already exist: the live
 * checkouts' (steps 3 and 4) and the expired ones' by their expiry (`checkouts_expired`, step 4, sought from the start
 * of the followed day), so each reads only the checkouts the reconciler follows, and checks `next_check_at` on them.
 */
import type { Migration } from './migration-step';

export const reconcileSteps: readonly Migration[] = [
  {
    version: 15,
    name: "reconciler: next_check_at, the claim's lease and the expired checkouts' backoff",
    sqlite: `ALTER TABLE checkouts ADD COLUMN next_check_at TEXT;`,
    postgres: `ALTER TABLE checkouts ADD COLUMN next_check_at timestamptz;`,
  },
];
