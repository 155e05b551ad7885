/**
 * Schema steps 1 to 4: the checkouts table and its events, and how they grew (method details in one JSON column,
 * duplicates of an order kept beside the first, the payment window). Listed in order by `./migrations`.
 */
import { EXPIRED, LIVE_STATES, RESERVING_STATES } from '../../core/states';
import { sqlList, step, type Migration } from './migration-step';
import { addColumn, bigint, byDialect, createTable, dropIndex, dropTable, identity, index, instant, integer, json, text } from './sql/ddl';

export const checkoutSteps: readonly Migration[] = [
  step({
    version: 1,
    name: 'checkouts, events, webhook log, orders',
    ddl: [
      createTable('checkouts', {
        id: text().primaryKey(),
        order_id: text().notNull(),
        method: text().notNull().check(`method IN ('pix', 'openfinance')`),
        state: text().notNull().check(`state IN ('Creating', 'Created', 'Registered', 'Completed', 'Error', 'Cancelled', 'Reversed')`),
        amount_cents: bigint().notNull().check('amount_cents > 0'),
        currency: text().notNull().check(`currency = 'BRL'`),
        description: text(),
        transaction_id: text().unique(),
        qr_code: text(),
        qr_code_location: text(),
        checkout_url: text(),
        payer_cpf: text(),
        payer_name: text(),
        return_url: text(),
        seq: integer().notNull().default('0'),
        created_at: instant().notNull(),
        updated_at: instant().notNull(),
        last_webhook_at: instant(),
        last_checked_at: instant(),
      }),
      index('checkouts_one_per_order', 'checkouts', ['order_id'], {
        unique: true,
        where: `state IN ('Creating', 'Created', 'Registered', 'Completed')`,
      }),
      index('checkouts_by_order', 'checkouts', ['order_id', 'created_at']),
      index('checkouts_live', 'checkouts', ['created_at'], { where: `state IN ('Created', 'Registered')` }),
      createTable(
        'checkout_events',
        {
          checkout_id: text().notNull().references('checkouts', 'id', { onDelete: 'CASCADE' }),
          seq: integer().notNull(),
          state: text().notNull(),
          source: text().notNull().check(`source IN ('create', 'webhook', 'reconcile', 'poll')`),
          at: instant().notNull(),
          data: json().notNull(),
        },
        { primaryKey: ['checkout_id', 'seq'], withoutRowid: true },
      ),
      createTable('webhook_log', {
        id: identity(),
        received_at: instant().notNull(),
        transaction_id: text(),
        checkout_id: text(),
        state: text(),
        outcome: text().notNull().check(`outcome IN ('applied', 'ignored', 'refused', 'invalid')`),
        payload: json().notNull(),
      }),
      createTable('orders', {
        order_id: text().primaryKey(),
        amount_cents: bigint().notNull().check('amount_cents > 0'),
        description: text().notNull(),
        items: json().notNull(),
        created_at: instant().notNull(),
      }),
    ],
  }),
  step({
    version: 2,
    name: 'method fields in one JSON column; states checked in code; demo tables leave the product',
    ddl: [
      byDialect({
        // SQLite cannot drop a CHECK: both tables are rebuilt. The new events table references the new checkouts
        // table, so dropping the old ones cascades nothing; RENAME then updates the reference. The old tables' indexes
        // go with them, and are made again below.
        sqlite: [
          createTable('checkouts_v2', {
            id: text().primaryKey(),
            order_id: text().notNull(),
            method: text().notNull(),
            state: text().notNull(),
            amount_cents: bigint().notNull().check('amount_cents > 0'),
            currency: text().notNull().check(`currency = 'BRL'`),
            description: text(),
            transaction_id: text().unique(),
            payer_cpf: text(),
            payer_name: text(),
            details: json().notNull().check('json_valid(details)'),
            seq: integer().notNull().default('0'),
            created_at: instant().notNull(),
            updated_at: instant().notNull(),
            last_webhook_at: instant(),
            last_checked_at: instant(),
          }),
          `INSERT INTO checkouts_v2
            SELECT id, order_id, method, state, amount_cents, currency, description, transaction_id, payer_cpf, payer_name,
              json_patch('{}', json_object('qrCode', qr_code, 'qrCodeLocation', qr_code_location,
                'checkoutUrl', checkout_url, 'returnUrl', return_url)),
              seq, created_at, updated_at, last_webhook_at, last_checked_at
            FROM checkouts`,
          createTable(
            'checkout_events_v2',
            {
              checkout_id: text().notNull().references('checkouts_v2', 'id', { onDelete: 'CASCADE' }),
              seq: integer().notNull(),
              state: text().notNull(),
              source: text().notNull(),
              at: instant().notNull(),
              data: json().notNull(),
            },
            { primaryKey: ['checkout_id', 'seq'], withoutRowid: true },
          ),
          'INSERT INTO checkout_events_v2 SELECT checkout_id, seq, state, source, at, data FROM checkout_events',
          dropTable('checkout_events'),
          dropTable('checkouts'),
          'ALTER TABLE checkouts_v2 RENAME TO checkouts',
          'ALTER TABLE checkout_events_v2 RENAME TO checkout_events',
        ],
        // PostgreSQL drops the CHECKs and moves the columns in place.
        postgres: [
          `ALTER TABLE checkouts DROP CONSTRAINT checkouts_method_check, DROP CONSTRAINT checkouts_state_check,
            ADD COLUMN details jsonb NOT NULL DEFAULT '{}'::jsonb`,
          `UPDATE checkouts SET details = jsonb_strip_nulls(jsonb_build_object('qrCode', qr_code,
            'qrCodeLocation', qr_code_location, 'checkoutUrl', checkout_url, 'returnUrl', return_url))`,
          `ALTER TABLE checkouts DROP COLUMN qr_code, DROP COLUMN qr_code_location, DROP COLUMN checkout_url,
            DROP COLUMN return_url, ALTER COLUMN details DROP DEFAULT`,
          'ALTER TABLE checkout_events DROP CONSTRAINT checkout_events_source_check',
          dropIndex('checkouts_one_per_order'),
        ],
      }),
      index('checkouts_one_per_order', 'checkouts', ['order_id'], { unique: true, where: `state IN (${sqlList(RESERVING_STATES)})` }),
      byDialect({
        sqlite: [index('checkouts_by_order', 'checkouts', ['order_id', 'created_at'])],
        postgres: [dropIndex('checkouts_live')],
      }),
      index('checkouts_live', 'checkouts', ['created_at'], { where: `state IN (${sqlList(LIVE_STATES)})` }),
      dropTable('webhook_log'),
      dropTable('orders'),
    ],
  }),
  step({
    version: 3,
    name: 'a second transaction of an order is kept beside the first, as its duplicate',
    // A provider transaction found for an order that already has its checkout (a crash or a timeout left it behind,
    // or a late payment) is stored with duplicate_of set, outside the one-per-order rule, so it is followed too.
    ddl: [
      addColumn('checkouts', 'duplicate_of', text()),
      dropIndex('checkouts_one_per_order'),
      index('checkouts_one_per_order', 'checkouts', ['order_id'], {
        unique: true,
        where: `state IN (${sqlList(RESERVING_STATES)}) AND duplicate_of IS NULL`,
      }),
      index('checkouts_creating', 'checkouts', ['created_at'], { where: `state = 'Creating'` }),
    ],
  }),
  step({
    version: 4,
    name: 'payment window: expires_at, and the indexes that find checkouts to expire and expired ones to follow',
    // `Expired` (core/states) is neither reserving nor live, so the lists of checkouts_one_per_order and
    // checkouts_live stay as they are. Checkouts stored before this step get the default window (30 minutes from
    // their creation); new ones get the configured window, or the provider's, when the BFF stores them.
    ddl: [
      addColumn('checkouts', 'expires_at', instant()),
      byDialect({
        sqlite: [`UPDATE checkouts SET expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', created_at, '+1800 seconds')`],
        postgres: [`UPDATE checkouts SET expires_at = created_at + interval '1800 seconds'`],
      }),
      index('checkouts_expiring', 'checkouts', ['expires_at'], { where: `state IN (${sqlList(LIVE_STATES)})` }),
      index('checkouts_expired', 'checkouts', ['updated_at'], { where: `state = '${EXPIRED}'` }),
    ],
  }),
];
