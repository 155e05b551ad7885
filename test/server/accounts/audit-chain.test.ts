/**
 * The audit trail's hash chain (server/store/audit-chain.ts, schema step 21), on SQLite and (with TEST_DATABASE_URL)
 * PostgreSQL, each test on a database of its own (a broken chain stays broken: the trail is append-only): an
 * untouched trail verifies, whatever its details' key order; an entry edited behind the triggers' back is named, and
 * so is the entry after one deleted in the middle, one whose hash was computed again, and a last entry cut off; two
 * stores appending at once on one database keep one chain; and the entries written before step 21 are chained by it.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { auditRecorder } from '../../../server/accounts/audit';
import type { AuditEntry, NewAuditEntry } from '../../../server/store/accounts';
import { auditHash, GENESIS } from '../../../server/store/audit-chain';
import { migratePostgres, migrateSqlite } from '../../../server/store/migrate';
import { migrations } from '../../../server/store/migrations';
import type { Store } from '../../../server/store/types';
import { openTestStore, type TestStoreAt } from '../helpers/store';
import { at } from '../store/store-contract';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../store/pg-test-database';
import { exec, rows, tamper } from './audit-tamper';

const entry = (i: number, overrides: Partial<NewAuditEntry> = {}): NewAuditEntry => ({
  at: at(i),
  actor: i % 2 ? 'ana@example.com' : 'cli',
  role: i % 2 ? 'owner' : null,
  ip: i % 2 ? '10.0.0.1' : null,
  action: 'user.add',
  target: `user-${i}@example.com`,
  outcome: 'ok',
  // Keys out of order and nested: PostgreSQL's jsonb gives them back in its own order.
  details: { zeta: i, alpha: { y: [1, 'two', null], b: true }, amount: '12.34' },
  ...overrides,
});

/** Where each test's database is: a fresh SQLite file, or a fresh PostgreSQL database. */
type Place = { at: TestStoreAt; drop(): Promise<void> };
const dir = mkdtempSync(join(tmpdir(), 'audit-chain-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const PLACES: [string, () => Promise<Place>][] = [
  ['SQLite', async () => ({ at: { file: join(dir, `${randomUUID()}.sqlite`) }, drop: async () => undefined })],
  ...(TEST_DATABASE_URL
    ? ([
        [
          'PostgreSQL',
          async () => {
            const database: TestDatabase = await createTestDatabase(TEST_DATABASE_URL!);
            return { at: { databaseUrl: database.url }, drop: () => database.drop() };
          },
        ],
      ] as [string, () => Promise<Place>][])
    : []),
];

describe.each(PLACES)('the audit trail as a hash chain (%s)', (_name, place) => {
  let opened: { place: Place; stores: Store[] } | undefined;
  afterEach(async () => {
    for (const store of opened?.stores ?? []) await store.close();
    await opened?.place.drop();
    opened = undefined;
  });
  /** A fresh database, `count` stores on it (one by default). */
  async function open(count = 1) {
    const where = await place();
    opened = { place: where, stores: [] };
    for (let i = 0; i < count; i++) opened.stores.push(await openTestStore(where.at));
    return { at: where.at, store: opened.stores[0]!, stores: opened.stores };
  }
  async function appended(store: Store, count: number): Promise<AuditEntry[]> {
    const written = [];
    for (let i = 0; i < count; i++) written.push(await store.appendAudit(entry(i)));
    return written;
  }
  const chain = (where: TestStoreAt) =>
    rows<{ seq: number | string; prev_hash: string; hash: string }>(where, 'SELECT seq, prev_hash, hash FROM audit_log ORDER BY seq');

  it('verifies an untouched trail, empty or not, and chains each entry to the one before', async () => {
    const { at: where, store } = await open();
    expect(await store.verifyAudit()).toEqual({ ok: true, count: 0, head: { seq: 0, hash: GENESIS } });
    const written = await appended(store, 5);
    const links = await chain(where);
    expect(links.map((l) => l.prev_hash)).toEqual([GENESIS, ...links.slice(0, -1).map((l) => l.hash)]);
    expect(links[0]!.hash).toBe(auditHash(written[0]!, GENESIS));
    expect(await store.verifyAudit()).toEqual({ ok: true, count: 5, head: { seq: written[4]!.seq, hash: links[4]!.hash } });
    // The triggers still refuse a change made through SQL.
    await expect(exec(where, `UPDATE audit_log SET actor = 'x' WHERE seq = ${written[0]!.seq}`)).rejects.toThrow(/append-only/);
  });

  it('keeps an entry whose target and details hold a NUL (PostgreSQL refuses one in text), and the chain verifies', async () => {
    const { store } = await open();
    const errors: unknown[][] = [];
    const audit = auditRecorder({
      store,
      clock: { now: () => new Date(at(1)) },
      who: { actor: 'api-token', role: 'owner', ip: null },
      log: { error: (...args: unknown[]) => errors.push(args) },
    });
    await audit({ action: 'portal.receiver.approve', target: 'rc_\u0000x', outcome: 'refused', details: { 'k\u0000': 'v\u0000' } });
    expect(errors).toEqual([]);
    const [kept] = await store.listAudit({ limit: 1, action: 'portal.receiver.approve' });
    expect(kept).toMatchObject({ target: 'rc_\uFFFDx', details: { 'k\uFFFD': 'v\uFFFD' } });
    expect(await store.verifyAudit()).toMatchObject({ ok: true, count: 1 });
  });

  it('names an entry edited behind the triggers’ back: its seq and its date', async () => {
    const { at: where, store } = await open();
    const written = await appended(store, 5);
    await tamper(where, `UPDATE audit_log SET actor = 'mallory' WHERE seq = ${written[2]!.seq}`);
    expect(await store.verifyAudit()).toEqual({
      ok: false,
      count: 2,
      first: { seq: written[2]!.seq, at: written[2]!.at, reason: 'changed' },
    });
    expect(await store.listAudit({ limit: 1, actor: 'mallory' })).toHaveLength(1);
  });

  it('names the entry after one whose hash was computed again to fit its edit', async () => {
    const { at: where, store } = await open();
    const written = await appended(store, 4);
    const [link] = await rows<{ prev_hash: string }>(where, `SELECT prev_hash FROM audit_log WHERE seq = ${written[1]!.seq}`);
    const forged = auditHash({ ...written[1]!, outcome: 'refused' }, link!.prev_hash);
    await tamper(where, `UPDATE audit_log SET outcome = 'refused', hash = '${forged}' WHERE seq = ${written[1]!.seq}`);
    expect(await store.verifyAudit()).toEqual({
      ok: false,
      count: 2,
      first: { seq: written[2]!.seq, at: written[2]!.at, reason: 'unlinked' },
    });
  });

  it('names the entry after one deleted in the middle, and a last entry cut off', async () => {
    const { at: where, store } = await open();
    const written = await appended(store, 5);
    await tamper(where, `DELETE FROM audit_log WHERE seq = ${written[4]!.seq}`);
    expect(await store.verifyAudit()).toEqual({ ok: false, count: 4, first: { seq: written[4]!.seq, at: null, reason: 'cut' } });
    await tamper(where, `DELETE FROM audit_log WHERE seq = ${written[1]!.seq}`);
    expect(await store.verifyAudit()).toEqual({
      ok: false,
      count: 1,
      first: { seq: written[2]!.seq, at: written[2]!.at, reason: 'unlinked' },
    });
  });

  it('keeps one chain when two stores on one database append at once', async () => {
    const { at: where, stores } = await open(2);
    const [a, b] = stores as [Store, Store];
    const each = 15;
    await Promise.all(
      Array.from({ length: each }, (_, i) => [a.appendAudit(entry(i, { actor: 'a' })), b.appendAudit(entry(i, { actor: 'b' }))]).flat(),
    );
    const links = await chain(where);
    expect(links).toHaveLength(2 * each);
    // No fork: every hash is the prev of exactly one entry, the next one.
    expect(new Set(links.map((l) => l.prev_hash)).size).toBe(2 * each);
    expect(await a.verifyAudit()).toMatchObject({ ok: true, count: 2 * each });
    expect(await b.verifyAudit()).toMatchObject({ ok: true, count: 2 * each });
  });

  it('chains, in schema step 21, the entries written before it', async () => {
    const where = await place();
    opened = { place: where, stores: [] };
    const before = migrations.filter((m) => m.version < 21);
    const insert = `INSERT INTO audit_log (at, actor, role, ip, action, target, outcome, details) VALUES `;
    const values = [0, 1, 2].map(
      (i) => `('${at(i)}', 'cli', ${i ? "'owner'" : 'NULL'}, NULL, 'user.add', NULL, 'ok', '{"b": ${i}, "a": {"d": 1, "c": 2}}')`,
    );
    if ('file' in where.at) {
      const db = new Database(where.at.file);
      migrateSqlite(db, before);
      db.exec(`${insert}${values.join(', ')}`);
      db.close();
    } else {
      const pool = new pg.Pool({ connectionString: where.at.databaseUrl });
      await migratePostgres(pool, before);
      await pool.query(`${insert}${values.join(', ')}`);
      await pool.end();
    }
    const store = await openTestStore(where.at);
    opened.stores.push(store);
    expect(await store.verifyAudit()).toMatchObject({ ok: true, count: 3 });
    const next = await store.appendAudit(entry(9));
    expect(await store.verifyAudit()).toEqual({ ok: true, count: 4, head: { seq: next.seq, hash: expect.any(String) } });
    await expect(exec(where.at, `UPDATE audit_log SET actor = 'x' WHERE seq = ${next.seq}`)).rejects.toThrow(/append-only/);
  });
});
