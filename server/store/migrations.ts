/**
 * Schema history, oldest first, each step written once over the DDL vocabulary of ./sql/ddl.ts, which renders it for
 * each database, so they cannot drift. A released step never changes: add a new one. Both stores record applied
 * versions in `schema_migrations` (./migrate.ts).
 *
 * The partial unique index `checkouts_one_per_order` is the idempotency rule itself: at most one checkout per order
 * in a reserving state (Creating, Created, Registered, Completed), whatever process or instance tries to insert a
 * second one. From step 2 its state list comes from `core/states`; changing that list needs a new step that
 * recreates the index (the store contract tests pin the behaviour per state). `Expired` (step 4) is not in it: an
 * expired checkout frees its order.
 */
import type { Migration } from './migration-step';
import { checkoutSteps } from './migrations-checkouts';
import { companyPaymentClaimSteps, companyPaymentSteps } from './migrations-company-payments';
import { backOfficeApprovalSteps, backOfficeSteps } from './migrations-back-office';
import { deliveryIndexSteps, deliverySteps } from './migrations-deliveries';
import { endpointSteps } from './migrations-endpoints';
import { eventSteps } from './migrations-events';
import { foreignSteps } from './migrations-foreign';
import { accountSteps, auditChainSteps } from './migrations-accounts';
import { apiKeySteps } from './migrations-api-keys';
import { indexSteps } from './migrations-indexes';
import { mfaSteps } from './migrations-mfa';
import { sealedSteps } from './migrations-sealed';
import { moneyOutReconcileSteps, reconcileSteps } from './migrations-reconcile';
import { signInSteps } from './migrations-sign-in';
import { payerDataSteps } from './migrations-payer-data';

export { sqlList, type Migration } from './migration-step';

/**
 * Every step, oldest first: 1 to 4 in ./migrations-checkouts, 5 to 7 in ./migrations-back-office, 8 in
 * ./migrations-foreign, 9 in ./migrations-events, 10 in
 * ./migrations-deliveries, 11 in ./migrations-endpoints, 12 in ./migrations-accounts, 13 in ./migrations-back-office, 14 in ./migrations-indexes, 15 in ./migrations-reconcile, 16 in ./migrations-company-payments, 17 in ./migrations-deliveries, 18 and 19 in ./migrations-reconcile, 20 in ./migrations-company-payments, 21 in ./migrations-accounts, 23 in ./migrations-sign-in, 24 in ./migrations-api-keys, 25 in ./migrations-sealed, 26 in ./migrations-payer-data, 27 in ./migrations-mfa. A new step goes at
 * the end of the list (in the file its tables belong to, or a new one), with the next version number.
 */
export const migrations: readonly Migration[] = [
  ...checkoutSteps,
  ...backOfficeSteps,
  ...foreignSteps,
  ...eventSteps,
  ...deliverySteps,
  ...endpointSteps,
  ...accountSteps,
  ...backOfficeApprovalSteps,
  ...indexSteps,
  ...reconcileSteps,
  ...companyPaymentSteps,
  ...deliveryIndexSteps,
  ...moneyOutReconcileSteps,
  ...companyPaymentClaimSteps,
  ...auditChainSteps,
  ...signInSteps,
  ...apiKeySteps,
  ...sealedSteps,
  ...payerDataSteps,
  ...mfaSteps,
];
