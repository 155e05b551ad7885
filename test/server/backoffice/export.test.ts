/**
 * The back office's CSV export streams every row the filters select, on SQLite and on PostgreSQL (TEST_DATABASE_URL):
 * read from the store a page at a time by its cursor and written as the client reads, each row once and in the list's
 * order (newest first, then id descending), however many pages, and past the 100,000 rows it used to stop at.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkoutExportRoutes } from '../../../server/backoffice/checkouts-export';
import { viewsWithRefunds } from '../../../server/backoffice/checkouts';
import { systemClock } from '../../../server/lib/clock';
import { openPostgresStore } from '../../../server/store/postgres';
import { openSqliteStore } from '../../../server/store/sqlite';
import type { Store } from '../../../server/store/types';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../store/pg-test-database';

/** More rows than the export used to write: it stopped after 100,000 without a word. */
const MANY = 100_005;
const T0 = Date.parse('2026-01-15T12:00:00.000Z');

/** The id of the checkout number `i` (1-based): ids sort as the numbers do. */
const idOf = (i: number) => `co-${String(i).padStart(6, '0')}`;
/** Three checkouts per second, so rows of the same instant are told apart by id (the cursor's second part). */
const createdAtOf = (i: number) => new Date(T0 + Math.floor(i / 3) * 1000).toISOString();
/** Every fifth checkout failed; the rest are waiting for payment. */
const stateOf = (i: number) => (i % 5 === 0 ? 'Error' : 'Registered');

interface Seeded {
  store: Store;
  /** Stores checkouts 1 to `count` (and removes any before). */
  seed(count: number): Promise<void>;
  close(): Promise<void>;
}

/** The ids the export must list for checkouts 1 to `count`: newest first, then id descending. */
function expectedIds(count: number, keep: (i: number) => boolean = () => true): string[] {
  const ids: string[] = [];
  for (let i = count; i >= 1; i--) if (keep(i)) ids.push(idOf(i));
  return ids;
}

async function exportIds(store: Store, pageSize: number, query = ''): Promise<string[]> {
  const app = checkoutExportRoutes({ store, clock: systemClock, withRefunds: viewsWithRefunds(store), pageSize });
  const response = await app.request(`/checkouts/export.csv${query}`);
  expect(response.status).toBe(200);
  const [header, ...lines] = (await response.text()).replace(/^\uFEFF/, '').split('\r\n');
  expect(header).toMatch(/^id,orderId,/);
  expect(lines.pop()).toBe('');
  return lines.map((line) => line.slice(0, line.indexOf(',')));
}

/** Each id once, in the expected order (compared by count first, so a short file fails with a short message). */
function expectSameRows(actual: string[], expected: string[]) {
  expect(actual.length).toBe(expected.length);
  expect(new Set(actual).size).toBe(actual.length);
  const first = actual.findIndex((id, index) => id !== expected[index]);
  expect(first === -1 ? undefined : { index: first, got: actual[first], expected: expected[first] }).toBeUndefined();
}

function describeExport(name: string, open: () => Promise<Seeded>, skip = false) {
  describe.skipIf(skip)(`CSV export on ${name}`, () => {
    let seeded: Seeded;
    beforeAll(async () => {
      seeded = await open();
    });
    afterAll(() => seeded?.close());

    it('writes every row exactly once, in order, across many small pages', async () => {
      await seeded.seed(50);
      const reads = vi.spyOn(seeded.store, 'listCheckouts');
      expectSameRows(await exportIds(seeded.store, 7), expectedIds(50));
      // Read a page at a time (flat memory), never the whole list at once.
      expect(reads.mock.calls.length).toBeGreaterThanOrEqual(8);
      for (const [, limit] of reads.mock.calls) expect(limit).toBeLessThanOrEqual(7);
      reads.mockRestore();
      // The filters hold across pages.
      expectSameRows(
        await exportIds(seeded.store, 4, '?state=Registered'),
        expectedIds(50, (i) => stateOf(i) === 'Registered'),
      );
      expectSameRows(
        await exportIds(seeded.store, 3, '?state=Error'),
        expectedIds(50, (i) => stateOf(i) === 'Error'),
      );
      // A page size that divides the rows exactly ends cleanly too.
      expectSameRows(await exportIds(seeded.store, 10), expectedIds(50));
    });

    it(`writes all of ${MANY.toLocaleString('en')} rows, past the 100,000 it used to stop at`, async () => {
      await seeded.seed(MANY);
      expectSameRows(await exportIds(seeded.store, 20_000), expectedIds(MANY));
    }, 120_000);
  });
}

const dir = mkdtempSync(join(tmpdir(), 'export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeExport('SQLite', async () => {
  const file = join(dir, 'store.sqlite');
  const store = openSqliteStore({ file });
  const raw = new Database(file);
  const insert = raw.prepare(`INSERT INTO checkouts (id, order_id, method, state, amount_cents, currency, details, created_at,
    updated_at, expires_at) VALUES (?, ?, 'pix', ?, 1000, 'BRL', '{}', ?, ?, ?)`);
  const seed = raw.transaction((count: number) => {
    raw.exec('DELETE FROM checkouts');
    for (let i = 1; i <= count; i++) {
      const at = createdAtOf(i);
      insert.run(idOf(i), `O-${i}`, stateOf(i), at, at, new Date(Date.parse(at) + 1_800_000).toISOString());
    }
  });
  return {
    store,
    seed: async (count) => seed.immediate(count),
    close: async () => {
      raw.close();
      await store.close();
    },
  };
});

let pg: TestDatabase | undefined;
describeExport(
  'PostgreSQL (TEST_DATABASE_URL)',
  async () => {
    pg = await createTestDatabase(TEST_DATABASE_URL!);
    const store = await openPostgresStore({ connectionString: pg.url });
    return {
      store,
      async seed(count) {
        await pg!.query('DELETE FROM checkouts');
        await pg!.query(
          `INSERT INTO checkouts (id, order_id, method, state, amount_cents, currency, details, created_at, updated_at, expires_at)
           SELECT 'co-' || lpad(i::text, 6, '0'), 'O-' || i, 'pix', CASE WHEN i % 5 = 0 THEN 'Error' ELSE 'Registered' END, 1000,
             'BRL', '{}', at, at, at + interval '30 minutes'
           FROM generate_series(1, $1::int) AS i, LATERAL (SELECT $2::timestamptz + (i / 3) * interval '1 second' AS at) AS t`,
          [count, new Date(T0).toISOString()],
        );
      },
      async close() {
        await store.close();
        await pg?.drop();
      },
    };
  },
  !TEST_DATABASE_URL,
);
