/** Schema step 8: provider transactions of our orders that we could not prove ours, kept for the back-office. */
import { step, type Migration } from './migration-step';
import { createTable, index, instant, text } from './sql/ddl';

export const foreignSteps: readonly Migration[] = [
  step({
    version: 8,
    name: 'provider transactions of our orders that are not provably ours (secret, address, amount), never adopted',
    // One row a transaction: the primary key makes recording it again (a webhook retry, the next settlement) a no-op.
    ddl: [
      createTable(
        'foreign_transactions',
        {
          transaction_id: text().primaryKey(),
          order_id: text().notNull(),
          method: text(),
          amount: text().notNull(),
          state: text().notNull(),
          reason: text().notNull(),
          seen_at: instant().notNull(),
        },
        { withoutRowid: true },
      ),
      index('foreign_transactions_recent', 'foreign_transactions', ['seen_at']),
    ],
  }),
];
