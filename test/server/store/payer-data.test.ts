/**
 * Payers' data erased from the store (server/store/payer-data.ts), on SQLite and (with TEST_DATABASE_URL)
 * PostgreSQL: the retention erases the payers of old payments and keeps their amounts, states and ids, twice or on
 * two instances at once alike; `erasePayer` leaves no trace of the CPF, formatted or not, in the SQLite file (WAL
 * included) or in any text of any table of PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewCashOut } from '../../../server/store/back-office';
import { openPostgresStore } from '../../../server/store/postgres';
import { openSqliteStore } from '../../../server/store/sqlite';
import type { Store } from '../../../server/store/types';
import { erasePayer } from '../../../server/admin-erase-payer';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from './pg-test-database';
import { at, draftFor } from './store-contract';

const CPF = '52998224725';
const FORMATTED = '529.982.247-25';
const OTHER_CPF = '11144477735';
const dir = mkdtempSync(join(tmpdir(), 'payer-data-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
let pg: TestDatabase | undefined;
afterAll(async () => pg?.drop());

interface Backend {
  open(): Promise<[Store, Store]>;
  /** Whether the CPF, in either form, is anywhere in what the database keeps. */
  holds(text: string): Promise<boolean>;
}

const sqlite = (): Backend => {
  const file = join(dir, `store-${++files}.sqlite`);
  const bytes = (path: string) => (existsSync(path) ? readFileSync(path).toString('latin1') : '');
  return {
    open: async () => [openSqliteStore({ file }), openSqliteStore({ file })],
    holds: async (text) => [file, `${file}-wal`].some((path) => bytes(path).includes(text)),
  };
};

const postgres = (): Backend => ({
  async open() {
    pg ??= await createTestDatabase(TEST_DATABASE_URL!);
    return Promise.all([openPostgresStore({ connectionString: pg.url }), openPostgresStore({ connectionString: pg.url })]);
  },
  // Every text-like column of every table of ours, searched (JSON columns as their text).
  async holds(text) {
    const columns = await pg!.query(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'json', 'jsonb')`,
    );
    for (const { table_name, column_name } of columns.rows as { table_name: string; column_name: string }[]) {
      const found = await pg!.query(`SELECT 1 FROM "${table_name}" WHERE "${column_name}"::text LIKE $1 LIMIT 1`, [`%${text}%`]);
      if (found.rowCount) return true;
    }
    return false;
  },
});

const backends: [string, () => Backend][] = [
  ['SQLite', sqlite],
  ...(TEST_DATABASE_URL ? ([['PostgreSQL', postgres]] as [string, () => Backend][]) : []),
];

describe.each(backends)('payer data erased from the store (%s)', (_name, make) => {
  let backend: Backend;
  let store: Store;
  let other: Store;
  beforeEach(async () => {
    backend = make();
    [store, other] = await backend.open();
  });
  afterEach(async () => {
    await Promise.all([store.close(), other.close()]);
  });

  /** A paid PIX checkout of `cpf`, created at minute `minute`, with a completed refund to its payer. */
  async function paidWithRefund(cpf: string, minute: number) {
    const { checkout } = await store.reserveCheckout(
      draftFor(`P-${randomUUID()}`, { createdAt: at(minute), payerCpf: cpf, payerName: 'Maria da Silva' }),
    );
    await store.activateCheckout(checkout.id, { state: 'Registered', transactionId: `tx-${checkout.id}` }, at(minute));
    await store.apply(checkout.id, { type: 'provider', state: 'Completed' }, 'webhook', {}, at(minute + 1));
    const refund: NewCashOut = {
      idempotencyKey: randomUUID(),
      fingerprint: `sha-of-${cpf}`,
      orderId: `refund-${randomUUID()}`,
      amountCents: 1_000,
      recipientName: 'Maria da Silva',
      recipientCpf: cpf,
      keyType: 'CPF',
      keyValue: cpf === CPF ? FORMATTED : cpf,
      requestedBy: 'maker@shop.example',
      createdAt: at(minute + 2),
      refundOf: checkout.id,
    };
    const reserved = await store.reserveCashOut(refund);
    if (!('cashOut' in reserved)) throw new Error(reserved.outcome);
    await store.activateCashOut(refund.idempotencyKey, `tx-${refund.idempotencyKey}`, 'Created', at(minute + 2));
    await store.updateCashOut(refund.idempotencyKey, { state: 'Completed' }, at(minute + 3));
    return { checkoutId: checkout.id, refundKey: refund.idempotencyKey };
  }

  it('erases the payers of payments past retention, keeping amounts, states and ids, on two instances at once', async () => {
    const old = await paidWithRefund(CPF, 0);
    const recent = await paidWithRefund(OTHER_CPF, 600);
    const before = at(300);
    const [a, b] = await Promise.all([store.erasePayersBefore(before, 1), other.erasePayersBefore(before, 1)]);
    // Two passes at once erase each row once between them (or both, harmlessly): never more than there is.
    expect(a.checkouts + b.checkouts).toBeGreaterThanOrEqual(1);
    while ((await store.erasePayersBefore(before, 1)).checkouts > 0);
    expect(await store.erasePayersBefore(before, 10)).toEqual({ checkouts: 0, cashOuts: 0 });

    const erased = (await store.getCheckout(old.checkoutId))!;
    expect(erased).toMatchObject({ payerCpf: null, payerName: null, state: 'Completed', amountCents: 12_345 });
    expect(erased.transactionId).toBe(`tx-${old.checkoutId}`);
    expect(await store.getCashOut(old.refundKey)).toMatchObject({
      recipientCpf: '',
      recipientName: '',
      keyValue: '',
      state: 'Completed',
      amountCents: 1_000,
      transactionId: `tx-${old.refundKey}`,
    });
    expect(await store.getCheckout(recent.checkoutId)).toMatchObject({ payerCpf: OTHER_CPF, payerName: 'Maria da Silva' });
    expect((await store.getCashOut(recent.refundKey))!.recipientCpf).toBe(OTHER_CPF);
  });

  it('erase-payer leaves no trace of the CPF, formatted or digits only, and says what stays at the provider', async () => {
    const paid = await paidWithRefund(CPF, 0);
    await paidWithRefund(OTHER_CPF, 10);
    await store.flushErased();
    expect(await backend.holds(CPF)).toBe(true);

    const text = await erasePayer(FORMATTED, { store, clock: { now: () => new Date(at(20)) } });
    expect(text).toContain('Erased ***.982.247-**: 1 payment(s), 1 refund(s)');
    expect(text).toContain('the merchant must ask the provider');
    // While the stores are open (a server running beside the command), and after they closed.
    expect(await backend.holds(CPF)).toBe(false);
    await Promise.all([store.close(), other.close()]);
    [store, other] = await backend.open();

    expect(await backend.holds(CPF)).toBe(false);
    expect(await backend.holds(FORMATTED)).toBe(false);
    expect(await backend.holds(OTHER_CPF)).toBe(true);
    expect(await store.getCheckout(paid.checkoutId)).toMatchObject({ payerCpf: null, state: 'Completed' });
    const [entry] = await store.listAudit({ limit: 1 });
    expect(entry).toMatchObject({ action: 'payer.erase', target: '***.982.247-**' });
  });
});
