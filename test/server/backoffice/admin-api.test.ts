import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY_HEADER } from '../../../server/sandbox/company/routes/admin';
import { startTestServer, type TestServer } from '../helpers/server';

const TOKEN = 'admin-token-for-tests-0123456789';
let server: TestServer;
beforeAll(async () => {
  // No approval in the way (the refused cash-out is R$ 999,999.00): approvals are approvals.test.ts's.
  server = await startTestServer({ env: { ADMIN_TOKEN: TOKEN, APPROVAL_ABOVE: '1000000.00' } });
});
afterAll(() => server.close());

const admin = (method: string, path: string, body?: unknown) =>
  server.json(method, `/api/admin${path}`, body, {
    authorization: `Bearer ${TOKEN}`,
    // Cash-outs need one (admin-backoffice.test.ts tests it); a new key per call here.
    ...(path === '/cashouts' && method === 'POST' ? { 'idempotency-key': randomUUID() } : {}),
  });

/** A minimal valid PDF. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

async function approvedReceiverWithAccount() {
  const receivers = await admin('GET', '/receivers?status=Approved&limit=5');
  expect(receivers.status).toBe(200);
  const receiver = receivers.body.items[0];
  const accounts = await admin('GET', `/receivers/${receiver.id}/accounts`);
  return { receiver, account: accounts.body.items[0] };
}

describe('/api/admin', () => {
  it('refuses a missing, wrong or cookie-borne token with 401', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer nope' },
      { authorization: TOKEN },
      { cookie: `token=${TOKEN}` },
    ];
    for (const headers of attempts) {
      const res = await server.json('GET', '/api/admin/balance', undefined, headers);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('admin_unauthorized');
    }
  });

  it('shows the balance', async () => {
    const res = await admin('GET', '/balance');
    expect(res.status).toBe(200);
    expect(res.body.balance).toMatch(/^\d+\.\d+$/);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it.each([
    ['CPF', '52998224725'],
    ['EMAIL', 'joao@example.com'],
    ['PHONE', '+5511987654321'],
    ['EVP', '123e4567-e89b-42d3-a456-426614174000'],
  ])('makes a PIX cash-out to a %s key', async (type, value) => {
    const res = await admin('POST', '/cashouts', {
      recipient: { name: 'João', cpf: '529.982.247-25' },
      key: { type, value },
      amount: '10.00',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ state: 'Created', transactionId: expect.any(String), key: { type } });
  });

  it('passes provider refusals through with their reason, and validates input itself', async () => {
    const badKey = await admin('POST', '/cashouts', {
      recipient: { name: 'J', cpf: '52998224725' },
      key: { type: 'EMAIL', value: 'not-an-email' },
      amount: '1.00',
    });
    expect(badKey.status).toBe(400);
    const tooMuch = await admin('POST', '/cashouts', {
      recipient: { name: 'J', cpf: '52998224725' },
      key: { type: 'CPF', value: '52998224725' },
      amount: '999999.00',
    });
    expect(tooMuch).toMatchObject({ status: 409, body: { error: { code: 'InsufficientBalance' } } });
    const floaty = await admin('POST', '/cashouts', {
      recipient: { name: 'J', cpf: '52998224725' },
      key: { type: 'CPF', value: '52998224725' },
      amount: '1.005',
    });
    expect(floaty).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } });
  });

  it('lists receivers and accounts, and creates, lists, details and cancels a payment request', async () => {
    const { receiver, account } = await approvedReceiverWithAccount();
    expect(receiver.receiverStatus).toBe('Approved');
    const created = await admin('POST', '/payment-requests', {
      amount: '150.00',
      description: 'Nota 42',
      receiverId: receiver.id,
      accountId: account.id,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'Pending', refReceiver: receiver.id, refBankAccount: account.id });

    const now = Date.now();
    const list = await admin(
      'GET',
      `/payment-requests?status=Pending&startDate=${new Date(now - 86_400_000).toISOString()}&endDate=${new Date(now + 86_400_000).toISOString()}`,
    );
    expect(list.status).toBe(200);
    expect(list.body.items.some((r: { id: string }) => r.id === created.body.id)).toBe(true);

    const detail = await admin('GET', `/payment-requests/${created.body.id}`);
    expect(detail.body.entity.id).toBe(created.body.id);
    expect(detail.body.flows[0]).toMatchObject({ userRealm: 'Partner' });

    expect((await admin('POST', `/payment-requests/${created.body.id}/cancel`)).status).toBe(200);
  });

  it('streams an invoice to the provider and lists and deletes it', async () => {
    const { receiver, account } = await approvedReceiverWithAccount();
    const request = (
      await admin('POST', '/payment-requests', { amount: '20.00', description: 'Nota 43', receiverId: receiver.id, accountId: account.id })
    ).body;
    const upload = await fetch(`${server.url}/api/admin/payment-requests/${request.id}/invoice`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/pdf',
        'x-file-name': encodeURIComponent('nota fiscal 43.pdf'),
      },
      body: new Blob([new Uint8Array(PDF)]),
    });
    expect(upload.status).toBe(201);
    const documents = await admin('GET', `/payment-requests/${request.id}/documents`);
    expect(documents.body.total).toBe(1);
    expect(documents.body.items[0]).toMatchObject({ fileName: 'nota fiscal 43.pdf', size: PDF.length });
    expect((await admin('DELETE', `/documents/${documents.body.items[0].id}`)).status).toBe(200);
    expect((await admin('GET', `/payment-requests/${request.id}/documents`)).body.total).toBe(0);
  });

  it('refuses an invoice that is not a PDF, too large, or without a length', async () => {
    const put = (headers: Record<string, string>, body: string) =>
      fetch(`${server.url}/api/admin/payment-requests/x/invoice`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${TOKEN}`, ...headers },
        body,
      });
    expect((await put({ 'content-type': 'text/plain' }, 'hello')).status).toBe(415);
    // Announce 11 MiB without sending it: the BFF must refuse on the header, before reading or forwarding a byte.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${server.url}/api/admin/payment-requests/x/invoice`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/pdf', 'content-length': String(11 * 1024 * 1024) },
      });
      req.on('response', (res) => {
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(status).toBe(413);
  });
});

describe('payment request execution', () => {
  it('executes an approved request as a Debit transaction and refuses to cancel it afterwards', async () => {
    const { receiver, account } = await approvedReceiverWithAccount();
    const request = (
      await admin('POST', '/payment-requests', { amount: '33.10', description: 'Nota 44', receiverId: receiver.id, accountId: account.id })
    ).body;
    // Approval is a portal operation: the emulator's admin route stands in for the reviewer.
    const approved = await server.json(
      'POST',
      `/sandbox/admin/transaction-requests/${request.id}/approve`,
      {},
      {
        [ADMIN_KEY_HEADER]: server.sandbox!.adminKey,
      },
    );
    expect(approved.status).toBe(200);

    await expect
      .poll(async () => (await admin('GET', `/payment-requests/${request.id}`)).body.entity.executionState, {
        timeout: 15_000,
        interval: 200,
      })
      .toBe('Completed');
    const { entity } = (await admin('GET', `/payment-requests/${request.id}`)).body;
    expect(entity).toMatchObject({ status: 'Approved', executionCompletedDate: expect.any(String) });
    const record = await server.provider.transactions.retrieve(entity.refTransaction);
    expect(record.transaction).toMatchObject({
      type: 'Debit',
      category: 'PartnerRecipientPayments',
      state: 'Completed',
      amount: '33.100000',
    });

    const cancel = await admin('POST', `/payment-requests/${request.id}/cancel`);
    expect(cancel.status).toBe(409);
  });
});
