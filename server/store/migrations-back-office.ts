/**
 * Schema steps 5 to 7 (`backOfficeSteps`): the back-office tables (cash-outs and refunds, each checkout's webhooks) and
 * the nonces of signed webhooks; and step 13 (`backOfficeApprovalSteps`): any number of refunds per checkout (partial ones; their sum is checked in the
 * reservation's transaction), and the approval of movements (who asked, who decided and when). Listed in order by
 * `./migrations`.
 */
import { CASH_OUT_PENDING_APPROVAL, UNSETTLED_CASH_OUT_STATES } from './back-office';
import { sqlList, type Migration } from './migration-step';

/** The states that held a checkout's one refund when step 5 was released; a released step never changes. */
const STEP_5_HOLDING_STATES = ['Sending', 'Created', 'Registered', 'Completed'];

export const backOfficeSteps: readonly Migration[] = [
  {
    version: 5,
    name: 'back-office: cash-outs under their idempotency key, refunds linked to their checkout, checkouts listed newest first',
    // One row per Idempotency-Key (the primary key is the idempotency rule, across instances and restarts); at most
    // one refund per checkout that is sending, under way or paid (a failed one frees the place for another try).
    sqlite: `
      CREATE TABLE cashouts (
        idempotency_key TEXT PRIMARY KEY,
        fingerprint TEXT NOT NULL,
        order_id TEXT NOT NULL,
        transaction_id TEXT UNIQUE,
        state TEXT NOT NULL,
        amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
        recipient_name TEXT NOT NULL,
        recipient_cpf TEXT NOT NULL,
        key_type TEXT NOT NULL,
        key_value TEXT NOT NULL,
        description TEXT,
        refund_of TEXT REFERENCES checkouts (id),
        charges TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX cashouts_one_refund ON cashouts (refund_of)
        WHERE refund_of IS NOT NULL AND state IN (${sqlList(STEP_5_HOLDING_STATES)});
      CREATE INDEX cashouts_recent ON cashouts (created_at);
      CREATE INDEX cashouts_unsettled ON cashouts (updated_at) WHERE state IN (${sqlList(UNSETTLED_CASH_OUT_STATES)});
      CREATE INDEX checkouts_recent ON checkouts (created_at, id);
    `,
    postgres: `
      CREATE TABLE cashouts (
        idempotency_key text PRIMARY KEY,
        fingerprint text NOT NULL,
        order_id text NOT NULL,
        transaction_id text UNIQUE,
        state text NOT NULL,
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        recipient_name text NOT NULL,
        recipient_cpf text NOT NULL,
        key_type text NOT NULL,
        key_value text NOT NULL,
        description text,
        refund_of text REFERENCES checkouts (id),
        charges text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE UNIQUE INDEX cashouts_one_refund ON cashouts (refund_of)
        WHERE refund_of IS NOT NULL AND state IN (${sqlList(STEP_5_HOLDING_STATES)});
      CREATE INDEX cashouts_recent ON cashouts (created_at);
      CREATE INDEX cashouts_unsettled ON cashouts (updated_at) WHERE state IN (${sqlList(UNSETTLED_CASH_OUT_STATES)});
      CREATE INDEX checkouts_recent ON checkouts (created_at, id);
    `,
  },
  {
    version: 6,
    name: 'nonces of signed webhooks, so a signature seen once is refused on every instance',
    // The primary key is the replay rule: two instances receiving the same signed webhook cannot both insert it.
    // Rows older than twice the signature window are deleted as new ones arrive (the window refuses them anyway).
    sqlite: `
      CREATE TABLE webhook_nonces (
        nonce TEXT PRIMARY KEY,
        seen_at TEXT NOT NULL
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX webhook_nonces_by_age ON webhook_nonces (seen_at);
    `,
    postgres: `
      CREATE TABLE webhook_nonces (
        nonce text PRIMARY KEY,
        seen_at timestamptz NOT NULL
      );
      CREATE INDEX webhook_nonces_by_age ON webhook_nonces (seen_at);
    `,
  },
  {
    version: 7,
    name: "the provider's webhooks each checkout received, and what became of each, for the back-office",
    sqlite: `
      CREATE TABLE checkout_webhooks (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        checkout_id TEXT NOT NULL,
        transaction_id TEXT NOT NULL,
        state TEXT,
        outcome TEXT NOT NULL,
        received_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX checkout_webhooks_by_checkout ON checkout_webhooks (checkout_id, id);
    `,
    postgres: `
      CREATE TABLE checkout_webhooks (
        id bigserial PRIMARY KEY,
        checkout_id text NOT NULL,
        transaction_id text NOT NULL,
        state text,
        outcome text NOT NULL,
        received_at timestamptz NOT NULL
      );
      CREATE INDEX checkout_webhooks_by_checkout ON checkout_webhooks (checkout_id, id);
    `,
  },
];

/** Step 13, listed by `./migrations` after step 12 (the steps between are in other files). */
export const backOfficeApprovalSteps: readonly Migration[] = [
  {
    version: 13,
    name: 'back-office: partial refunds (no longer one per checkout) and the approval of cash-outs and refunds',
    // The refunds of a checkout are summed in the reservation's transaction (the checkout's row locked), so the index
    // that allowed one refund per checkout goes; a plain one finds a checkout's refunds. Who asked for a movement, and
    // the owner who approved or rejected it (PendingApproval until then), are kept on the row.
    sqlite: `
      DROP INDEX cashouts_one_refund;
      CREATE INDEX cashouts_by_refund ON cashouts (refund_of) WHERE refund_of IS NOT NULL;
      ALTER TABLE cashouts ADD COLUMN requested_by TEXT;
      ALTER TABLE cashouts ADD COLUMN decided_by TEXT;
      ALTER TABLE cashouts ADD COLUMN decided_at TEXT;
      CREATE INDEX cashouts_pending_approval ON cashouts (created_at) WHERE state = '${CASH_OUT_PENDING_APPROVAL}';
      CREATE INDEX cashouts_decided ON cashouts (decided_at) WHERE decided_at IS NOT NULL;
    `,
    postgres: `
      DROP INDEX cashouts_one_refund;
      CREATE INDEX cashouts_by_refund ON cashouts (refund_of) WHERE refund_of IS NOT NULL;
      ALTER TABLE cashouts ADD COLUMN requested_by text;
      ALTER TABLE cashouts ADD COLUMN decided_by text;
      ALTER TABLE cashouts ADD COLUMN decided_at timestamptz;
      CREATE INDEX cashouts_pending_approval ON cashouts (created_at) WHERE state = '${CASH_OUT_PENDING_APPROVAL}';
      CREATE INDEX cashouts_decided ON cashouts (decided_at) WHERE decided_at IS NOT NULL;
    `,
  },
];
