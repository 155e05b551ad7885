/**
 * Schema step 16: the payment requests the back office asks the provider for (./company-payments), each under its
 * key, kept for an owner's approval above the threshold, and linked to the provider's request once it answered.
 * Step 20 (`companyPaymentClaimSteps`): `next_check_at`, the lease of the reconciler's claim of those a crash left
 * `Sending` (`claimStaleCompanyPayments`), so instances settle each once between them.
 */
import { CASH_OUT_PENDING_APPROVAL, CASH_OUT_SENDING } from '../../core/cashout-machine';
import { COMPANY_PAYMENT_STATES } from '../../core/company-payment-machine';
import { sqlList, step, type Migration } from './migration-step';
import { addColumn, bigint, createTable, index, instant, text } from './sql/ddl';

/** The states when step 16 was released; a released step never changes. */
const STEP_16_STATES = sqlList(COMPANY_PAYMENT_STATES);

export const companyPaymentSteps: readonly Migration[] = [
  step({
    version: 16,
    name: 'back-office: payment requests to companies under their key, their approval, and the provider request each became',
    // One row per key (the primary key is the idempotency rule, across instances and restarts); one row per provider
    // request (how the demo's portal tells the product's requests from any other). The receiver's columns are what
    // the owner deciding it is shown.
    ddl: [
      createTable('company_payments', {
        idempotency_key: text().primaryKey(),
        fingerprint: text().notNull(),
        state: text().notNull().check(`state IN (${STEP_16_STATES})`),
        amount_cents: bigint().notNull().check('amount_cents > 0'),
        description: text().notNull(),
        receiver_id: text().notNull(),
        account_id: text().notNull(),
        receiver_name: text(),
        receiver_cnpj: text(),
        bank_name: text(),
        account_agency: text(),
        account_number: text(),
        request_id: text().unique(),
        requested_by: text().notNull(),
        decided_by: text(),
        decided_at: instant(),
        created_at: instant().notNull(),
        updated_at: instant().notNull(),
      }),
      index('company_payments_pending_approval', 'company_payments', ['created_at'], {
        where: `state = '${CASH_OUT_PENDING_APPROVAL}'`,
      }),
      index('company_payments_decided', 'company_payments', ['decided_at'], { where: 'decided_at IS NOT NULL' }),
    ],
  }),
];

/** Step 20, after step 19 in `./migrations`' list. */
export const companyPaymentClaimSteps: readonly Migration[] = [
  step({
    version: 20,
    name: "reconciler: next_check_at of company payments, the settle claim's lease",
    // The claim reads the few `Sending` (a crash leaves a handful) through their partial index; the table is small
    // and new (step 16), so the index is built at once.
    ddl: [
      addColumn('company_payments', 'next_check_at', instant()),
      index('company_payments_sending', 'company_payments', ['created_at'], { where: `state = '${CASH_OUT_SENDING}'` }),
    ],
  }),
];
