import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { migrations } from '../../../server/store/migrations';
import { openSqliteStore } from '../../../server/store/sqlite';
import { describeBackOfficeContract } from './back-office-contract';
import { describeCompanyPaymentContract } from './company-payments-contract';
import { at, describeStoreContract, draftFor } from './store-contract';

const dir = mkdtempSync(join(tmpdir(), 'store-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshFile = () => join(dir, `store-${++files}.sqlite`);

describeStoreContract('SQLite', async () => {
  const store = openSqliteStore({ file: freshFile() });
  return { store, teardown: () => store.close() };
});

describeBackOfficeContract('SQLite', async () => {
  const store = openSqliteStore({ file: freshFile() });
  return { store, teardown: () => store.close() };
});

describeCompanyPaymentContract('SQLite', async () => {
  const store = openSqliteStore({ file: freshFile() });
  return { store, teardown: () => store.close() };
});

describe('SQLite store file', () => {
  it('keeps everything when the file is opened again', async () => {
    const file = freshFile();
    const first = openSqliteStore({ file });
    const { checkout } = await first.reserveCheckout(draftFor('A-1'));
    const { event } = await first.activateCheckout(checkout.id, { state: 'Created', transactionId: 'tx-1' }, at(1));
    await first.close();

    const second = openSqliteStore({ file });
    expect(await second.getCheckout(checkout.id)).toMatchObject({ state: 'Created', transactionId: 'tx-1', seq: 1 });
    expect(await second.eventsAfter(checkout.id, 0)).toEqual([event]);
    expect((await second.reserveCheckout(draftFor('A-1'))).created).toBe(false);
    await second.close();

    const raw = new Database(file, { readonly: true });
    expect(raw.prepare('SELECT version FROM schema_migrations').pluck().all()).toEqual(migrations.map((m) => m.version));
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
  });

  it('stores amounts as INTEGER and refuses REAL even from raw SQL', async () => {
    const file = freshFile();
    const store = openSqliteStore({ file });
    const { checkout } = await store.reserveCheckout(draftFor('A-1'));
    await store.close();
    const raw = new Database(file);
    expect(raw.prepare('SELECT typeof(amount_cents) FROM checkouts WHERE id = ?').pluck().get(checkout.id)).toBe('integer');
    expect(() => raw.prepare(`UPDATE checkouts SET amount_cents = 10.5 WHERE id = ?`).run(checkout.id)).toThrow(/cannot store REAL/);
    raw.close();
  });
});

describe('SQLite schema step 2', () => {
  it('moves the method fields of existing checkouts into details and keeps their events', async () => {
    const file = freshFile();
    const v1 = new Database(file);
    v1.exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT`);
    v1.exec(migrations[0]!.sqlite);
    v1.prepare(`INSERT INTO schema_migrations VALUES (1, 'v1', ?)`).run(at(0));
    const insert = v1.prepare(`INSERT INTO checkouts (id, order_id, method, state, amount_cents, currency, qr_code, qr_code_location,
      checkout_url, return_url, transaction_id, seq, created_at, updated_at) VALUES (?, ?, ?, ?, 100, 'BRL', ?, ?, ?, ?, ?, 1, ?, ?)`);
    insert.run('co-pix', 'A-1', 'pix', 'Created', '000201', 'https://qr/1', null, null, 'tx-1', at(0), at(0));
    insert.run('co-of', 'A-2', 'openfinance', 'Registered', null, null, 'https://bank/2', 'https://shop/2', 'tx-2', at(0), at(0));
    v1.prepare(`INSERT INTO checkout_events VALUES ('co-pix', 1, 'Created', 'create', ?, '{"transactionId":"tx-1"}')`).run(at(0));
    v1.close();

    const store = openSqliteStore({ file });
    expect((await store.getCheckout('co-pix'))!.details).toEqual({ qrCode: '000201', qrCodeLocation: 'https://qr/1' });
    expect((await store.getCheckout('co-of'))!.details).toEqual({ checkoutUrl: 'https://bank/2', returnUrl: 'https://shop/2' });
    expect(await store.eventsAfter('co-pix', 0)).toHaveLength(1);
    expect((await store.reserveCheckout(draftFor('A-1'))).created).toBe(false);
    await store.close();
  });
});

describe('SQLite schema step 4', () => {
  it('gives checkouts stored before it the default payment window', async () => {
    const file = freshFile();
    const v3 = new Database(file);
    v3.exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT`);
    for (const migration of migrations.slice(0, 3)) {
      v3.exec(migration.sqlite);
      v3.prepare(`INSERT INTO schema_migrations VALUES (?, ?, ?)`).run(migration.version, migration.name, at(0));
    }
    v3.prepare(
      `INSERT INTO checkouts (id, order_id, method, state, amount_cents, currency, details, transaction_id, seq, created_at,
      updated_at) VALUES ('co-live', 'A-1', 'pix', 'Registered', 100, 'BRL', '{}', 'tx-1', 1, ?, ?)`,
    ).run(at(0), at(0));
    v3.close();

    const store = openSqliteStore({ file });
    expect((await store.getCheckout('co-live'))!.expiresAt).toBe(at(30));
    expect((await store.listExpiredCheckouts(at(29), 10)).map((c) => c.id)).toEqual([]);
    expect((await store.listExpiredCheckouts(at(30), 10)).map((c) => c.id)).toEqual(['co-live']);
    await store.close();
  });
});

describe('two SQLite connections on one file', () => {
  it('never both reserve the same order', async () => {
    const file = freshFile();
    const a = openSqliteStore({ file });
    const b = openSqliteStore({ file });
    const results = await Promise.all([a.reserveCheckout(draftFor('A-1')), b.reserveCheckout(draftFor('A-1'))]);
    expect(results.map((result) => result.created).sort()).toEqual([false, true]);
    expect(results[0].checkout.id).toBe(results[1].checkout.id);
    await Promise.all([a.close(), b.close()]);
  });

  it('has the database refuse a second live checkout for an order even when code skips the check', async () => {
    const file = freshFile();
    const store = openSqliteStore({ file });
    await store.reserveCheckout(draftFor('A-1'));
    await store.close();
    const raw = new Database(file);
    const insert = raw.prepare(`INSERT INTO checkouts (id, order_id, method, state, amount_cents, currency, details, created_at, updated_at)
      VALUES (?, 'A-1', 'pix', ?, 100, 'BRL', '{}', '', '')`);
    expect(() => insert.run('other-live', 'Created')).toThrow(/UNIQUE constraint failed/);
    expect(() => insert.run('old-error', 'Error')).not.toThrow();
    raw.close();
  });

  it('creates each order once when four processes reserve the same orders at the same time', async () => {
    const file = freshFile();
    await openSqliteStore({ file }).close();
    const startAt = String(Date.now() + 3_000);
    const script = join(import.meta.dirname, 'fixtures', 'reserve-orders.ts');
    const run = promisify(execFile);
    const outputs = await Promise.all(
      Array.from({ length: 4 }, () => run(process.execPath, ['--import', 'tsx', script, file, '40', startAt], { timeout: 60_000 })),
    );
    const created = outputs.flatMap(({ stdout }) => JSON.parse(stdout.trim().split('\n').at(-1)!) as string[]);
    expect(created).toHaveLength(40);
    expect(new Set(created).size).toBe(40);
  }, 60_000);
});
