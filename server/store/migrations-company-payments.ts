/**
 * Schema step 16: the payment requests the back office asks the provider for (./company-payments), each under its
 * key, kept for an owner's approval above the threshold, and linked to the provider's request once it answered.
 * Step 20 (`companyPaymentClaimSteps`): `next_check_at`, the lease of the reconciler's claim of those a crash left
 * `Sending` (`claimStaleCompanyPayments`), so instances settle each once between them.
 */
import { CASH_OUT_PENDING_APPROVAL, CASH_OUT_SENDING } from '../../core/cashout-machine';
import { COMPANY_PAYMENT_STATES } from '../../core/company-payment-machine';
import { sqlList, type Migration } from './migration-step';

/** The states when step 16 was released; a released step never changes. */
const STEP_16_STATES = sqlList(COMPANY_PAYMENT_STATES);

export const companyPaymentSteps: readonly Migration[] = [
  {
    version: 16,
    name: 'back-office: payment requests to companies under their key, their approval, and the provider request each became',
    // One row per key (the primary key is the idempotency rule, across instances and restarts); one row per provider
    // request (how the demo's portal tells the product's requests from any other). The receiver's columns are what
    // the owner deciding it is shown.
    sqlite: `
      CREATE TABLE company_payments (
        idempotency_key TEXT PRIMARY KEY,
        fingerprint TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN (${STEP_16_STATES})),
        amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
        description TEXT NOT NULL,
        receiver_id TEXT NOT NULL,
        account_id TEXT NOT NULL,
        receiver_name TEXT,
        receiver_cnpj TEXT,
        bank_name TEXT,
        account_agency TEXT,
        account_number TEXT,
        request_id TEXT UNIQUE,
        requested_by TEXT NOT NULL,
        decided_by TEXT,
        decided_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX company_payments_pending_approval ON company_payments (created_at) WHERE state = '${CASH_OUT_PENDING_APPROVAL}';
      CREATE INDEX company_payments_decided ON company_payments (decided_at) WHERE decided_at IS NOT NULL;
    `,
    postgres: `
      CREATE TABLE company_payments (
        idempotency_key text PRIMARY KEY,
        fingerprint text NOT NULL,
        state text NOT NULL CHECK (state IN (${STEP_16_STATES})),
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        description text NOT NULL,
        receiver_id text NOT NULL,
        account_id text NOT NULL,
        receiver_name text,
        receiver_cnpj text,
        bank_name text,
        account_agency text,
        account_number text,
        request_id text UNIQUE,
        requested_by text NOT NULL,
        decided_by text,
        decided_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX company_payments_pending_approval ON company_payments (created_at) WHERE state = '${CASH_OUT_PENDING_APPROVAL}';
      CREATE INDEX company_payments_decided ON company_payments (decided_at) WHERE decided_at IS NOT NULL;
    `,
  },
];

/** Step 20, after step 19 in `./migrations`' list. */
export const companyPaymentClaimSteps: readonly Migration[] = [
  {
    version: 20,
    name: "reconciler: next_check_at of company payments, the settle claim's lease",
    // The claim reads the few `Sending` (a crash leaves a handful) through their partial index; the table is small
    // and new (step 16), so the index is built at once.
    sqlite: `ALTER TABLE company_payments ADD COLUMN next_check_at TEXT;
      CREATE INDEX company_payments_sending ON company_payments (created_at) WHERE state = '${CASH_OUT_SENDING}';`,
    postgres: `ALTER TABLE company_payments ADD COLUMN next_check_at timestamptz;
      CREATE INDEX company_payments_sending ON company_payments (created_at) WHERE state = '${CASH_OUT_SENDING}';`,
  },
];
