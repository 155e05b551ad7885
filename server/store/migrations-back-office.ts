/**
 * Schema steps 5 to 7: the back-office tables (cash-outs and refunds, each checkout's webhooks) and the nonces of
 * signed webhooks. Listed in order by `./migrations`.
 */
import { HOLDING_REFUND_STATES, UNSETTLED_CASH_OUT_STATES } from './back-office';
import { sqlList, type Migration } from './migration-step';

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
        WHERE refund_of IS NOT NULL AND state IN (${sqlList(HOLDING_REFUND_STATES)});
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
        WHERE refund_of IS NOT NULL AND state IN (${sqlList(HOLDING_REFUND_STATES)});
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
