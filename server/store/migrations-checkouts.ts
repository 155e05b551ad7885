/**
 * Schema steps 1 to 4: the checkouts table and its events, and how they grew (method details in one JSON column,
 * duplicates of an order kept beside the first, the payment window). Listed in order by `./migrations`.
 */
import { EXPIRED, LIVE_STATES, RESERVING_STATES } from '../../core/states';
import { sqlList, type Migration } from './migration-step';

export const checkoutSteps: readonly Migration[] = [
  {
    version: 1,
    name: 'checkouts, events, webhook log, orders',
    // STRICT makes SQLite refuse a REAL (or text) amount instead of silently storing it.
    sqlite: `
      CREATE TABLE checkouts (
        id TEXT PRIMARY KEY,
        order_id TEXT NOT NULL,
        method TEXT NOT NULL CHECK (method IN ('pix', 'openfinance')),
        state TEXT NOT NULL CHECK (state IN ('Creating', 'Created', 'Registered', 'Completed', 'Error', 'Cancelled', 'Reversed')),
        amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
        currency TEXT NOT NULL CHECK (currency = 'BRL'),
        description TEXT,
        transaction_id TEXT UNIQUE,
        qr_code TEXT,
        qr_code_location TEXT,
        checkout_url TEXT,
        payer_cpf TEXT,
        payer_name TEXT,
        return_url TEXT,
        seq INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        last_webhook_at TEXT,
        last_checked_at TEXT
      ) STRICT;
      CREATE UNIQUE INDEX checkouts_one_per_order ON checkouts (order_id)
        WHERE state IN ('Creating', 'Created', 'Registered', 'Completed');
      CREATE INDEX checkouts_by_order ON checkouts (order_id, created_at);
      CREATE INDEX checkouts_live ON checkouts (created_at) WHERE state IN ('Created', 'Registered');
      CREATE TABLE checkout_events (
        checkout_id TEXT NOT NULL REFERENCES checkouts (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        state TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('create', 'webhook', 'reconcile', 'poll')),
        at TEXT NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (checkout_id, seq)
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE webhook_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        received_at TEXT NOT NULL,
        transaction_id TEXT,
        checkout_id TEXT,
        state TEXT,
        outcome TEXT NOT NULL CHECK (outcome IN ('applied', 'ignored', 'refused', 'invalid')),
        payload TEXT NOT NULL
      ) STRICT;
      CREATE TABLE orders (
        order_id TEXT PRIMARY KEY,
        amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
        description TEXT NOT NULL,
        items TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;
    `,
    postgres: `
      CREATE TABLE checkouts (
        id text PRIMARY KEY,
        order_id text NOT NULL,
        method text NOT NULL CHECK (method IN ('pix', 'openfinance')),
        state text NOT NULL CHECK (state IN ('Creating', 'Created', 'Registered', 'Completed', 'Error', 'Cancelled', 'Reversed')),
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        currency text NOT NULL CHECK (currency = 'BRL'),
        description text,
        transaction_id text UNIQUE,
        qr_code text,
        qr_code_location text,
        checkout_url text,
        payer_cpf text,
        payer_name text,
        return_url text,
        seq integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        last_webhook_at timestamptz,
        last_checked_at timestamptz
      );
      CREATE UNIQUE INDEX checkouts_one_per_order ON checkouts (order_id)
        WHERE state IN ('Creating', 'Created', 'Registered', 'Completed');
      CREATE INDEX checkouts_by_order ON checkouts (order_id, created_at);
      CREATE INDEX checkouts_live ON checkouts (created_at) WHERE state IN ('Created', 'Registered');
      CREATE TABLE checkout_events (
        checkout_id text NOT NULL REFERENCES checkouts (id) ON DELETE CASCADE,
        seq integer NOT NULL,
        state text NOT NULL,
        source text NOT NULL CHECK (source IN ('create', 'webhook', 'reconcile', 'poll')),
        at timestamptz NOT NULL,
        data jsonb NOT NULL,
        PRIMARY KEY (checkout_id, seq)
      );
      CREATE TABLE webhook_log (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        received_at timestamptz NOT NULL,
        transaction_id text,
        checkout_id text,
        state text,
        outcome text NOT NULL CHECK (outcome IN ('applied', 'ignored', 'refused', 'invalid')),
        payload jsonb NOT NULL
      );
      CREATE TABLE orders (
        order_id text PRIMARY KEY,
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        description text NOT NULL,
        items jsonb NOT NULL,
        created_at timestamptz NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'method fields in one JSON column; states checked in code; demo tables leave the product',
    // SQLite cannot drop a CHECK: both tables are rebuilt. The new events table references the new checkouts table,
    // so dropping the old ones cascades nothing; RENAME then updates the reference.
    sqlite: `
      CREATE TABLE checkouts_v2 (
        id TEXT PRIMARY KEY,
        order_id TEXT NOT NULL,
        method TEXT NOT NULL,
        state TEXT NOT NULL,
        amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
        currency TEXT NOT NULL CHECK (currency = 'BRL'),
        description TEXT,
        transaction_id TEXT UNIQUE,
        payer_cpf TEXT,
        payer_name TEXT,
        details TEXT NOT NULL CHECK (json_valid(details)),
        seq INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        last_webhook_at TEXT,
        last_checked_at TEXT
      ) STRICT;
      INSERT INTO checkouts_v2
        SELECT id, order_id, method, state, amount_cents, currency, description, transaction_id, payer_cpf, payer_name,
          json_patch('{}', json_object('qrCode', qr_code, 'qrCodeLocation', qr_code_location,
            'checkoutUrl', checkout_url, 'returnUrl', return_url)),
          seq, created_at, updated_at, last_webhook_at, last_checked_at
        FROM checkouts;
      CREATE TABLE checkout_events_v2 (
        checkout_id TEXT NOT NULL REFERENCES checkouts_v2 (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        state TEXT NOT NULL,
        source TEXT NOT NULL,
        at TEXT NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (checkout_id, seq)
      ) STRICT, WITHOUT ROWID;
      INSERT INTO checkout_events_v2 SELECT checkout_id, seq, state, source, at, data FROM checkout_events;
      DROP TABLE checkout_events;
      DROP TABLE checkouts;
      ALTER TABLE checkouts_v2 RENAME TO checkouts;
      ALTER TABLE checkout_events_v2 RENAME TO checkout_events;
      CREATE UNIQUE INDEX checkouts_one_per_order ON checkouts (order_id) WHERE state IN (${sqlList(RESERVING_STATES)});
      CREATE INDEX checkouts_by_order ON checkouts (order_id, created_at);
      CREATE INDEX checkouts_live ON checkouts (created_at) WHERE state IN (${sqlList(LIVE_STATES)});
      DROP TABLE webhook_log;
      DROP TABLE orders;
    `,
    postgres: `
      ALTER TABLE checkouts DROP CONSTRAINT checkouts_method_check, DROP CONSTRAINT checkouts_state_check,
        ADD COLUMN details jsonb NOT NULL DEFAULT '{}'::jsonb;
      UPDATE checkouts SET details = jsonb_strip_nulls(jsonb_build_object('qrCode', qr_code,
        'qrCodeLocation', qr_code_location, 'checkoutUrl', checkout_url, 'returnUrl', return_url));
      ALTER TABLE checkouts DROP COLUMN qr_code, DROP COLUMN qr_code_location, DROP COLUMN checkout_url,
        DROP COLUMN return_url, ALTER COLUMN details DROP DEFAULT;
      ALTER TABLE checkout_events DROP CONSTRAINT checkout_events_source_check;
      DROP INDEX checkouts_one_per_order;
      CREATE UNIQUE INDEX checkouts_one_per_order ON checkouts (order_id) WHERE state IN (${sqlList(RESERVING_STATES)});
      DROP INDEX checkouts_live;
      CREATE INDEX checkouts_live ON checkouts (created_at) WHERE state IN (${sqlList(LIVE_STATES)});
      DROP TABLE webhook_log;
      DROP TABLE orders;
    `,
  },
  {
    version: 3,
    name: 'a second transaction of an order is kept beside the first, as its duplicate',
    // A provider transaction found for an order that already has its checkout (a crash or a timeout left it behind,
    // or a late payment) is stored with duplicate_of set, outside the one-per-order rule, so it is followed too.
    sqlite: `
      ALTER TABLE checkouts ADD COLUMN duplicate_of TEXT;
      DROP INDEX checkouts_one_per_order;
      CREATE UNIQUE INDEX checkouts_one_per_order ON checkouts (order_id)
        WHERE state IN (${sqlList(RESERVING_STATES)}) AND duplicate_of IS NULL;
      CREATE INDEX checkouts_creating ON checkouts (created_at) WHERE state = 'Creating';
    `,
    postgres: `
      ALTER TABLE checkouts ADD COLUMN duplicate_of text;
      DROP INDEX checkouts_one_per_order;
      CREATE UNIQUE INDEX checkouts_one_per_order ON checkouts (order_id)
        WHERE state IN (${sqlList(RESERVING_STATES)}) AND duplicate_of IS NULL;
      CREATE INDEX checkouts_creating ON checkouts (created_at) WHERE state = 'Creating';
    `,
  },
  {
    version: 4,
    name: 'payment window: expires_at, and the indexes that find checkouts to expire and expired ones to follow',
    // `Expired` (core/states) is neither reserving nor live, so the lists of checkouts_one_per_order and
    // checkouts_live stay as they are. Checkouts stored before this step get the default window (30 minutes from
    // their creation); new ones get the configured window, or the provider's, when the BFF stores them.
    sqlite: `
      ALTER TABLE checkouts ADD COLUMN expires_at TEXT;
      UPDATE checkouts SET expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', created_at, '+1800 seconds');
      CREATE INDEX checkouts_expiring ON checkouts (expires_at) WHERE state IN (${sqlList(LIVE_STATES)});
      CREATE INDEX checkouts_expired ON checkouts (updated_at) WHERE state = '${EXPIRED}';
    `,
    postgres: `
      ALTER TABLE checkouts ADD COLUMN expires_at timestamptz;
      UPDATE checkouts SET expires_at = created_at + interval '1800 seconds';
      CREATE INDEX checkouts_expiring ON checkouts (expires_at) WHERE state IN (${sqlList(LIVE_STATES)});
      CREATE INDEX checkouts_expired ON checkouts (updated_at) WHERE state = '${EXPIRED}';
    `,
  },
];
