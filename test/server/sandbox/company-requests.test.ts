import { afterEach, describe, expect, it } from 'vitest';
import type { ManualClock } from '../../../server/lib/clock';
import { paymentRequest, paymentRequestDetail, paymentRequestPage } from '../../../server/provider/schemas';
import type { Sandbox } from '../../../server/sandbox';
import { admin, approve, companySandbox, createRequest, listRequests, paymentBody, SEED } from './company-helpers';
import type { Api } from './helpers';

let sandbox: Sandbox;
let api: Api;
let clock: ManualClock;
afterEach(() => sandbox?.close());

async function start() {
  ({ sandbox, api, clock } = await companySandbox());
}

const create = (extra: object = {}) => api('POST', '/accounts/transaction-requests', paymentBody(extra));
const detail = (id: string) => api('GET', `/accounts/transaction-requests/${id}`);
const cancel = (id: string) => api('PUT', `/accounts/transaction-requests/cancel/${id}`);
const idsOf = (reply: { body: any }) => reply.body.data.items.map((r: { id: string }) => r.id);

describe('POST /accounts/transaction-requests', () => {
  it('creates a Pending request paying the account CNPJ key, with a Partner approval step', async () => {
    await start();
    const reply = await create();
    expect(reply.status).toBe(201);
    const data = paymentRequest.parse(reply.body.data);
    expect(reply.body.data).toEqual({
      id: data.id,
      amount: '150.000000',
      status: 'Pending',
      pixKey: SEED.cnpj,
      pixKeyType: 'CNPJ',
      description: 'NF 123 - material de escritório',
      refReceiver: SEED.approved,
      refBankAccount: SEED.account,
      refTransaction: null,
      referencesInfo: { receiverName: 'Papelaria Central', customerName: 'Loja Sandbox' },
    });
    const { flows } = paymentRequestDetail.parse((await detail(data.id)).body.data);
    expect(flows).toEqual([
      {
        id: expect.any(String),
        date: '2026-01-15T12:00:00.000Z',
        userFullName: 'Loja Sandbox (sandbox-access-key)',
        userRealm: 'Partner',
        status: 'Pending',
        comment: null,
      },
    ]);
  });

  it('refuses missing fields and amounts that are not positive with whole cents', async () => {
    await start();
    const missing = await api('POST', '/accounts/transaction-requests', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.map((d: { info: { missingProperty: string } }) => d.info.missingProperty)).toEqual([
      'amount',
      'description',
      'refReceiver',
      'refBankAccount',
    ]);
    expect((await create({ amount: '0' })).body.error.details[0]).toMatchObject({ path: '/amount', code: 'minimum' });
    expect((await create({ amount: '0.00' })).status).toBe(400);
    expect((await create({ amount: '-5' })).body.error.details[0]).toMatchObject({ path: '/amount', code: 'pattern' });
    expect((await create({ amount: '1.005' })).body.error.details[0]).toMatchObject({ path: '/amount', code: 'format' });
    expect((await create({ amount: 10 })).body.error.details[0]).toMatchObject({ path: '/amount', code: 'type' });
  });

  it.each([
    ['an unknown receiver', { refReceiver: 'nope' }, 'ReceiverNotFound'],
    ['a pending receiver', { refReceiver: SEED.pending, refBankAccount: SEED.accountOfPending }, 'ReceiverNotApproved'],
    ['a rejected receiver', { refReceiver: SEED.rejected }, 'ReceiverNotApproved'],
    ['an unknown account', { refBankAccount: 'nope' }, 'BankAccountNotFound'],
    ["another receiver's account", { refBankAccount: SEED.accountOfApprovedToo }, 'BankAccountNotOfReceiver'],
  ])('refuses %s with 409', async (_name, extra, reason) => {
    await start();
    const reply = await create(extra);
    expect(reply.status).toBe(409);
    expect(reply.body.error).toMatchObject({ name: 'OperationError', details: { reason } });
    expect((await listRequests(api, 'Pending')).body.data.total).toBe(0);
  });
});

describe('PUT /accounts/transaction-requests/cancel/:trId', () => {
  it('cancels a Pending request: only statusCode, then listed as Denied with a Cancelled step', async () => {
    await start();
    const id = await createRequest(api);
    const reply = await cancel(id);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ statusCode: 'Done' });
    const { entity, flows } = (await detail(id)).body.data;
    expect(entity.status).toBe('Rejected');
    expect(flows.map((f: { status: string }) => f.status)).toEqual(['Pending', 'Cancelled']);
    expect(idsOf(await listRequests(api, 'Denied'))).toEqual([id]);
    expect((await cancel(id)).status).toBe(200);
  });

  it('refuses once the request is approved and executed; 404 when unknown', async () => {
    await start();
    const approved = await createRequest(api);
    await approve(sandbox, approved);
    const refused = await cancel(approved);
    expect(refused.status).toBe(409);
    expect(refused.body.error.details).toEqual({ reason: 'PaymentRequestStateInvalid', status: 'Approved' });
    expect((await cancel('nope')).status).toBe(404);
  });

  it('cancels a request the reviewer rejected, as the contract allows until approved and executed', async () => {
    await start();
    const rejected = await createRequest(api);
    await admin(sandbox, 'POST', `/transaction-requests/${rejected}/reject`, { comment: 'sem nota' });
    const reply = await cancel(rejected);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ statusCode: 'Done' });
    const detail = await api('GET', `/accounts/transaction-requests/${rejected}`);
    expect(detail.body.data.entity.status).toBe('Rejected');
    expect(detail.body.data.flows.map((f: { status: string }) => f.status)).toEqual(['Pending', 'Rejected', 'Cancelled']);
    expect((await cancel(rejected)).status).toBe(200);
  });
});

describe('GET /accounts/transaction-requests', () => {
  it('lists by status (Denied for Rejected) with execution fields, paged', async () => {
    await start();
    const pending = [await createRequest(api), await createRequest(api), await createRequest(api)];
    const approved = await createRequest(api);
    await approve(sandbox, approved);
    const rejected = await createRequest(api);
    await admin(sandbox, 'POST', `/transaction-requests/${rejected}/reject`);

    const page = await listRequests(api, 'Pending');
    expect(paymentRequestPage.parse(page.body.data)).toMatchObject({ limit: 20, offset: 0, total: 3 });
    expect(idsOf(page)).toEqual(pending);
    expect(page.body.data.items[0]).toMatchObject({
      executionState: null,
      executionCreatedDate: null,
      executionRegisteredDate: null,
      executionCompletedDate: null,
    });
    expect(idsOf(await listRequests(api, 'Pending', { 'dataset.limit': '5', 'dataset.offset': '2' }))).toEqual([pending[2]]);
    const done = await listRequests(api, 'Approved');
    expect(done.body.data.items[0]).toMatchObject({
      id: approved,
      status: 'Approved',
      executionState: 'Created',
      executionRegisteredDate: null,
      executionCompletedDate: null,
    });
    expect(idsOf(await listRequests(api, 'Denied'))).toEqual([rejected]);
  });

  it('filters on the creation date, inclusive', async () => {
    await start();
    const early = await createRequest(api);
    clock.advance(30 * 60_000);
    const late = await createRequest(api);
    const range = (startDate: string, endDate: string) => listRequests(api, 'Pending', { startDate, endDate });
    expect(idsOf(await range('2026-01-15T12:00:00.000Z', '2026-01-15T12:29:59.999Z'))).toEqual([early]);
    expect(idsOf(await range('2026-01-15T12:30:00.000Z', '2026-01-15T13:00:00.000Z'))).toEqual([late]);
    expect(idsOf(await range('2026-01-14T00:00:00.000Z', '2026-01-16T00:00:00.000Z'))).toEqual([early, late]);
  });

  it('requires every parameter and checks them', async () => {
    await start();
    const missing = await api('GET', '/accounts/transaction-requests');
    expect(missing.status).toBe(400);
    expect(
      missing.body.error.details.map((d: { code: string; info: { missingProperty: string } }) => [d.code, d.info.missingProperty]),
    ).toEqual([
      ['required', 'dataset.limit'],
      ['required', 'dataset.offset'],
      ['required', 'status'],
      ['required', 'startDate'],
      ['required', 'endDate'],
    ]);
    expect((await listRequests(api, 'Pending', { 'dataset.limit': '15' })).body.error.details[0]).toMatchObject({
      code: 'enum',
      info: { allowedValues: [5, 10, 20] },
    });
    expect((await listRequests(api, 'Cancelled')).body.error.details[0]).toMatchObject({ path: '/status', code: 'enum' });
    expect((await listRequests(api, 'Pending', { startDate: 'yesterday' })).body.error.details[0]).toMatchObject({
      path: '/startDate',
      code: 'format',
    });
    expect(
      (await listRequests(api, 'Pending', { startDate: '2026-02-01T00:00:00.000Z', endDate: '2026-01-01T00:00:00.000Z' })).status,
    ).toBe(400);
  });
});

describe('GET /accounts/transaction-requests/:trId', () => {
  it('answers entity and flows; 404 when unknown', async () => {
    await start();
    const id = await createRequest(api);
    const reply = await detail(id);
    expect(reply.status).toBe(200);
    expect(paymentRequestDetail.parse(reply.body.data).entity).toMatchObject({ id, status: 'Pending', executionState: null });
    expect((await detail('nope')).status).toBe(404);
  });
});

describe('reviewer decisions (admin routes)', () => {
  it('rejects a Pending request with a comment; a decided request cannot be decided again', async () => {
    await start();
    const id = await createRequest(api);
    const rejected = await admin(sandbox, 'POST', `/transaction-requests/${id}/reject`, {
      comment: 'Nota fiscal ausente',
      userFullName: 'Ana Revisora',
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data.entity).toMatchObject({ status: 'Rejected', refTransaction: null, executionState: null });
    expect(rejected.body.data.flows.at(-1)).toMatchObject({
      status: 'Rejected',
      userRealm: 'Admin',
      userFullName: 'Ana Revisora',
      comment: 'Nota fiscal ausente',
    });
    const again = await approve(sandbox, id);
    expect(again.status).toBe(409);
    expect(again.body.error.details.reason).toBe('PaymentRequestStateInvalid');
    expect((await approve(sandbox, 'nope')).status).toBe(404);
  });

  it('refuses to approve once the receiver is no longer approved', async () => {
    await start();
    const id = await createRequest(api);
    await admin(sandbox, 'POST', `/receivers/${SEED.approved}/reject`, { reviewNote: 'CNPJ inativo' });
    const reply = await approve(sandbox, id);
    expect(reply.status).toBe(409);
    expect(reply.body.error.details.reason).toBe('ReceiverNotApproved');
    expect((await detail(id)).body.data.entity.status).toBe('Pending');
  });
});
