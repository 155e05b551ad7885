/**
 * Payer data by need, on the demo process (emulator + BFF), on SQLite and (with TEST_DATABASE_URL) PostgreSQL: a
 * viewer reads masked CPFs and no account numbers from every back-office route that carries a payer (the list, the
 * detail, the provider's record, the provider's transactions, the CSV export); an operator's reveal answers the full
 * CPF and is in the audit trail without it; a viewer cannot reveal.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../server/lib/clock';
import { DATABASES, type TestDatabaseEnv } from '../merchant-webhooks/databases';
import { startTestServer, type TestServer } from '../helpers/server';
import { ADMIN_TOKEN, consoleClient } from './auth-helpers';

const CPF = '52998224725';
const FULL = [CPF, '529.982.247-25'];
const payer = { name: 'Maria Silva', taxNumber: CPF };

/** Whether a body shows a full CPF or any account's numbers. */
function leaks(text: string): string[] {
  return [
    ...FULL.filter((cpf) => text.includes(cpf)),
    ...['accountNumber', 'accountAgency', 'accountDigit'].filter((k) => text.includes(k)),
  ];
}

describe.each(DATABASES)('payer data by need (%s)', (_name, database) => {
  let db: TestDatabaseEnv;
  let server: TestServer;
  let client: ReturnType<typeof consoleClient>;
  let checkout: { id: string; orderId: string };
  beforeAll(async () => {
    db = await database();
    const clock = new ManualClock(new Date());
    server = await startTestServer({ env: { ADMIN_TOKEN, TRUST_PROXY: '1', ...db.env }, start: { clock } });
    client = consoleClient(server, clock);
    const { orderId, orderToken } = await server.order();
    const res = await server.json('POST', '/api/checkouts', {
      orderId,
      orderToken,
      method: 'pix',
      payer: { cpf: CPF, name: 'Maria Silva' },
    });
    expect([200, 201]).toContain(res.status);
    checkout = { id: res.body.id as string, orderId };
    await server.provider.sandbox.pix.complete(res.body.transactionId as string, payer);
    await vi.waitFor(async () => expect((await server.store.getCheckout(checkout.id))!.state).toBe('Completed'), { timeout: 5_000 });
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  it('shows a viewer masked CPFs and no account numbers on every route that carries a payer', async () => {
    const viewer = await client.session((await client.user('viewer')).email);
    const day = new Date().toISOString().slice(0, 10);
    const paths = [
      '/checkouts?limit=10',
      `/checkouts/${checkout.id}`,
      `/checkouts/${checkout.id}/provider`,
      `/transactions?orderId=${checkout.orderId}&date=${day}`,
      '/checkouts/export.csv',
      '/checkouts/export.csv?format=csv-iso',
    ];
    for (const path of paths) {
      const res = await client.withCookie(viewer, 'GET', path);
      expect(res.status, path).toBe(200);
      expect(leaks(res.text), path).toEqual([]);
    }
    const detail = await client.withCookie(viewer, 'GET', `/checkouts/${checkout.id}`);
    expect(detail.body.payer).toEqual({ cpf: '***.982.247-**', name: 'Maria Silva' });
    const record = await client.withCookie(viewer, 'GET', `/checkouts/${checkout.id}/provider`);
    expect(record.body.record.transaction.payer).toMatchObject({ name: 'Maria Silva', taxNumber: '***.982.247-**' });
    expect(record.body.record.payment.payer.cpf).toBe('***.982.247-**');
    const listed = await client.withCookie(viewer, 'GET', `/transactions?orderId=${checkout.orderId}&date=${day}`);
    expect(JSON.stringify(listed.body)).toContain('***.982.247-**');
    expect((await client.withCookie(viewer, 'POST', `/checkouts/${checkout.id}/payer`)).status).toBe(403);
  });

  it('reveals the payer in full to an operator, and the trail has the reveal without the CPF', async () => {
    const operator = await client.user('operator');
    const cookie = await client.session(operator.email);
    const res = await client.withCookie(cookie, 'POST', `/checkouts/${checkout.id}/payer`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      checkoutId: checkout.id,
      requested: { cpf: '529.982.247-25', name: 'Maria Silva' },
      paid: { name: 'Maria Silva', taxNumber: CPF },
    });
    const [entry] = await server.store.listAudit({ limit: 1, action: 'payer.reveal' });
    expect(entry).toMatchObject({ action: 'payer.reveal', target: checkout.id, actor: operator.email, outcome: 'ok' });
    expect(leaks(JSON.stringify(entry))).toEqual([]);
    expect(
      (await server.json('POST', `/api/admin/checkouts/co_nope/payer`, undefined, { authorization: `Bearer ${ADMIN_TOKEN}` })).status,
    ).toBe(404);
  });
});
