/**
 * Schema step 10: the deliveries of the merchant's events to each webhook endpoint, and every attempt. Step 17: the
 * pending deliveries by endpoint, which each endpoint's claim seeks (./deliveries.ts).
 */
import { step, type Migration } from './migration-step';
import { bigint, createTable, index, instant, integer, serial, text } from './sql/ddl';

/**
 * The pending deliveries of each endpoint, oldest due first. Each endpoint is claimed on its own (its lane), and an
 * endpoint that hangs gathers due deliveries by the thousand: walked by due time alone, every other endpoint's claim
 * would read past all of them.
 */
export const DUE_BY_ENDPOINT = 'webhook_deliveries_due_by_endpoint';

export const deliverySteps: readonly Migration[] = [
  step({
    version: 10,
    name: "deliveries of the merchant's events to each endpoint (at least once, leased to one instance), and their attempts",
    // A cursor per endpoint: the events after it are queued for it. A delivery is leased to one instance at a time
    // (lease_owner, lease_until); a lease that runs out (a crash) lets another instance deliver it again.
    ddl: [
      createTable('webhook_cursors', { endpoint_id: text().primaryKey(), after_seq: bigint().notNull() }, { withoutRowid: true }),
      createTable(
        'webhook_deliveries',
        {
          event_seq: bigint().notNull(),
          endpoint_id: text().notNull(),
          state: text().notNull().check(`state IN ('pending', 'delivered', 'failed')`),
          attempts: integer().notNull().default('0'),
          next_at: instant().notNull(),
          lease_owner: text(),
          lease_until: instant(),
          last_status: integer(),
          last_error: text(),
          delivered_at: instant(),
        },
        { primaryKey: ['event_seq', 'endpoint_id'] },
      ),
      index('webhook_deliveries_due', 'webhook_deliveries', ['next_at'], { where: `state = 'pending'` }),
      createTable('webhook_attempts', {
        id: serial(),
        event_seq: bigint().notNull(),
        endpoint_id: text().notNull(),
        at: instant().notNull(),
        status: integer(),
        duration_ms: integer().notNull(),
        error: text(),
      }),
      index('webhook_attempts_of_event', 'webhook_attempts', ['event_seq', 'id']),
    ],
  }),
];

/** Step 17, after step 16 in `./migrations`' list. */
export const deliveryIndexSteps: readonly Migration[] = [
  step({
    version: 17,
    name: "deliveries: the pending ones by endpoint, so each endpoint's claim seeks its own",
    ddl: [],
    // Built online (./migrate-online.ts): the table holds every delivery ever made. Until it exists, the claim reads
    // by due time as before (`DUE_BY_ENDPOINT` is named in SQLite's query only once it is built).
    online: [index(DUE_BY_ENDPOINT, 'webhook_deliveries', ['endpoint_id', 'next_at'], { where: `state = 'pending'` })],
  }),
];
