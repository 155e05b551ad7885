/**
 * Schema step 11: the merchant's webhook endpoints kept in the store (./endpoints), beside the environment's one.
 *
 * Nothing deletes the merchant's events (`merchant_events`) nor their attempts: the pull feed, the attempts and a
 * redelivery reach back at least 30 days (all the way, today). A pruning step, if one comes, must keep 30 days.
 */
import type { Migration } from './migration-step';

export const endpointSteps: readonly Migration[] = [
  {
    version: 11,
    name: "the merchant's webhook endpoints: url, secrets (two while rotating), type filter, disabled and why",
    // `types` is a JSON list of event types ('[]': every type). `failing_since` is the first failed attempt since the
    // last 2xx, for the automatic disable. Deliveries are read by endpoint too (its deletion, its log).
    sqlite: `
      CREATE TABLE webhook_endpoints (
        id TEXT PRIMARY KEY,
        url TEXT NOT NULL,
        types TEXT NOT NULL DEFAULT '[]',
        secret TEXT NOT NULL,
        previous_secret TEXT,
        previous_until TEXT,
        disabled_reason TEXT CHECK (disabled_reason IN ('owner', 'failing')),
        disabled_at TEXT,
        failing_since TEXT,
        created_at TEXT NOT NULL
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX webhook_deliveries_of_endpoint ON webhook_deliveries (endpoint_id);
    `,
    postgres: `
      CREATE TABLE webhook_endpoints (
        id text PRIMARY KEY,
        url text NOT NULL,
        types jsonb NOT NULL DEFAULT '[]',
        secret text NOT NULL,
        previous_secret text,
        previous_until timestamptz,
        disabled_reason text CHECK (disabled_reason IN ('owner', 'failing')),
        disabled_at timestamptz,
        failing_since timestamptz,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX webhook_deliveries_of_endpoint ON webhook_deliveries (endpoint_id);
    `,
  },
];
