/**
 * Payer data by need, on the demo process (emulator + BFF), on SQLite and (with TEST_DATABASE_URL) PostgreSQL: a
 * viewer reads masked CPFs and no account numbers from every back-office route that carries a payer (the list, the
 * detail, the provider's record, the provider's transactions, the CSV export); an operator's reveal answers the full
 * CPF and is in the audit trail without it; a viewer cannot reveal.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { DATABASES } from '../merchant-webhooks/databases';
import { ADMIN_TOKEN, consoleWorld } from './auth-helpers';

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
  const world = consoleWorld(database);
  let checkout: { id: string; orderId: string };
  beforeAll(async () => {
    const { orderId, orderToken } = await world.server.order();
    const res = await world.server.json('POST', '/api/checkouts', {
      orderId,
      orderToken,
      method: 'pix',
      payer: { cpf: CPF, name: 'Maria Silva' },
    });
    expect([200, 201]).toContain(res.status);
    checkout = { id: res.body.id as string, orderId };
    await world.server.provider.sandbox.pix.complete(res.body.transactionId as string, payer);
    await vi.waitFor(async () => expect((await world.server.store.getCheckout(checkout.id))!.state).toBe('Completed'), { timeout: 5_000 });
  });

  it('shows a viewer masked CPFs and no account numbers on every route that carries a payer', async () => {
    const viewer = await world.client.session((await world.client.user('viewer')).email);
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
      const res = await world.client.withCookie(viewer, 'GET', path);
      expect(res.status, path).toBe(200);
      expect(leaks(res.text), path).toEqual([]);
    }
    const detail = await world.client.withCookie(viewer, 'GET', `/checkouts/${checkout.id}`);
    expect(detail.body.payer).toEqual({ cpf: '***.982.247-**', name: 'Maria Silva' });
    const record = await world.client.withCookie(viewer, 'GET', `/checkouts/${checkout.id}/provider`);
    expect(record.body.record.transaction.payer).toMatchObject({ name: 'Maria Silva', taxNumber: '***.982.247-**' });
    expect(record.body.record.payment.payer.cpf).toBe('***.982.247-**');
    const listed = await world.client.withCookie(viewer, 'GET', `/transactions?orderId=${checkout.orderId}&date=${day}`);
    expect(JSON.stringify(listed.body)).toContain('***.982.247-**');
    expect((await world.client.withCookie(viewer, 'POST', `/checkouts/${checkout.id}/payer`)).status).toBe(403);
  });

  it("gives a viewer's API key the same masked payer, a 403 on the reveal and on a refund", async () => {
    const made = await world.client.withToken('POST', '/api-keys', { name: `viewer-${checkout.id}`, role: 'viewer' });
    expect(made.status, made.text).toBe(201);
    const asKey = (method: string, path: string, body?: unknown) =>
      world.server.json(method, `/api/admin${path}`, body, { authorization: `Bearer ${(made.body as { key: string }).key}` });
    for (const path of [
      '/checkouts?limit=10',
      `/checkouts/${checkout.id}`,
      `/checkouts/${checkout.id}/provider`,
      '/checkouts/export.csv',
    ]) {
      const res = await asKey('GET', path);
      expect(res.status, path).toBe(200);
      expect(leaks(res.text), path).toEqual([]);
    }
    expect((await asKey('GET', `/checkouts/${checkout.id}`)).body.payer).toEqual({ cpf: '***.982.247-**', name: 'Maria Silva' });
    expect((await asKey('POST', `/checkouts/${checkout.id}/payer`)).status).toBe(403);
    const refund = await asKey('POST', `/checkouts/${checkout.id}/refunds`, { amount: '1.00' });
    expect([refund.status, refund.body.error?.code]).toEqual([403, 'admin_forbidden']);
  });

  it('reveals the payer in full to an operator, and the trail has the reveal without the CPF', async () => {
    const operator = await world.client.user('operator');
    const cookie = await world.client.session(operator.email);
    const res = await world.client.withCookie(cookie, 'POST', `/checkouts/${checkout.id}/payer`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      checkoutId: checkout.id,
      requested: { cpf: '529.982.247-25', name: 'Maria Silva' },
      paid: { name: 'Maria Silva', taxNumber: CPF },
    });
    const [entry] = await world.server.store.listAudit({ limit: 1, action: 'payer.reveal' });
    expect(entry).toMatchObject({ action: 'payer.reveal', target: checkout.id, actor: operator.email, outcome: 'ok' });
    expect(leaks(JSON.stringify(entry))).toEqual([]);
    expect(
      (await world.server.json('POST', `/api/admin/checkouts/co_nope/payer`, undefined, { authorization: `Bearer ${ADMIN_TOKEN}` })).status,
    ).toBe(404);
  });
});
