/** Schema step 9: the merchant's events, written with the change they tell of (./merchant-events). */
import { step, type Migration } from './migration-step';
import { createTable, index, instant, json, serial, text } from './sql/ddl';

export const eventSteps: readonly Migration[] = [
  step({
    version: 9,
    name: "the merchant's events, one row per change a merchant acts on, in the change's own transaction",
    // `seq` is the feed's order and cursor; `id` is the event's stable name (the webhook-id of its deliveries).
    ddl: [
      createTable('merchant_events', {
        seq: serial(),
        id: text().notNull().unique(),
        type: text().notNull(),
        created_at: instant().notNull(),
        data: json().notNull(),
      }),
      index('merchant_events_by_type', 'merchant_events', ['type', 'seq']),
    ],
  }),
];
