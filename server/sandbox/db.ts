/** Opens the emulator's SQLite file and brings its schema up to date through numbered migrations. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** Pass as `dataDir` for a throw-away database (tests). */
export const IN_MEMORY = ':memory:';

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE transactions (
     id TEXT PRIMARY KEY,
     kind TEXT NOT NULL,
     order_id TEXT,
     created_at TEXT NOT NULL,
     state TEXT NOT NULL,
     delivery_status TEXT,
     cob_id TEXT UNIQUE,
     body TEXT NOT NULL
   );
   CREATE INDEX transactions_by_order ON transactions (order_id, created_at);
   CREATE INDEX transactions_by_state ON transactions (state);`,
  // Company payments: receivers and their accounts (registered through the admin routes), payment requests with
  // their approval steps, and invoice documents with the uploaded bytes.
  `CREATE TABLE receivers (
     id TEXT PRIMARY KEY,
     created_at TEXT NOT NULL,
     status TEXT NOT NULL,
     fantasy_name TEXT NOT NULL,
     cnpj TEXT NOT NULL,
     review_note TEXT
   );
   CREATE TABLE receiver_accounts (
     id TEXT PRIMARY KEY,
     receiver_id TEXT NOT NULL REFERENCES receivers (id),
     created_at TEXT NOT NULL,
     bank_code TEXT NOT NULL,
     bank_name TEXT NOT NULL,
     agency TEXT NOT NULL,
     number TEXT NOT NULL,
     owner_doc TEXT NOT NULL,
     pix_key TEXT NOT NULL
   );
   CREATE TABLE payment_requests (
     id TEXT PRIMARY KEY,
     created_at TEXT NOT NULL,
     status TEXT NOT NULL,
     amount TEXT NOT NULL,
     description TEXT NOT NULL,
     receiver_id TEXT NOT NULL REFERENCES receivers (id),
     account_id TEXT NOT NULL REFERENCES receiver_accounts (id),
     pix_key TEXT NOT NULL,
     receiver_name TEXT NOT NULL,
     customer_name TEXT NOT NULL,
     transaction_id TEXT
   );
   CREATE INDEX payment_requests_by_status ON payment_requests (status, created_at);
   CREATE TABLE approval_steps (
     id TEXT PRIMARY KEY,
     request_id TEXT NOT NULL REFERENCES payment_requests (id),
     seq INTEGER NOT NULL,
     date TEXT NOT NULL,
     user_full_name TEXT NOT NULL,
     user_realm TEXT NOT NULL,
     status TEXT NOT NULL,
     comment TEXT
   );
   CREATE TABLE documents (
     id TEXT PRIMARY KEY,
     owner TEXT NOT NULL REFERENCES payment_requests (id),
     owner_type TEXT NOT NULL,
     type TEXT NOT NULL,
     name TEXT NOT NULL,
     file_name TEXT NOT NULL,
     created_at TEXT NOT NULL,
     upload_token TEXT NOT NULL UNIQUE,
     expires_at TEXT NOT NULL,
     uploaded_at TEXT,
     content_type TEXT,
     size INTEGER,
     content BLOB
   );
   CREATE INDEX documents_by_owner ON documents (owner, created_at);`,
  // Access keys of the portal's stand-in: the configured pair and any made through the admin routes, each Active,
  // Pending or Expired (an expiry date passes on the emulator clock). Secrets are kept as HMACs only.
  `CREATE TABLE access_keys (
     access_key TEXT PRIMARY KEY,
     secret_mac TEXT NOT NULL,
     status TEXT NOT NULL,
     created_at TEXT NOT NULL,
     expires_at TEXT,
     origin TEXT NOT NULL
   );`,
];

export function openDatabase(dataDir: string): Database.Database {
  let file = IN_MEMORY;
  if (dataDir !== IN_MEMORY) {
    mkdirSync(dataDir, { recursive: true });
    file = join(dataDir, 'sandbox.sqlite');
  }
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // A sandbox keeps its data through a crash of the process, but may lose its last commits to a power loss: WAL is
  // synced at checkpoints, not at every commit (docs/spec-gaps.md, "Emulator durability").
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  migrate(db);
  return db;
}

function migrate(db: Database.Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
  const row = db.prepare('SELECT MAX(version) AS version FROM schema_migrations').get() as { version: number | null };
  const current = row.version ?? 0;
  if (current > MIGRATIONS.length)
    throw new Error(`sandbox.sqlite is at schema version ${current}, newer than this code (${MIGRATIONS.length})`);
  const apply = db.transaction((version: number, sql: string) => {
    db.exec(sql);
    db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(version, new Date().toISOString());
  });
  MIGRATIONS.forEach((sql, index) => {
    if (index + 1 > current) apply(index + 1, sql);
  });
}

/** A persisted setting, created with `create()` the first time it is read. */
export function setting(db: Database.Database, key: string, create: () => string): string {
  const row = db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
  if (row) return row.value;
  const value = create();
  db.prepare('INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)').run(key, value);
  return (db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string }).value;
}
