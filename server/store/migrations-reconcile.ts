/**
 * Schema step 15: `next_check_at`, when the reconciler may claim a checkout again (`Store.claimStaleCheckouts`,
 * `claimDueExpiries`); steps 18 and 19 (`moneyOutReconcileSteps`): the same lease on cash-outs and refunds (`claimStaleCashOuts`), and the index
 * of those still `Sending`. Listed in order by `./migrations`.
 *
 * A claim pushes it forward in the statement that claims, so instances passing together take disjoint checkouts, and
 * an expired checkout's next check is spaced out by its age (the reconciler's backoff). NULL means "due now", so the
 * step adds a column and nothing else: no row is rewritten and no index is built, which keeps the step instant on a
 * table of a million checkouts. The claim's two queries are driven by partial indexes that already exist: the live
 * checkouts' (steps 3 and 4) and the expired ones' by their expiry (`checkouts_expired`, step 4, sought from the start
 * of the followed day), so each reads only the checkouts the reconciler follows, and checks `next_check_at` on them.
 * The cash-outs' claim reads those `Sending` through `cashouts_sending` (step 19, built online: it only makes the
 * claim faster) and those still moving at the provider through `cashouts_unsettled` (step 5).
 */
import { CASH_OUT_SENDING } from './back-office';
import { step, type Migration } from './migration-step';
import { addColumn, index, instant } from './sql/ddl';

/** The partial index of the cash-outs whose provider call has not answered (few at any time). */
export const CASH_OUTS_SENDING_INDEX = 'cashouts_sending';

export const reconcileSteps: readonly Migration[] = [
  step({
    version: 15,
    name: "reconciler: next_check_at, the claim's lease and the expired checkouts' backoff",
    ddl: [addColumn('checkouts', 'next_check_at', instant())],
  }),
];

/** Steps 18 and 19, after step 17 in `./migrations`' list. */
export const moneyOutReconcileSteps: readonly Migration[] = [
  step({
    version: 18,
    name: "reconciler: next_check_at of cash-outs and refunds, the settle claim's lease",
    ddl: [addColumn('cashouts', 'next_check_at', instant())],
  }),
  step({
    version: 19,
    name: 'reconciler: the index of cash-outs and refunds still Sending',
    ddl: [],
    online: [index(CASH_OUTS_SENDING_INDEX, 'cashouts', ['created_at'], { where: `state = '${CASH_OUT_SENDING}'` })],
  }),
];
