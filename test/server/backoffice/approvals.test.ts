/**
 * The approval of cash-outs and refunds (maker-checker) through the back office on the demo process (emulator + BFF),
 * APPROVAL_ABOVE at R$ 50.00: a movement above it is kept `PendingApproval` (202) and nothing reaches the provider;
 * its maker cannot decide it (the bearer token included, 403), nor can the bearer token approve what a user asked for
 * (403: it is no second person); another owner approves it (it then reaches the
 * provider under its own order id and completes) or rejects it (`Rejected`, a refund's amount free again); of two
 * decisions at once exactly one wins (409 for the other); a refusal of the provider's at the approval leaves it
 * waiting again; only owners decide; the audit trail tells each step. And APPROVAL_ABOVE=0: every movement waits.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCents, parseCents } from '../../../core/money';
import { newKey, startMovementServer } from './movements';

const TOKEN = 'admin-token-for-approvals-tests-0123';
let t: Awaited<ReturnType<typeof startMovementServer>>;
/** Two owners and an operator, signed in to the console. */
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

const cashOut = (amount: string) => ({
  recipient: { name: 'João Fornecedor', cpf: '529.982.247-25' },
  key: { type: 'EMAIL', value: 'joao@example.com' },
  amount,
});
const pendingKeys = async () => (await t.admin('GET', '/approvals')).body.data.map((a: { idempotencyKey: string }) => a.idempotencyKey);

describe('a cash-out above the threshold', () => {
  it('waits for approval (202) with nothing at the provider; at the threshold it is sent (201)', async () => {
    const key = newKey();
    const made = await t.admin('POST', '/cashouts', cashOut('50.01'), key);
    expect(made.status).toBe(202);
    expect(made.body).toMatchObject({
      state: 'PendingApproval',
      transactionId: null,
      amount: '50.01',
      requestedBy: 'api-token',
      decidedBy: null,
      decidedAt: null,
      recipient: { name: 'João Fornecedor', cpf: '***.982.247-**' },
    });
    expect(await t.atProvider(made.body.orderId)).toEqual([]);
    // The same key answers it again, still waiting; another request under it is refused.
    expect(await t.admin('POST', '/cashouts', cashOut('50.01'), key)).toMatchObject({ status: 200, body: { state: 'PendingApproval' } });
    expect((await t.admin('POST', '/cashouts', cashOut('50.02'), key)).status).toBe(422);
    expect(await pendingKeys()).toContain(made.body.idempotencyKey);
    const listed = (await t.admin('GET', '/approvals?state=pending')).body.data.find(
      (a: { idempotencyKey: string }) => a.idempotencyKey === made.body.idempotencyKey,
    );
    expect(listed).toMatchObject({
      kind: 'cashout',
      amount: '50.01',
      requestedBy: 'api-token',
      checkout: null,
      recipient: { cpf: '***.982.247-**' },
    });

    const at = await t.admin('POST', '/cashouts', cashOut('50.00'), newKey());
    expect(at).toMatchObject({ status: 201, body: { state: 'Created', transactionId: expect.any(String), requestedBy: 'api-token' } });
  });

  it('cannot be decided by its maker, the bearer token included (403), nor by an operator', async () => {
    const byToken = await t.admin('POST', '/cashouts', cashOut('60.00'), newKey());
    const key = byToken.body.idempotencyKey as string;
    expect(await t.admin('POST', `/approvals/${key}/approve`)).toMatchObject({
      status: 403,
      body: { error: { code: 'approval_by_maker' } },
    });
    expect(await t.admin('POST', `/approvals/${key}/reject`)).toMatchObject({
      status: 403,
      body: { error: { code: 'approval_by_maker' } },
    });
    expect(await operator('POST', `/approvals/${key}/approve`)).toMatchObject({
      status: 403,
      body: { error: { code: 'admin_forbidden' } },
    });

    const byAna = await ana('POST', '/cashouts', cashOut('61.00'), newKey());
    expect(byAna).toMatchObject({ status: 202, body: { requestedBy: 'ana@shop.example' } });
    expect(await ana('POST', `/approvals/${byAna.body.idempotencyKey}/approve`)).toMatchObject({
      status: 403,
      body: { error: { code: 'approval_by_maker' } },
    });
    expect(await t.atProvider(byToken.body.orderId)).toEqual([]);
    expect(await pendingKeys()).toEqual(expect.arrayContaining([key, byAna.body.idempotencyKey]));
  });

  it('is never approved by the admin token, which is no second person (403 approval_by_token); the token may reject it', async () => {
    const byAna = (await ana('POST', '/cashouts', cashOut('62.00'), newKey())).body;
    expect(await t.admin('POST', `/approvals/${byAna.idempotencyKey}/approve`)).toMatchObject({
      status: 403,
      body: { error: { code: 'approval_by_token' } },
    });
    expect(await t.atProvider(byAna.orderId)).toEqual([]);
    expect(await pendingKeys()).toContain(byAna.idempotencyKey);
    const refused = (await t.auditOf('approval.approve')).find((l) => l.target === byAna.idempotencyKey);
    expect(refused).toMatchObject({ actor: 'api-token', outcome: 'refused', details: { code: 'approval_by_token' } });
    expect(await t.admin('POST', `/approvals/${byAna.idempotencyKey}/reject`)).toMatchObject({
      status: 200,
      body: { state: 'Rejected', decidedBy: 'api-token' },
    });
    expect(await t.atProvider(byAna.orderId)).toEqual([]);
  });

  it('reaches the provider once another owner approves it, and completes there', async () => {
    const made = (await ana('POST', '/cashouts', cashOut('75.00'), newKey())).body;
    const approved = await bia('POST', `/approvals/${made.idempotencyKey}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      kind: 'cashout',
      idempotencyKey: made.idempotencyKey,
      orderId: made.orderId,
      state: 'Created',
      transactionId: expect.any(String),
      requestedBy: 'ana@shop.example',
      decidedBy: 'bia@shop.example',
      decidedAt: expect.any(String),
    });
    const atProvider = await t.atProvider(made.orderId);
    expect(atProvider.map((item) => [item.transaction.id, item.transaction.type])).toEqual([[approved.body.transactionId, 'Debit']]);
    await t.completeAtProvider(made.idempotencyKey, approved.body.transactionId);
    // Decided once: approving or rejecting again is 409, and the provider still has the one transaction.
    expect(await bia('POST', `/approvals/${made.idempotencyKey}/approve`)).toMatchObject({
      status: 409,
      body: { error: { code: 'approval_not_pending', details: { state: 'Completed' } } },
    });
    expect((await t.admin('POST', `/approvals/${made.idempotencyKey}/reject`)).status).toBe(409);
    expect(await t.atProvider(made.orderId)).toHaveLength(1);
    const decided = (await t.admin('GET', '/approvals?state=decided')).body.data;
    expect(decided.find((a: { idempotencyKey: string }) => a.idempotencyKey === made.idempotencyKey)).toMatchObject({
      state: 'Completed',
      decidedBy: 'bia@shop.example',
    });
    expect(await pendingKeys()).not.toContain(made.idempotencyKey);
    // The merchant's event tells of it once it completed, like any cash-out.
    const events = (await t.server.store.merchantEventsAfter(0, 10_000)).filter((e) => e.data.idempotencyKey === made.idempotencyKey);
    expect(events.map((e) => e.type)).toEqual(['cashout.completed']);
  });

  it('lets exactly one of two owners deciding at once win', async () => {
    for (const [first, second] of [
      [true, true],
      [true, false],
    ] as const) {
      const made = (await t.admin('POST', '/cashouts', cashOut('55.00'), newKey())).body;
      const answers = await Promise.all([
        ana('POST', `/approvals/${made.idempotencyKey}/${first ? 'approve' : 'reject'}`),
        bia('POST', `/approvals/${made.idempotencyKey}/${second ? 'approve' : 'reject'}`),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      expect(answers.find((a) => a.status === 409)!.body.error.code).toBe('approval_not_pending');
      expect((await t.atProvider(made.orderId)).length).toBeLessThanOrEqual(1);
      const stored = (await t.server.store.getCashOut(made.idempotencyKey))!;
      expect(stored.decidedBy).toBe(answers.find((a) => a.status === 200)!.body.decidedBy);
    }
  });

  it('waits for a decision again when the provider refuses it at the approval', async () => {
    const made = (await t.admin('POST', '/cashouts', cashOut('999999.00'), newKey())).body;
    const refused = await ana('POST', `/approvals/${made.idempotencyKey}/approve`);
    expect(refused).toMatchObject({ status: 409, body: { error: { code: 'InsufficientBalance' } } });
    expect(await t.server.store.getCashOut(made.idempotencyKey)).toMatchObject({
      state: 'PendingApproval',
      decidedBy: null,
      decidedAt: null,
    });
    expect(await t.atProvider(made.orderId)).toEqual([]);
    expect(await bia('POST', `/approvals/${made.idempotencyKey}/reject`)).toMatchObject({
      status: 200,
      body: { state: 'Rejected', decidedBy: 'bia@shop.example', transactionId: null },
    });
  });

  it('is 404 for a key that waits for nothing', async () => {
    const sent = (await t.admin('POST', '/cashouts', cashOut('1.00'), newKey())).body;
    for (const key of [sent.idempotencyKey, randomUUID(), 'bad key!']) {
      const res = await ana('POST', `/approvals/${encodeURIComponent(key)}/approve`);
      expect({ key, status: res.status, code: res.body.error?.code }).toEqual({ key, status: 404, code: 'approval_not_found' });
    }
    expect((await t.admin('GET', '/approvals?state=maybe')).status).toBe(400);
  });
});

describe('a refund above the threshold', () => {
  it('holds its amount while it waits; rejected, it frees it and never reached the provider', async () => {
    const paid = await t.paidCheckout();
    const paidCents = parseCents(paid.amount)!;
    const made = await t.admin('POST', `/checkouts/${paid.id}/refunds`, {}, newKey());
    expect(made).toMatchObject({ status: 202, body: { state: 'PendingApproval', amount: paid.amount, refundOf: paid.id } });
    expect(await t.atProvider(made.body.orderId)).toEqual([]);
    expect((await t.admin('GET', `/checkouts/${paid.id}/refunds`)).body).toMatchObject({ refunded: '0.00', refundable: '0.00' });
    expect(await t.admin('POST', `/checkouts/${paid.id}/refunds`, { amount: '0.01' }, newKey())).toMatchObject({
      status: 409,
      body: { error: { code: 'refund_exceeds_paid', details: { refundable: '0.00' } } },
    });
    const listed = (await t.admin('GET', '/approvals')).body.data.find(
      (a: { idempotencyKey: string }) => a.idempotencyKey === made.body.idempotencyKey,
    );
    expect(listed).toMatchObject({ kind: 'refund', checkout: { id: paid.id, orderId: paid.orderId, amount: paid.amount } });

    const rejected = await ana('POST', `/approvals/${made.body.idempotencyKey}/reject`);
    expect(rejected).toMatchObject({ status: 200, body: { kind: 'refund', state: 'Rejected', decidedBy: 'ana@shop.example' } });
    expect((await t.admin('GET', `/checkouts/${paid.id}/refunds`)).body).toMatchObject({ refundable: paid.amount });
    expect(await t.atProvider(made.body.orderId)).toEqual([]);
    const events = (await t.server.store.merchantEventsAfter(0, 10_000)).filter((e) => e.data.idempotencyKey === made.body.idempotencyKey);
    expect(events).toEqual([]);
    // Below the threshold, a part of it is sent at once.
    const part = await t.admin('POST', `/checkouts/${paid.id}/refunds`, { amount: formatCents(Math.min(5_000, paidCents)) }, newKey());
    expect(part.status).toBe(201);
  });

  it('approved, reaches the payer through the provider with its refund events', async () => {
    const paid = await t.paidCheckout();
    const made = (await ana('POST', `/checkouts/${paid.id}/refunds`, { amount: '60.00' }, newKey())).body;
    expect(made).toMatchObject({ state: 'PendingApproval', requestedBy: 'ana@shop.example' });
    const approved = await bia('POST', `/approvals/${made.idempotencyKey}/approve`);
    expect(approved).toMatchObject({
      status: 200,
      body: { kind: 'refund', state: 'Created', refundOf: paid.id, decidedBy: 'bia@shop.example' },
    });
    const record = await t.server.provider.transactions.retrieve(approved.body.transactionId);
    expect(record.transaction).toMatchObject({ type: 'Debit', amount: '60.000000', orderId: made.orderId });
    await t.completeAtProvider(made.idempotencyKey, approved.body.transactionId);
    expect((await t.admin('GET', `/checkouts/${paid.id}/refunds`)).body).toMatchObject({ refunded: '60.00' });
    const events = (await t.server.store.merchantEventsAfter(0, 10_000)).filter((e) => e.data.idempotencyKey === made.idempotencyKey);
    expect(events.map((e) => [e.type, e.data.amount])).toEqual([
      ['refund.created', '60.00'],
      ['refund.completed', '60.00'],
    ]);
  });
});

describe('the audit trail of approvals', () => {
  it('tells who asked, who was refused and who decided, with the amounts', async () => {
    const made = (await ana('POST', '/cashouts', cashOut('70.00'), newKey())).body;
    await ana('POST', `/approvals/${made.idempotencyKey}/approve`);
    await bia('POST', `/approvals/${made.idempotencyKey}/approve`);
    const asked = (await t.auditOf('cashout.create')).find((l) => l.target === made.idempotencyKey);
    expect(asked).toMatchObject({ actor: 'ana@shop.example', outcome: 'pending_approval', details: { amount: '70.00', keyType: 'EMAIL' } });
    const decisions = (await t.auditOf('approval.approve')).filter((l) => l.target === made.idempotencyKey);
    expect(decisions.map((l) => [l.actor, l.outcome, l.details?.code ?? null])).toEqual([
      ['bia@shop.example', 'ok', null],
      ['ana@shop.example', 'refused', 'approval_by_maker'],
    ]);
    expect(decisions[0]!.details).toMatchObject({ kind: 'cashout', amount: '70.00', state: 'Created' });
    expect(JSON.stringify(await t.auditOf('cashout.create'))).not.toContain('52998224725');
  });
});

describe('APPROVAL_ABOVE=0', () => {
  it('makes every movement wait for an owner', async () => {
    const zero = await startMovementServer(TOKEN, { APPROVAL_ABOVE: '0' });
    try {
      const made = await zero.admin('POST', '/cashouts', cashOut('0.01'), newKey());
      expect(made).toMatchObject({ status: 202, body: { state: 'PendingApproval' } });
      const paid = await zero.paidCheckout();
      expect(await zero.admin('POST', `/checkouts/${paid.id}/refunds`, { amount: '0.01' }, newKey())).toMatchObject({
        status: 202,
        body: { state: 'PendingApproval' },
      });
      expect(await zero.atProvider(made.body.orderId)).toEqual([]);
    } finally {
      await zero.server.close();
    }
  });
});
