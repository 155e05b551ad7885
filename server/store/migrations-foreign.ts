/** Schema step 8: provider transactions of our orders that we could not prove ours, kept for the back-office. */
import type { Migration } from './migration-step';

export const foreignSteps: readonly Migration[] = [
  {
    version: 8,
    name: 'provider transactions of our orders that are not provably ours (secret, address, amount), never adopted',
    // One row a transaction: the primary key makes recording it again (a webhook retry, the next settlement) a no-op.
    sqlite: `
      CREATE TABLE foreign_transactions (
        transaction_id TEXT PRIMARY KEY,
        order_id TEXT NOT NULL,
        method TEXT,
        amount TEXT NOT NULL,
        state TEXT NOT NULL,
        reason TEXT NOT NULL,
        seen_at TEXT NOT NULL
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX foreign_transactions_recent ON foreign_transactions (seen_at);
    `,
    postgres: `
      CREATE TABLE foreign_transactions (
        transaction_id text PRIMARY KEY,
        order_id text NOT NULL,
        method text,
        amount text NOT NULL,
        state text NOT NULL,
        reason text NOT NULL,
        seen_at timestamptz NOT NULL
      );
      CREATE INDEX foreign_transactions_recent ON foreign_transactions (seen_at);
    `,
  },
];
