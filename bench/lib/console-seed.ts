/**
 * A merchant's history for the console rows (../console-rows.ts): `n` checkouts written straight into a store's
 * tables, not through the API, the same rows on SQLite and PostgreSQL. Every value is a function of the row's number
 * (a hash of it), so a size always seeds the same history: spread evenly over 180 days, mixed states and methods, a
 * few duplicates (half of them refunded), a few late payments, a few `Creating` reservations the list never shows,
 * and checkouts still waiting for their payer only in the last half hour (the expiry worker moved the older ones on).
 * SQLite is written with multi-row INSERTs in one transaction per batch; PostgreSQL with one `INSERT … SELECT FROM
 * unnest(…)` per batch.
 */
import type Database from 'better-sqlite3';
import type pg from 'pg';

/** The newest checkout's time: fixed, so runs are comparable. */
export const SEED_NOW = Date.parse('2026-06-01T00:00:00.000Z');
/** The history's length. */
export const SEED_DAYS = 180;
export const SEED_START = SEED_NOW - SEED_DAYS * 86_400_000;
const WINDOW_MS = 30 * 60_000;

/** Per mille of the checkouts in each state (the rest `Creating`, which the list hides). */
const STATE_SHARES: readonly [string, number][] = [
  ['Completed', 620],
  ['Expired', 250],
  ['Error', 60],
  ['Cancelled', 40],
  ['Reversed', 10],
  ['Registered', 10],
  ['Created', 9],
];
/** Per mille: paid through OpenFinance (the rest PIX); a second transaction of the previous row's order; paid late. */
const OPENFINANCE = 150;
const DUPLICATE = 2;
const LATE = 5;

/** 32 well-mixed bits of (i, salt) (the murmur3 finaliser). */
function hash(i: number, salt: number): number {
  let h = Math.imul(i ^ Math.imul(salt, 0x9e3779b9), 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}
const perMille = (i: number, salt: number) => hash(i, salt) % 1000;

/** The checkout id of row `i`: `co_` and 22 base64url characters, as the BFF makes them. */
export function seedId(i: number): string {
  const bytes = Buffer.alloc(16);
  for (let k = 0; k < 4; k++) bytes.writeUInt32BE(hash(i, 100 + k), k * 4);
  return `co_${bytes.toString('base64url')}`;
}

export const seedOrderId = (i: number) => `order-${String(i).padStart(8, '0')}`;

/** When row `i` of `n` was created: evenly over the history, every 40th row at the same instant as the one before. */
export const seedCreatedAt = (i: number, n: number) => {
  const slot = i % 40 === 39 ? i - 1 : i;
  return Math.floor(SEED_START + ((slot + 0.5) * (SEED_DAYS * 86_400_000)) / n);
};

function stateOf(i: number): string {
  let pick = perMille(i, 1);
  for (const [state, share] of STATE_SHARES) {
    if (pick < share) return state;
    pick -= share;
  }
  return 'Creating';
}

/** Checkout columns, in the order `seedCheckout` gives them, with their PostgreSQL types (for `unnest`). */
const CHECKOUT_COLUMNS = {
  id: 'text',
  order_id: 'text',
  method: 'text',
  state: 'text',
  amount_cents: 'bigint',
  currency: 'text',
  description: 'text',
  transaction_id: 'text',
  payer_cpf: 'text',
  payer_name: 'text',
  details: 'jsonb',
  duplicate_of: 'text',
  seq: 'integer',
  expires_at: 'timestamptz',
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
};

/** Row `i` of a history of `n` checkouts, in the order of `CHECKOUT_COLUMNS`; `refund`: the refund cash-out it has, if any. */
export function seedCheckout(i: number, n: number) {
  const createdMs = seedCreatedAt(i, n);
  const iso = (ms: number) => new Date(ms).toISOString();
  const duplicate = i > 0 && perMille(i, 2) < DUPLICATE;
  const drawn = duplicate ? 'Completed' : stateOf(i);
  // A checkout still waiting for its payer is one of the last half hour's: the expiry worker moved the others on.
  const state = (drawn === 'Created' || drawn === 'Registered') && createdMs < SEED_NOW - WINDOW_MS ? 'Expired' : drawn;
  const method = perMille(i, 3) < OPENFINANCE ? 'openfinance' : 'pix';
  const paid = state === 'Completed' || state === 'Reversed';
  const late = state === 'Completed' && perMille(i, 4) < LATE;
  const paidMs = late ? createdMs + WINDOW_MS + 60_000 + (hash(i, 5) % 3_600_000) : createdMs + (hash(i, 5) % WINDOW_MS);
  const creating = state === 'Creating';
  const id = seedId(i);
  const details: Record<string, string> =
    method === 'pix'
      ? { qrCode: `00020101021226990014br.gov.bcb.pix2577qr.example.com/v2/${id.slice(3)}5204000053039865802BR6304ABCD` }
      : { checkoutUrl: `https://openfinance.example.com/checkout/${id.slice(3)}` };
  if (paid) Object.assign(details, { paidAt: iso(paidMs), payerBank: 'Banco Exemplo S.A.' });
  const amountCents = 500 + (hash(i, 6) % 99_500);
  const row = [
    id,
    seedOrderId(duplicate ? i - 1 : i),
    method,
    state,
    amountCents,
    'BRL',
    `Pedido ${i}`,
    creating ? null : `tx_${String(i).padStart(8, '0')}`,
    paid ? '52998224725' : null,
    paid ? 'Maria da Silva' : null,
    JSON.stringify(details),
    duplicate ? seedId(i - 1) : null,
    creating ? 0 : paid ? 3 : 2,
    iso(createdMs + WINDOW_MS),
    iso(createdMs),
    iso(paid ? paidMs : createdMs + 1_000),
  ];
  const refund = duplicate && i % 2 === 0 ? seedRefund(id, i, amountCents, paidMs) : undefined;
  return { row, refund };
}

/** Cash-out columns, in the order `seedRefund` gives them, with their PostgreSQL types. */
const CASHOUT_COLUMNS = {
  idempotency_key: 'text',
  fingerprint: 'text',
  order_id: 'text',
  transaction_id: 'text',
  state: 'text',
  amount_cents: 'bigint',
  recipient_name: 'text',
  recipient_cpf: 'text',
  key_type: 'text',
  key_value: 'text',
  refund_of: 'text',
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
};

function seedRefund(checkoutId: string, i: number, amountCents: number, paidMs: number) {
  const at = new Date(paidMs + 3_600_000).toISOString();
  const key = `refund-${String(i).padStart(8, '0')}`;
  return [
    key,
    'seed',
    key,
    `tx_${key}`,
    'Completed',
    amountCents,
    'Maria da Silva',
    '52998224725',
    'CPF',
    '52998224725',
    checkoutId,
    at,
    at,
  ];
}

/** Rows per SQLite statement (16 columns each, under SQLite's 32,766 parameters) and per PostgreSQL statement. */
const SQLITE_ROWS = 1_000;
const PG_ROWS = 20_000;

function* batches(n: number, size: number) {
  for (let start = 0; start < n; start += size) {
    const rows: unknown[][] = [];
    const refunds: unknown[][] = [];
    for (let i = start; i < Math.min(n, start + size); i++) {
      const { row, refund } = seedCheckout(i, n);
      rows.push(row);
      if (refund) refunds.push(refund);
    }
    yield { rows, refunds };
  }
}

const insertInto = (table: string, columns: Record<string, string>, rows: number) => {
  const names = Object.keys(columns);
  const row = `(${names.map(() => '?').join(', ')})`;
  return `INSERT INTO ${table} (${names.join(', ')}) VALUES ${Array.from({ length: rows }, () => row).join(', ')}`;
};

/**
 * Writes the `n` checkouts of the history into an SQLite store's file (migrated, empty), 50,000 per transaction. As
 * a bulk load is done, the checkouts' indexes are dropped first and made again from their own SQL afterwards: the
 * same indexes, built in one pass (the primary key's and the unique ones, which are the table's, stay).
 */
export function seedSqlite(db: Database.Database, n: number): void {
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  const indexes = db
    .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'checkouts' AND sql IS NOT NULL`)
    .all() as { name: string; sql: string }[];
  for (const { name } of indexes) db.exec(`DROP INDEX ${name}`);
  const statements = new Map<string, Database.Statement>();
  const insert = (table: string, columns: Record<string, string>, rows: unknown[][]) => {
    if (rows.length === 0) return;
    const text = insertInto(table, columns, rows.length);
    let statement = statements.get(text);
    if (!statement) statements.set(text, (statement = db.prepare(text)));
    statement.run(rows.flat());
  };
  const write = db.transaction((batch: { rows: unknown[][]; refunds: unknown[][] }[]) => {
    for (const { rows, refunds } of batch) {
      insert('checkouts', CHECKOUT_COLUMNS, rows);
      insert('cashouts', CASHOUT_COLUMNS, refunds);
    }
  });
  let pending: { rows: unknown[][]; refunds: unknown[][] }[] = [];
  for (const batch of batches(n, SQLITE_ROWS)) {
    pending.push(batch);
    if (pending.length === 50) {
      write.immediate(pending);
      pending = [];
    }
  }
  if (pending.length) write.immediate(pending);
  for (const { sql } of indexes) db.exec(sql);
}

/** One `INSERT … SELECT FROM unnest(…)` of `rows`, a column array per parameter. */
async function unnestInsert(client: pg.ClientBase, table: string, columns: Record<string, string>, rows: unknown[][]) {
  if (rows.length === 0) return;
  const arrays = Object.keys(columns).map((_, c) => rows.map((row) => row[c]));
  const params = Object.values(columns).map((type, c) => `$${c + 1}::${type}[]`);
  await client.query(`INSERT INTO ${table} (${Object.keys(columns).join(', ')}) SELECT * FROM unnest(${params.join(', ')})`, arrays);
}

/**
 * Writes the `n` checkouts of the history into a PostgreSQL store's tables (migrated, empty), then ANALYZEs them. As
 * for SQLite, the indexes that are not a constraint's are dropped for the load and made again from their definitions.
 */
export async function seedPostgres(client: pg.ClientBase, n: number): Promise<void> {
  const { rows: indexes } = await client.query<{ name: string; definition: string }>(
    `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
     WHERE schemaname = current_schema() AND tablename = 'checkouts'
       AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE conrelid = 'checkouts'::regclass)`,
  );
  for (const { name } of indexes) await client.query(`DROP INDEX ${name}`);
  for (const { rows, refunds } of batches(n, PG_ROWS)) {
    await client.query('BEGIN');
    await unnestInsert(client, 'checkouts', CHECKOUT_COLUMNS, rows);
    await unnestInsert(client, 'cashouts', CASHOUT_COLUMNS, refunds);
    await client.query('COMMIT');
  }
  for (const { definition } of indexes) await client.query(definition);
  // What autovacuum's analyze would have done by the time a history this long was written.
  await client.query('ANALYZE checkouts; ANALYZE cashouts');
}
