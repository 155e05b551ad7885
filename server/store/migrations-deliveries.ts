/** Schema step 10: the deliveries of the merchant's events to each webhook endpoint, and every attempt. */
import type { Migration } from './migration-step';

export const deliverySteps: readonly Migration[] = [
  {
    version: 10,
    name: "deliveries of the merchant's events to each endpoint (at least once, leased to one instance), and their attempts",
    // A cursor per endpoint: the events after it are queued for it. A delivery is leased to one instance at a time
    // (lease_owner, lease_until); a lease that runs out (a crash) lets another instance deliver it again.
    sqlite: `
      CREATE TABLE webhook_cursors (
        endpoint_id TEXT PRIMARY KEY,
        after_seq INTEGER NOT NULL
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE webhook_deliveries (
        event_seq INTEGER NOT NULL,
        endpoint_id TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_at TEXT NOT NULL,
        lease_owner TEXT,
        lease_until TEXT,
        last_status INTEGER,
        last_error TEXT,
        delivered_at TEXT,
        PRIMARY KEY (event_seq, endpoint_id)
      ) STRICT;
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_at) WHERE state = 'pending';
      CREATE TABLE webhook_attempts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        event_seq INTEGER NOT NULL,
        endpoint_id TEXT NOT NULL,
        at TEXT NOT NULL,
        status INTEGER,
        duration_ms INTEGER NOT NULL,
        error TEXT
      ) STRICT;
      CREATE INDEX webhook_attempts_of_event ON webhook_attempts (event_seq, id);
    `,
    postgres: `
      CREATE TABLE webhook_cursors (
        endpoint_id text PRIMARY KEY,
        after_seq bigint NOT NULL
      );
      CREATE TABLE webhook_deliveries (
        event_seq bigint NOT NULL,
        endpoint_id text NOT NULL,
        state text NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_at timestamptz NOT NULL,
        lease_owner text,
        lease_until timestamptz,
        last_status integer,
        last_error text,
        delivered_at timestamptz,
        PRIMARY KEY (event_seq, endpoint_id)
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_at) WHERE state = 'pending';
      CREATE TABLE webhook_attempts (
        id bigserial PRIMARY KEY,
        event_seq bigint NOT NULL,
        endpoint_id text NOT NULL,
        at timestamptz NOT NULL,
        status integer,
        duration_ms integer NOT NULL,
        error text
      );
      CREATE INDEX webhook_attempts_of_event ON webhook_attempts (event_seq, id);
    `,
  },
];
