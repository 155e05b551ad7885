/**
 * Payment requests (the merchant paying a company) as movements, on the demo process (emulator + BFF) with
 * APPROVAL_ABOVE at R$ 50.00: each is asked of the provider once per Idempotency-Key; one above the threshold is kept
 * `PendingApproval` (202) with nothing at the provider until an owner other than its maker approves it (the bearer
 * token never does), and rejected it never reaches the provider; a refusal of the provider's at the approval leaves
 * it waiting again; an answer lost on the way is found at the provider, not asked twice, on a retry of the key or by
 * the reconciler with nobody asking; and every action (create,
 * decide, cancel, invoice upload and deletion) is in the audit trail, refused and failed ones included.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyPaymentFingerprint } from '../../../server/payments/company-payments';
import { ADMIN_KEY_HEADER } from '../../../server/sandbox/company/routes/admin';
import { newKey, startMovementServer, type AuditLine } from './movements';

const TOKEN = 'admin-token-for-payment-requests-0123';
const PDF = Buffer.from('%PDF-1.4\n%%EOF\n');
let t: Awaited<ReturnType<typeof startMovementServer>>;
let ana: Awaited<ReturnType<typeof t.signedIn>>;
let bia: Awaited<ReturnType<typeof t.signedIn>>;
let operator: Awaited<ReturnType<typeof t.signedIn>>;
beforeAll(async () => {
  t = await startMovementServer(TOKEN, { APPROVAL_ABOVE: '50.00' });
  ana = await t.signedIn('ana@shop.example');
  bia = await t.signedIn('bia@shop.example');
  operator = await t.signedIn('op@shop.example', 'operator');
});
afterAll(() => t?.server.close());

/** The emulator's admin routes (the provider's portal), with its key. */
const portal = (method: string, path: string, body: unknown = {}) =>
  t.server.json(method, `/sandbox/admin${path}`, body, { [ADMIN_KEY_HEADER]: t.server.sandbox!.adminKey });

/** A receiver registered and approved at the portal, with one account: `{ receiverId, accountId }`. */
async function payee(name = `Fornecedora ${randomUUID().slice(0, 8)}`) {
  const receiver = (await portal('POST', '/receivers', { companyFantasyName: name, companyCNPJ: '11222333000181' })).body.data;
  const account = (
    await portal('POST', `/receivers/${receiver.id}/accounts`, {
      bankCode: '341',
      bankName: 'Banco Itaú',
      accountAgency: '0001',
      accountNumber: '12345-6',
    })
  ).body.data;
  expect((await portal('POST', `/receivers/${receiver.id}/approve`)).status).toBe(200);
  return { receiverId: receiver.id as string, accountId: account.id as string, name };
}

/** The provider's requests (any status) with this description. */
async function atProvider(description: string) {
  const day = 86_400_000;
  const now = t.clock.now().getTime();
  const found: { id: string; status: string; amount: string }[] = [];
  for (const status of ['Pending', 'Approved', 'Denied']) {
    const q = `status=${status}&limit=20&offset=0&startDate=${new Date(now - day).toISOString()}&endDate=${new Date(now + day).toISOString()}`;
    const page = await t.admin('GET', `/payment-requests?${q}`);
    expect(page.status).toBe(200);
    found.push(...page.body.items.filter((r: { description: string }) => r.description === description));
  }
  return found;
}

const trail = async (action: string, target: string) => (await t.auditOf(action)).filter((l: AuditLine) => l.target === target);
const body = (p: { receiverId: string; accountId: string }, amount: string, description = `Nota ${randomUUID().slice(0, 8)}`) => ({
  amount,
  description,
  receiverId: p.receiverId,
  accountId: p.accountId,
});

let shared: Awaited<ReturnType<typeof payee>>;
beforeAll(async () => {
  shared = await payee();
});

describe('a payment request at or below the threshold', () => {
  it('is asked of the provider once per key (201, then 200 with the same request), and audited', async () => {
    const key = newKey();
    const request = body(shared, '50.00');
    const made = await operator('POST', '/payment-requests', request, key);
    expect(made).toMatchObject({ status: 201, body: { status: 'Pending', amount: expect.stringMatching(/^50\.00/) } });
    expect(made.body).toMatchObject({ idempotencyKey: key['idempotency-key'], refReceiver: shared.receiverId });
    const again = await operator('POST', '/payment-requests', request, key);
    expect(again).toMatchObject({ status: 200, body: { id: made.body.id } });
    expect((await atProvider(request.description)).map((r) => r.id)).toEqual([made.body.id]);
    expect(await operator('POST', '/payment-requests', { ...request, amount: '49.00' }, key)).toMatchObject({
      status: 422,
      body: { error: { code: 'idempotency_key_reused' } },
    });
    const lines = await trail('payment_request.create', key['idempotency-key']);
    expect(lines.map((l) => [l.actor, l.outcome, l.details?.repeated ?? l.details?.code])).toEqual([
      ['op@shop.example', 'refused', 'idempotency_key_reused'],
      ['op@shop.example', 'ok', true],
      ['op@shop.example', 'ok', false],
    ]);
    expect(lines[2]!.details).toMatchObject({ amount: '50.00', requestId: made.body.id, receiverId: shared.receiverId });
  });

  it('still takes a request without Idempotency-Key (a key is chosen), and refuses a malformed key', async () => {
    const made = await t.admin('POST', '/payment-requests', body(shared, '10.00'));
    expect(made).toMatchObject({ status: 201, body: { idempotencyKey: expect.any(String) } });
    expect((await trail('payment_request.create', made.body.idempotencyKey))[0]).toMatchObject({ actor: 'api-token', outcome: 'ok' });
    expect(await t.admin('POST', '/payment-requests', body(shared, '10.00'), { 'idempotency-key': 'bad key!' })).toMatchObject({
      status: 400,
      body: { error: { code: 'idempotency_key_invalid' } },
    });
  });

  it('is refused by the provider for an unknown receiver, and the refusal is in the trail', async () => {
    const key = newKey();
    const refused = await t.admin('POST', '/payment-requests', { ...body(shared, '10.00'), receiverId: 'no-such-receiver' }, key);
    expect(refused.status).toBe(409);
    expect(await trail('payment_request.create', key['idempotency-key'])).toMatchObject([
      { outcome: 'refused', details: { code: refused.body.error.code } },
    ]);
    // Nothing kept: the key is free again.
    expect(await t.server.store.getCompanyPayment(key['idempotency-key'])).toBeUndefined();
  });
});

describe('a payment request above the threshold', () => {
  it("waits for another owner with nothing at the provider: an operator's R$ 999.999,00, approved by an owner", async () => {
    const key = newKey();
    const request = body(shared, '999999.00');
    const kept = await operator('POST', '/payment-requests', request, key);
    expect(kept).toMatchObject({
      status: 202,
      body: {
        kind: 'payment_request',
        state: 'PendingApproval',
        amount: '999999.00',
        requestId: null,
        requestedBy: 'op@shop.example',
        receiver: { id: shared.receiverId, name: shared.name, cnpj: '11222333000181' },
        account: { id: shared.accountId, bankName: 'Banco Itaú', agency: '0001', number: '12345-6' },
      },
    });
    expect(await atProvider(request.description)).toEqual([]);
    expect(await operator('POST', '/payment-requests', request, key)).toMatchObject({ status: 200, body: { state: 'PendingApproval' } });
    const listed = (await ana('GET', '/approvals')).body.data.find(
      (a: { idempotencyKey: string }) => a.idempotencyKey === kept.body.idempotencyKey,
    );
    expect(listed).toMatchObject({ kind: 'payment_request', amount: '999999.00', requestedBy: 'op@shop.example' });
    expect(await operator('POST', `/approvals/payment-requests/${kept.body.idempotencyKey}/approve`)).toMatchObject({
      status: 403,
      body: { error: { code: 'admin_forbidden' } },
    });

    const approved = await ana('POST', `/approvals/payment-requests/${kept.body.idempotencyKey}/approve`);
    expect(approved).toMatchObject({
      status: 200,
      body: { kind: 'payment_request', state: 'Requested', requestId: expect.any(String), decidedBy: 'ana@shop.example' },
    });
    expect(await atProvider(request.description)).toMatchObject([{ id: approved.body.requestId, status: 'Pending' }]);
    // The same key now answers the provider's request.
    expect(await operator('POST', '/payment-requests', request, key)).toMatchObject({ status: 200, body: { id: approved.body.requestId } });
    expect(await bia('POST', `/approvals/payment-requests/${kept.body.idempotencyKey}/reject`)).toMatchObject({
      status: 409,
      body: { error: { code: 'approval_not_pending', details: { state: 'Requested' } } },
    });

    expect((await trail('payment_request.create', key['idempotency-key'])).map((l) => [l.actor, l.outcome]).reverse()).toEqual([
      ['op@shop.example', 'pending_approval'],
      ['op@shop.example', 'pending_approval'],
      ['op@shop.example', 'ok'],
    ]);
    expect((await trail('approval.approve', key['idempotency-key'])).map((l) => [l.actor, l.outcome, l.details?.kind])).toEqual([
      ['ana@shop.example', 'ok', 'payment_request'],
    ]);
    expect((await trail('approval.approve', key['idempotency-key']))[0]!.details).toMatchObject({
      amount: '999999.00',
      requestId: approved.body.requestId,
    });
  });

  it('is decided neither by its maker nor by the admin token; rejected, it never reaches the provider', async () => {
    const request = body(shared, '40000.00');
    const kept = (await ana('POST', '/payment-requests', request, newKey())).body;
    expect(kept.state).toBe('PendingApproval');
    const approve = `/approvals/payment-requests/${kept.idempotencyKey}/approve`;
    expect(await ana('POST', approve)).toMatchObject({ status: 403, body: { error: { code: 'approval_by_maker' } } });
    expect(await t.admin('POST', approve)).toMatchObject({ status: 403, body: { error: { code: 'approval_by_token' } } });
    expect(await atProvider(request.description)).toEqual([]);
    expect(await bia('POST', `/approvals/payment-requests/${kept.idempotencyKey}/reject`)).toMatchObject({
      status: 200,
      body: { state: 'Rejected', requestId: null, decidedBy: 'bia@shop.example' },
    });
    expect(await bia('POST', approve)).toMatchObject({ status: 409, body: { error: { code: 'approval_not_pending' } } });
    expect(await atProvider(request.description)).toEqual([]);
    const decided = (await bia('GET', '/approvals?state=decided')).body.data;
    expect(decided.find((a: { idempotencyKey: string }) => a.idempotencyKey === kept.idempotencyKey)).toMatchObject({
      kind: 'payment_request',
      state: 'Rejected',
    });
    expect((await trail('approval.approve', kept.idempotencyKey)).map((l) => [l.actor, l.outcome, l.details?.code])).toEqual([
      ['bia@shop.example', 'refused', 'approval_not_pending'],
      ['api-token', 'refused', 'approval_by_token'],
      ['ana@shop.example', 'refused', 'approval_by_maker'],
    ]);
    expect(await trail('approval.reject', kept.idempotencyKey)).toMatchObject([{ actor: 'bia@shop.example', outcome: 'ok' }]);
  });

  it('is refused at once for a receiver that is not approved (409 receiver_not_payable), and audited', async () => {
    const pending = (await portal('POST', '/receivers', { companyFantasyName: 'Pendente', companyCNPJ: '11222333000181' })).body.data;
    const key = newKey();
    const refused = await ana('POST', '/payment-requests', { ...body(shared, '60.00'), receiverId: pending.id }, key);
    expect(refused).toMatchObject({
      status: 409,
      body: { error: { code: 'receiver_not_payable', details: { receiverStatus: 'Pending' } } },
    });
    const foreignAccount = await ana('POST', '/payment-requests', { ...body(shared, '60.00'), accountId: 'not-its-account' }, newKey());
    expect(foreignAccount).toMatchObject({ status: 409, body: { error: { code: 'receiver_not_payable' } } });
    expect(await trail('payment_request.create', key['idempotency-key'])).toMatchObject([
      { outcome: 'refused', details: { code: 'receiver_not_payable' } },
    ]);
  });

  it('waits for a decision again when the provider refuses it at the approval (the receiver was rejected meanwhile)', async () => {
    const own = await payee();
    const kept = (await ana('POST', '/payment-requests', body(own, '70.00'), newKey())).body;
    expect((await portal('POST', `/receivers/${own.receiverId}/reject`)).status).toBe(200);
    const refused = await bia('POST', `/approvals/payment-requests/${kept.idempotencyKey}/approve`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('ReceiverNotApproved');
    expect(await t.server.store.getCompanyPayment(kept.idempotencyKey)).toMatchObject({ state: 'PendingApproval', decidedBy: null });
    expect(await trail('approval.approve', kept.idempotencyKey)).toMatchObject([
      { actor: 'bia@shop.example', outcome: 'refused', details: { code: 'ReceiverNotApproved' } },
    ]);
    expect((await portal('POST', `/receivers/${own.receiverId}/approve`)).status).toBe(200);
    expect(await bia('POST', `/approvals/payment-requests/${kept.idempotencyKey}/approve`)).toMatchObject({
      status: 200,
      body: { state: 'Requested' },
    });
  });
});

describe('a payment request whose answer was lost', () => {
  /** A key left `Sending` as a crash leaves it, and (when `made`) the request the provider made for it. */
  async function lost(made: boolean) {
    const key = randomUUID();
    const request = body(shared, '12.34');
    const asked = { amountCents: 1234, description: request.description, receiverId: shared.receiverId, accountId: shared.accountId };
    const reserved = await t.server.store.reserveCompanyPayment({
      idempotencyKey: key,
      fingerprint: companyPaymentFingerprint({ ...asked, requestedBy: 'ana@shop.example' }),
      ...asked,
      requestedBy: 'ana@shop.example',
      createdAt: t.clock.now().toISOString(),
    });
    expect(reserved.payment.state).toBe('Sending');
    const id = made
      ? (await t.server.provider.paymentRequests.create({ ...request, refReceiver: shared.receiverId, refBankAccount: shared.accountId }))
          .id
      : undefined;
    t.clock.advance(31_000);
    return { key, request, id };
  }

  it('is found at the provider on a retry and adopted, never asked twice', async () => {
    const { key, request, id } = await lost(true);
    const retried = await ana('POST', '/payment-requests', request, { 'idempotency-key': key });
    expect(retried).toMatchObject({ status: 200, body: { id } });
    expect(await atProvider(request.description)).toHaveLength(1);
    expect(await t.server.store.getCompanyPayment(key)).toMatchObject({ state: 'Requested', requestId: id });
  });

  it('is settled by the reconciler with nobody asking again: adopted when the provider made it, once', async () => {
    const { key, request, id } = await lost(true);
    await t.server.checkout.reconciler.runOnce();
    expect(await t.server.store.getCompanyPayment(key)).toMatchObject({ state: 'Requested', requestId: id });
    // A retry of the key afterwards answers the same request; the provider still has one.
    expect(await ana('POST', '/payment-requests', request, { 'idempotency-key': key })).toMatchObject({ status: 200, body: { id } });
    expect(await atProvider(request.description)).toHaveLength(1);
  });

  it('is released by the reconciler when the provider made nothing, so the key asks afresh', async () => {
    const { key, request } = await lost(false);
    await t.server.checkout.reconciler.runOnce();
    expect(await t.server.store.getCompanyPayment(key)).toBeUndefined();
    expect(await atProvider(request.description)).toHaveLength(0);
  });

  it('is asked again when the provider made nothing', async () => {
    const { key, request } = await lost(false);
    const retried = await ana('POST', '/payment-requests', request, { 'idempotency-key': key });
    expect(retried.status).toBe(201);
    expect((await atProvider(request.description)).map((r) => r.id)).toEqual([retried.body.id]);
  });
});

describe('the other actions on a payment request', () => {
  it('audits a cancel (with the amount of one of ours) and a refused one', async () => {
    const made = (await operator('POST', '/payment-requests', body(shared, '20.00'), newKey())).body;
    expect((await operator('POST', `/payment-requests/${made.id}/cancel`)).status).toBe(200);
    expect(await trail('payment_request.cancel', made.id)).toMatchObject([
      { actor: 'op@shop.example', outcome: 'ok', details: { amount: '20.00', idempotencyKey: made.idempotencyKey } },
    ]);
    const unknown = await operator('POST', '/payment-requests/no-such-request/cancel');
    expect(unknown.status).toBe(404);
    expect(await trail('payment_request.cancel', 'no-such-request')).toMatchObject([{ outcome: 'refused' }]);
  });

  it('audits an invoice upload and its deletion, and a refused upload', async () => {
    const made = (await operator('POST', '/payment-requests', body(shared, '21.00'), newKey())).body;
    const { cookie } = await cookieOf('op@shop.example');
    const put = (type: string) =>
      fetch(`${t.server.url}/api/admin/payment-requests/${made.id}/invoice`, {
        method: 'PUT',
        headers: { cookie, origin: t.server.url, 'content-type': type, 'x-file-name': 'nota.pdf' },
        body: PDF,
      });
    expect((await put('application/pdf')).status).toBe(201);
    expect((await put('text/plain')).status).toBe(415);
    expect((await trail('payment_request.invoice_upload', made.id)).map((l) => [l.outcome, l.details?.code ?? null])).toEqual([
      ['refused', 'pdf_required'],
      ['ok', null],
    ]);
    const documents = (await operator('GET', `/payment-requests/${made.id}/documents`)).body.items;
    expect((await operator('DELETE', `/documents/${documents[0].id}`)).status).toBe(200);
    expect(await trail('payment_request.invoice_delete', documents[0].id)).toMatchObject([{ actor: 'op@shop.example', outcome: 'ok' }]);
  });
});

/** The session cookie of a console user signed in again (the invoice is not JSON, so it is sent with fetch). */
async function cookieOf(email: string) {
  const session = await t.server.json('POST', '/api/admin/session', { email, password: 'a long enough password' });
  return { cookie: (session.headers.get('set-cookie') ?? '').split(';')[0]! };
}
