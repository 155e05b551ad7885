/** Schema step 9: the merchant's events, written with the change they tell of (./merchant-events). */
import type { Migration } from './migration-step';

export const eventSteps: readonly Migration[] = [
  {
    version: 9,
    name: "the merchant's events, one row per change a merchant acts on, in the change's own transaction",
    // `seq` is the feed's order and cursor; `id` is the event's stable name (the webhook-id of its deliveries).
    sqlite: `
      CREATE TABLE merchant_events (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        type TEXT NOT NULL,
        created_at TEXT NOT NULL,
        data TEXT NOT NULL
      ) STRICT;
      CREATE INDEX merchant_events_by_type ON merchant_events (type, seq);
    `,
    postgres: `
      CREATE TABLE merchant_events (
        seq bigserial PRIMARY KEY,
        id text NOT NULL UNIQUE,
        type text NOT NULL,
        created_at timestamptz NOT NULL,
        data jsonb NOT NULL
      );
      CREATE INDEX merchant_events_by_type ON merchant_events (type, seq);
    `,
  },
];
