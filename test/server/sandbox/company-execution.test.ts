import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../../server/sandbox';
import { transactionRecord, webhookEvent } from '../../../server/provider/schemas';
import { admin, approve, companySandbox, createRequest, SEED } from './company-helpers';
import { ADMIN_KEY, BASE, client, eventually, startReceiver, tempDir, type Api } from './helpers';

let sandbox: Sandbox;
let api: Api;
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  sandbox?.close();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function receiver() {
  const r = await startReceiver();
  cleanups.push(r.close);
  return r;
}

const record = async (id: string) => transactionRecord.parse((await api('GET', `/accounts/transactions/pix/${id}`)).body.data);
const entity = async (id: string) => (await api('GET', `/accounts/transaction-requests/${id}`)).body.data.entity;

describe('approving a payment request', () => {
  it('executes it: a PartnerRecipientPayments Debit going Created → Registered → Completed, with webhooks', async () => {
    const hooks = await receiver();
    let clock;
    ({ sandbox, api, clock } = await companySandbox({
      companyWebhook: { url: hooks.url, customHeaderName: 'x-company-secret', customHeaderValue: 'pay' },
      companyPaymentDelaysMs: { register: 300, complete: 300 },
    }));
    const id = await createRequest(api);

    const approved = await approve(sandbox, id, { comment: 'Nota conferida' });
    clock.advance(1_000);
    expect(approved.status).toBe(200);
    const tx = approved.body.data.entity.refTransaction;
    expect(approved.body.data.entity).toMatchObject({
      status: 'Approved',
      refTransaction: expect.stringMatching(/^[0-9a-f]{24}$/),
      executionState: 'Created',
      executionCreatedDate: '2026-01-15T12:00:00.000Z',
      executionRegisteredDate: null,
      executionCompletedDate: null,
    });
    expect(approved.body.data.flows.map((f: { status: string; userRealm: string }) => [f.status, f.userRealm])).toEqual([
      ['Pending', 'Partner'],
      ['Approved', 'Admin'],
    ]);

    const created = await record(tx);
    expect(created.transaction).toMatchObject({
      type: 'Debit',
      category: 'PartnerRecipientPayments',
      state: 'Created',
      orderId: id,
      amount: '150.000000',
      charges: '1.985000',
      stateRegisteredDate: null,
    });
    expect(created.payment).toMatchObject({ key: SEED.cnpj, keyType: 'CNPJ', receiver: { name: 'Papelaria Central', cnpj: SEED.cnpj } });
    expect(created.webhook).toMatchObject({ url: hooks.url, customHeaderName: 'x-company-secret' });

    await eventually(() => hooks.received.length >= 2);
    expect(await entity(id)).toMatchObject({
      executionState: 'Registered',
      executionRegisteredDate: '2026-01-15T12:00:01.000Z',
      executionCompletedDate: null,
    });
    clock.advance(1_000);
    await eventually(() => hooks.received.length >= 3);

    expect(hooks.received.map((h) => h.body.transactionState)).toEqual(['Created', 'Registered', 'Completed']);
    for (const hook of hooks.received) {
      expect(hook.method).toBe('POST');
      expect(hook.headers['x-company-secret']).toBe('pay');
      expect(webhookEvent.parse(hook.body)).toMatchObject({
        id: tx,
        transactionType: 'Debit',
        transactionAmount: '150.000000',
        transactionOrderId: id,
      });
    }
    expect(hooks.received[2]!.body.recipient).toMatchObject({ name: 'Papelaria Central', taxNumber: SEED.cnpj });
    await eventually(() => sandbox.store.get(tx)!.record.webhook.deliveryStatus === 'Success');

    expect(await entity(id)).toMatchObject({
      status: 'Approved',
      executionState: 'Completed',
      executionCreatedDate: '2026-01-15T12:00:00.000Z',
      executionRegisteredDate: '2026-01-15T12:00:01.000Z',
      executionCompletedDate: '2026-01-15T12:00:02.000Z',
    });
    const done = await record(tx);
    expect(done.transaction).toMatchObject({ state: 'Completed', receiptUrl: expect.stringContaining(tx) });

    const balance = await api('GET', '/accounts/balance');
    expect(balance.body.data).toMatchObject({ balance: '99848.015000', debits: '150.000000', charges: '1.985000' });
    const byOrder = await api(
      'GET',
      `/accounts/transactions/pix?transactionOrderId=${id}&startDate=2026-01-15T00:00:00.000Z&endDate=2026-01-15T23:00:00.000Z&dataset.limit=5&dataset.offset=0`,
    );
    expect(byOrder.body.data.items.map((i: { transaction: { id: string } }) => i.transaction.id)).toEqual([tx]);
  });

  it('refuses a debit larger than the balance, leaving the request Pending', async () => {
    ({ sandbox, api } = await companySandbox({ openingBalance: '100.00' }));
    const id = await createRequest(api, { amount: '99.99' });
    const reply = await approve(sandbox, id);
    expect(reply.status).toBe(409);
    expect(reply.body.error).toMatchObject({ name: 'OperationError', details: { reason: 'InsufficientBalance' } });
    expect(await entity(id)).toMatchObject({ status: 'Pending', refTransaction: null });
    expect((await api('GET', `/accounts/transaction-requests/${id}`)).body.data.flows).toHaveLength(1);
    const affordable = await createRequest(api, { amount: '50.00' });
    expect((await approve(sandbox, affordable)).status).toBe(200);
  });

  it('sends webhooks to the address set through the admin route, which wins over the option', async () => {
    const option = await receiver();
    const routed = await receiver();
    ({ sandbox, api } = await companySandbox({
      companyWebhook: { url: option.url },
      companyPaymentDelaysMs: { register: 20, complete: 20 },
    }));
    expect((await admin(sandbox, 'PUT', '/company-webhook', { url: 'ftp://x' })).status).toBe(400);
    expect((await admin(sandbox, 'PUT', '/company-webhook', { url: routed.url, customHeaderName: 'host' })).status).toBe(400);
    const set = await admin(sandbox, 'PUT', '/company-webhook', { url: routed.url, customHeaderName: 'x-k', customHeaderValue: 'v' });
    expect(set.status).toBe(200);
    expect((await admin(sandbox, 'GET', '/company-webhook')).body.data).toEqual({
      url: routed.url,
      customHeaderName: 'x-k',
      customHeaderValueSet: true,
    });
    await approve(sandbox, await createRequest(api));
    await eventually(() => routed.received.length === 3);
    expect(option.received).toHaveLength(0);
    expect(routed.received[0]!.headers['x-k']).toBe('v');
    expect((await admin(sandbox, 'DELETE', '/company-webhook')).body.data).toEqual({ url: option.url, customHeaderValueSet: false });
  });

  it('without a company webhook still executes; the delivery ends Failed', async () => {
    ({ sandbox, api } = await companySandbox({ companyPaymentDelaysMs: { register: 10, complete: 10 } }));
    const id = await createRequest(api);
    const tx = (await approve(sandbox, id)).body.data.entity.refTransaction;
    await eventually(() => sandbox.store.get(tx)!.record.transaction.state === 'Completed');
    await eventually(() => sandbox.store.get(tx)!.record.webhook.deliveryStatus === 'Failed');
    expect(sandbox.store.get(tx)!.record.webhook.url).toBeNull();
  });

  it('follows a sandbox error simulation of its transaction, which then stays in Error', async () => {
    const hooks = await receiver();
    ({ sandbox, api } = await companySandbox({
      companyWebhook: { url: hooks.url },
      companyPaymentDelaysMs: { register: 10, complete: 200 },
    }));
    const id = await createRequest(api);
    const tx = (await approve(sandbox, id)).body.data.entity.refTransaction;
    await eventually(() => sandbox.store.get(tx)!.record.transaction.state === 'Registered');
    expect((await api('POST', `/sandbox/transactions/error/${tx}`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await entity(id)).toMatchObject({ status: 'Approved', executionState: 'Error', executionCompletedDate: null });
  });

  it('carries on after a restart', async () => {
    const dataDir = tempDir();
    const open = (delay: number) =>
      createSandbox({
        dataDir,
        publicBaseUrl: BASE,
        webhookRetry: { delaysMs: [] },
        companyPaymentDelaysMs: { register: delay, complete: delay },
        adminKey: ADMIN_KEY,
      });
    sandbox = open(3_600_000);
    api = await client(sandbox);
    const id = await createRequest(api);
    const tx = (await approve(sandbox, id)).body.data.entity.refTransaction;
    sandbox.close();
    sandbox = open(10);
    api = await client(sandbox);
    await eventually(() => sandbox.store.get(tx)!.record.transaction.state === 'Completed');
    expect(await entity(id)).toMatchObject({ executionState: 'Completed' });
  });
});
