/**
 * Schema step 10: the deliveries of the merchant's events to each webhook endpoint, and every attempt. Step 17: the
 * pending deliveries by endpoint, which each endpoint's claim seeks (./deliveries-sqlite.ts, ./deliveries-postgres.ts).
 */
import type { Migration } from './migration-step';

/**
 * The pending deliveries of each endpoint, oldest due first. Each endpoint is claimed on its own (its lane), and an
 * endpoint that hangs gathers due deliveries by the thousand: walked by due time alone, every other endpoint's claim
 * would read past all of them.
 */
export const DUE_BY_ENDPOINT = 'webhook_deliveries_due_by_endpoint';

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

/** Step 17, after step 16 in `./migrations`' list. */
export const deliveryIndexSteps: readonly Migration[] = [
  {
    version: 17,
    name: "deliveries: the pending ones by endpoint, so each endpoint's claim seeks its own",
    sqlite: '',
    postgres: '',
    // Built online (./migrate-online.ts): the table holds every delivery ever made. Until it exists, the claim reads
    // by due time as before (`DUE_BY_ENDPOINT` is named in SQLite's query only once it is built).
    online: [
      {
        name: DUE_BY_ENDPOINT,
        sqlite: "webhook_deliveries (endpoint_id, next_at) WHERE state = 'pending'",
        postgres: "webhook_deliveries (endpoint_id, next_at) WHERE state = 'pending'",
      },
    ],
  },
];
