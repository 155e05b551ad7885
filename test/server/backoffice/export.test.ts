/**
 * The back office's CSV export streams every row the filters select, on SQLite and on PostgreSQL (TEST_DATABASE_URL):
 * read from the store a page at a time by its cursor and written as the client reads, each row once and in the list's
 * order (newest first, then id descending), however many pages, and past the 100,000 rows it used to stop at. The
 * default file is read back as a pt-BR spreadsheet reads it (`;`, decimal comma, São Paulo time, BOM), the csv-iso
 * one as a machine does; both carry the provider's fee and the net amount of a paid checkout.
 */
import Database from 'better-sqlite3';
import { Hono } from 'hono';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkoutExportRoutes } from '../../../server/backoffice/routes/checkouts-export';
import { viewsWithRefunds } from '../../../server/backoffice/checkout-view';
import { errorAnswers } from '../../../server/http/error-envelope';
import { systemClock } from '../../../server/lib/clock';
import type { Store } from '../../../server/store/types';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../store/pg-test-database';
import { brazilianMicros, csvRecords, parseCsv, pointMicros, saoPauloTime } from '../helpers/csv';
import { openTestStore } from '../helpers/store';

/** More rows than the export used to write: it stopped after 100,000 without a word. */
const MANY = 100_005;
const T0 = Date.parse('2026-01-15T12:00:00.000Z');

/** The id of the checkout number `i` (1-based): ids sort as the numbers do. */
const idOf = (i: number) => `co-${String(i).padStart(6, '0')}`;
/** Three checkouts per second, so rows of the same instant are told apart by id (the cursor's second part). */
const createdAtOf = (i: number) => new Date(T0 + Math.floor(i / 3) * 1000).toISOString();
/** Every fifth checkout failed; the rest are waiting for payment. */
const stateOf = (i: number) => (i % 5 === 0 ? 'Error' : 'Registered');

/** A checkout stored as it is, for the format tests. */
interface Row {
  id: string;
  orderId: string;
  method: 'pix' | 'openfinance';
  state: string;
  amountCents: number;
  description: string | null;
  transactionId: string | null;
  createdAt: string;
  expiresAt: string;
  details: Record<string, unknown>;
  duplicateOf: string | null;
}

interface Seeded {
  store: Store;
  /** Stores checkouts 1 to `count` (and removes any before). */
  seed(count: number): Promise<void>;
  /** Stores `rows` (and removes any before). */
  insert(rows: Row[]): Promise<void>;
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
  expect(header).toMatch(/^ID;Pedido;/);
  expect(lines.pop()).toBe('');
  return lines.map((line) => line.slice(0, line.indexOf(';')));
}

/** Each id once, in the expected order (compared by count first, so a short file fails with a short message). */
function expectSameRows(actual: string[], expected: string[]) {
  expect(actual.length).toBe(expected.length);
  expect(new Set(actual).size).toBe(actual.length);
  const first = actual.findIndex((id, index) => id !== expected[index]);
  expect(first === -1 ? undefined : { index: first, got: actual[first], expected: expected[first] }).toBeUndefined();
}

const MIN = 60_000;
const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
const row = (fields: Partial<Row> & Pick<Row, 'id' | 'createdAt'>): Row => ({
  orderId: `O-${fields.id}`,
  method: 'pix',
  state: 'Completed',
  amountCents: 1000,
  description: null,
  transactionId: `tx-${fields.id}`,
  expiresAt: plus(fields.createdAt, 30 * MIN),
  details: {},
  duplicateOf: null,
  ...fields,
});

/**
 * Paid, with the provider's charges and a description a spreadsheet would split; waiting, with a formula for a
 * description and an order id starting with `-`; paid with charges above the amount (a negative net); paid late,
 * twice (the duplicate of the first), with charges exact at cents.
 */
const ROWS: Row[] = [
  row({
    id: 'co-a',
    amountCents: 123_456,
    description: 'Café; "moído", 2×',
    createdAt: '2026-01-15T03:30:00.000Z',
    details: { paidAt: '2026-01-15T03:45:10.000Z', charges: '12.722144' },
  }),
  row({
    id: 'co-b',
    orderId: '-O-b',
    method: 'openfinance',
    state: 'Registered',
    description: '=HYPERLINK("http://evil.example")',
    transactionId: null,
    createdAt: '2026-07-01T12:00:00.000Z',
  }),
  row({
    id: 'co-c',
    amountCents: 50,
    createdAt: '2026-02-10T10:00:00.000Z',
    details: { paidAt: '2026-02-10T10:05:00.000Z', charges: '0.599500' },
  }),
  row({
    id: 'co-d',
    orderId: 'O-co-a',
    amountCents: 123_456,
    createdAt: '2026-01-15T03:00:00.000Z',
    details: { paidAt: '2026-01-15T04:10:00.000Z', charges: '0.990000' },
    duplicateOf: 'co-a',
  }),
];

const PT_HEADER = [
  'ID',
  'Pedido',
  'Método',
  'Situação',
  'Valor',
  'Tarifa',
  'Valor líquido',
  'Reembolsado',
  'Moeda',
  'Criado em',
  'Expira em',
  'Pago em',
  'ID da transação',
  'Duplicata de',
  'Pago após o prazo',
  'Situação do reembolso',
  'ID da transação do reembolso',
  'Descrição',
];

async function exportFile(store: Store, query = '') {
  const app = checkoutExportRoutes({ store, clock: systemClock, withRefunds: viewsWithRefunds(store), pageSize: 3 });
  const response = await app.request(`/checkouts/export.csv${query}`);
  expect(response.status).toBe(200);
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** The fee and net each row must show, computed here from the stored charges (none: empty cells). */
const expectedMicros = (r: Row) => {
  const charges = typeof r.details.charges === 'string' ? pointMicros(r.details.charges) : undefined;
  return { fee: charges, net: charges === undefined ? undefined : BigInt(r.amountCents) * 10_000n - charges };
};

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

    it('reads the store only as the client takes the file: never more than one page ahead of it', async () => {
      await seeded.seed(100);
      const reads = vi.spyOn(seeded.store, 'listCheckouts');
      const app = checkoutExportRoutes({
        store: seeded.store,
        clock: systemClock,
        withRefunds: viewsWithRefunds(seeded.store),
        pageSize: 5,
      });
      const reader = (await app.request('/checkouts/export.csv')).body!.getReader();
      /** Lets the route run as far as it would with nobody reading: many turns and a few timers. */
      const idle = async () => {
        for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 5));
      };
      let lines = 0;
      let read = 0;
      for (;;) {
        await idle();
        // The pages whose rows the client has (the header is a line), the one being written, and one read ahead.
        expect(reads.mock.calls.length).toBeLessThanOrEqual(Math.ceil(Math.max(0, lines - 1) / 5) + 2);
        const { done, value } = await reader.read();
        if (done) break;
        read++;
        for (const byte of value) if (byte === 10) lines++;
      }
      expect(lines).toBe(101);
      // Every page of 5, then the empty one that ends the file; the client took it in many reads, not one.
      expect(reads.mock.calls.length).toBe(21);
      expect(read).toBeGreaterThan(20);
      reads.mockRestore();
    });

    it('writes a file a pt-BR spreadsheet opens: ; , decimal comma, São Paulo time, BOM, fee and net', async () => {
      await seeded.insert(ROWS);
      const { response, bytes } = await exportFile(seeded.store);
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const rows = parseCsv(bytes.subarray(3).toString('utf8'), ';');
      expect(rows[0]).toEqual(PT_HEADER);
      const records = csvRecords(rows);
      expect(records.map((r) => r['ID'])).toEqual(['co-b', 'co-c', 'co-a', 'co-d']);
      for (const stored of ROWS) {
        const record = records.find((r) => r['ID'] === stored.id)!;
        expect(record['Valor']).toMatch(/^\d+,\d\d$/);
        expect(brazilianMicros(record['Valor']!)).toBe(BigInt(stored.amountCents) * 10_000n);
        const { fee, net } = expectedMicros(stored);
        expect(record['Tarifa'] === '' ? undefined : brazilianMicros(record['Tarifa']!)).toBe(fee);
        expect(record['Valor líquido'] === '' ? undefined : brazilianMicros(record['Valor líquido']!)).toBe(net);
        expect(record['Criado em']).toBe(saoPauloTime(stored.createdAt));
        expect(record['Expira em']).toBe(saoPauloTime(stored.expiresAt));
        expect(record['Pago em']).toBe(stored.state === 'Completed' ? saoPauloTime(stored.details.paidAt as string) : '');
        expect(record['Moeda']).toBe('BRL');
        // No refunds stored: nothing given back.
        expect(record['Reembolsado']).toBe('0,00');
      }
      const [b, c, a, d] = records as [Record<string, string>, Record<string, string>, Record<string, string>, Record<string, string>];
      expect(a['Criado em']).toBe('15/01/2026 00:30:00');
      expect(a).toMatchObject({ Valor: '1234,56', Tarifa: '12,722144', 'Valor líquido': '1221,837856' });
      expect(a).toMatchObject({ Método: 'Pix', Situação: 'Pago', 'Pago após o prazo': 'não', Descrição: 'Café; "moído", 2×' });
      expect(b).toMatchObject({ Método: 'Open Finance', Situação: 'Aguardando pagamento', Tarifa: '', 'Valor líquido': '' });
      // Text a spreadsheet would run as a formula is defused; our own negative number is not.
      expect(b).toMatchObject({ Pedido: "'-O-b", Descrição: `'=HYPERLINK("http://evil.example")`, 'ID da transação': '' });
      expect(c).toMatchObject({ Valor: '0,50', Tarifa: '0,5995', 'Valor líquido': '-0,0995' });
      expect(d).toMatchObject({ Tarifa: '0,99', 'Duplicata de': 'co-a', 'Pago após o prazo': 'sim' });
    });

    it('writes the csv-iso file for machines: , decimal point, ISO instants, English names, no BOM', async () => {
      await seeded.insert(ROWS);
      const { bytes } = await exportFile(seeded.store, '?format=csv-iso');
      expect(bytes[0]).not.toBe(0xef);
      const rows = parseCsv(bytes.toString('utf8'), ',');
      expect(rows[0]!.join(',')).toBe(
        'id,orderId,method,state,amount,fee,net,refunded,currency,createdAt,expiresAt,paidAt,transactionId,duplicateOf,late,' +
          'refundState,refundTransactionId,description',
      );
      const records = csvRecords(rows);
      for (const stored of ROWS) {
        const record = records.find((r) => r['id'] === stored.id)!;
        expect(record['amount']).toMatch(/^\d+\.\d\d$/);
        expect(pointMicros(record['amount']!)).toBe(BigInt(stored.amountCents) * 10_000n);
        const { fee, net } = expectedMicros(stored);
        expect(record['fee'] === '' ? undefined : pointMicros(record['fee']!)).toBe(fee);
        expect(record['net'] === '' ? undefined : pointMicros(record['net']!)).toBe(net);
        expect(record['createdAt']).toBe(stored.createdAt);
        expect(record['refunded']).toBe('0.00');
        expect(record['expiresAt']).toBe(stored.expiresAt);
        expect(record).toMatchObject({ orderId: stored.orderId.startsWith('-') ? `'${stored.orderId}` : stored.orderId });
        expect(record).toMatchObject({ method: stored.method, state: stored.state, late: String(stored.id === 'co-d') });
      }
      const a = records.find((r) => r['id'] === 'co-a')!;
      expect(a).toMatchObject({ fee: '12.722144', net: '1221.837856', description: 'Café; "moído", 2×' });
      expect(records.find((r) => r['id'] === 'co-c')).toMatchObject({ net: '-0.099500' });
      // The filters hold in either format.
      const filtered = await exportFile(seeded.store, '?format=csv-iso&state=Registered');
      expect(csvRecords(parseCsv(filtered.bytes.toString('utf8'), ',')).map((r) => r['id'])).toEqual(['co-b']);
    });

    it('refuses a from or to that PostgreSQL cannot compare (year 0) with a 400, reading no row', async () => {
      const reads = vi.spyOn(seeded.store, 'listCheckouts');
      const app = new Hono().route(
        '/',
        checkoutExportRoutes({ store: seeded.store, clock: systemClock, withRefunds: viewsWithRefunds(seeded.store) }),
      );
      app.onError(errorAnswers({ warn: () => {}, error: () => {} }, 'export test'));
      for (const query of ['?from=0000-01-01T00:00:00.000Z', '?state=Completed&to=0000-12-31T00:00:00Z&format=csv-iso']) {
        const response = await app.request(`/checkouts/export.csv${query}`);
        expect(response.status, query).toBe(400);
        expect((await response.json()).error.code).toBe('invalid_request');
      }
      expect(reads).not.toHaveBeenCalled();
      reads.mockRestore();
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
  const store = await openTestStore({ file });
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
  const insertRow = raw.prepare(`INSERT INTO checkouts (id, order_id, method, state, amount_cents, currency, description,
    transaction_id, details, created_at, updated_at, expires_at, duplicate_of) VALUES (?, ?, ?, ?, ?, 'BRL', ?, ?, ?, ?, ?, ?, ?)`);
  const insertRows = raw.transaction((rows: Row[]) => {
    raw.exec('DELETE FROM checkouts');
    for (const r of rows) {
      insertRow.run(
        r.id,
        r.orderId,
        r.method,
        r.state,
        r.amountCents,
        r.description,
        r.transactionId,
        JSON.stringify(r.details),
        r.createdAt,
        r.createdAt,
        r.expiresAt,
        r.duplicateOf,
      );
    }
  });
  return {
    store,
    seed: async (count) => seed.immediate(count),
    insert: async (rows) => insertRows.immediate(rows),
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
    const store = await openTestStore({ databaseUrl: pg.url });
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
      async insert(rows) {
        await pg!.query('DELETE FROM checkouts');
        for (const r of rows) {
          await pg!.query(
            `INSERT INTO checkouts (id, order_id, method, state, amount_cents, currency, description, transaction_id, details,
               created_at, updated_at, expires_at, duplicate_of) VALUES ($1, $2, $3, $4, $5, 'BRL', $6, $7, $8, $9, $9, $10, $11)`,
            [
              r.id,
              r.orderId,
              r.method,
              r.state,
              r.amountCents,
              r.description,
              r.transactionId,
              JSON.stringify(r.details),
              r.createdAt,
              r.expiresAt,
              r.duplicateOf,
            ],
          );
        }
      },
      async close() {
        await store.close();
        await pg?.drop();
      },
    };
  },
  !TEST_DATABASE_URL,
);
