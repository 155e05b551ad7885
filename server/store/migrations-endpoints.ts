/**
 * Schema step 11: the merchant's webhook endpoints kept in the store (./endpoints), beside the environment's one.
 *
 * Nothing deletes the merchant's events (`merchant_events`) nor their attempts: the pull feed, the attempts and a
 * redelivery reach back at least 30 days (all the way, today). A pruning step, if one comes, must keep 30 days.
 */
import { step, type Migration } from './migration-step';
import { createTable, index, instant, json, text } from './sql/ddl';

export const endpointSteps: readonly Migration[] = [
  step({
    version: 11,
    name: "the merchant's webhook endpoints: url, secrets (two while rotating), type filter, disabled and why",
    // `types` is a JSON list of event types ('[]': every type). `failing_since` is the first failed attempt since the
    // last 2xx, for the automatic disable. Deliveries are read by endpoint too (its deletion, its log).
    ddl: [
      createTable(
        'webhook_endpoints',
        {
          id: text().primaryKey(),
          url: text().notNull(),
          types: json().notNull().default(`'[]'`),
          secret: text().notNull(),
          previous_secret: text(),
          previous_until: instant(),
          disabled_reason: text().check(`disabled_reason IN ('owner', 'failing')`),
          disabled_at: instant(),
          failing_since: instant(),
          created_at: instant().notNull(),
        },
        { withoutRowid: true },
      ),
      index('webhook_deliveries_of_endpoint', 'webhook_deliveries', ['endpoint_id']),
    ],
  }),
];
