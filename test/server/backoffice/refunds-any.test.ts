/**
 * The refund of any paid checkout, whole or partial, through the back office on the demo process (emulator + BFF):
 * `POST /checkouts/:id/refunds` with an amount or without (all that is left), never past what was paid (409 with what
 * is left), only of a Completed checkout, once per Idempotency-Key; `GET /checkouts/:id/refunds` with the totals, the
 * masked recipient and the refunds; the checkout views' `refunds` and `refunded`; each refund's own events with its
 * own amount; the audit trail; and the duplicate refund's alias. No approval here (APPROVAL_ABOVE is high).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCents, parseCents } from '../../../core/money';
import { newKey, PAYER, startMovementServer } from './movements';

const TOKEN = 'admin-token-for-refunds-any-tests-0123';
let t: Awaited<ReturnType<typeof startMovementServer>>;
beforeAll(async () => {
  t = await startMovementServer(TOKEN, { APPROVAL_ABOVE: '100000.00' });
});
afterAll(() => t?.server.close());

const refunds = (id: string) => t.admin('GET', `/checkouts/${id}/refunds`);
const refund = (id: string, body: unknown, headers: Record<string, string> = newKey()) =>
  t.admin('POST', `/checkouts/${id}/refunds`, body, headers);

describe('refunds of a paid checkout', () => {
  it('refunds a part, then more up to what was paid, and refuses a third with what is left (409)', async () => {
    const paid = await t.paidCheckout();
    const paidCents = parseCents(paid.amount)!;
    const part = Math.floor(paidCents * 0.3);
    const before = await refunds(paid.id);
    expect(before.body).toEqual({
      checkoutId: paid.id,
      paid: paid.amount,
      refunded: '0.00',
      refundable: paid.amount,
      recipient: { name: PAYER.name, cpf: '***.982.247-**' },
      charges: expect.stringMatching(/^\d+\.\d{6}$/),
      data: [],
    });

    const first = await refund(paid.id, { amount: formatCents(part) });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      amount: formatCents(part),
      refundOf: paid.id,
      state: 'Created',
      transactionId: expect.any(String),
      key: { type: 'CPF', value: '***.982.247-**' },
      requestedBy: 'api-token',
      decidedBy: null,
    });
    const tooMuch = await refund(paid.id, { amount: formatCents(paidCents - part + 1) });
    expect(tooMuch).toMatchObject({
      status: 409,
      body: { error: { code: 'refund_exceeds_paid', details: { refundable: formatCents(paidCents - part) } } },
    });
    t.clock.advance(1_000); // the refunds are listed oldest first
    const rest = await refund(paid.id, {});
    expect(rest).toMatchObject({ status: 201, body: { amount: formatCents(paidCents - part), refundOf: paid.id } });
    const third = await refund(paid.id, { amount: '0.01' });
    expect(third).toMatchObject({ status: 409, body: { error: { code: 'refund_exceeds_paid', details: { refundable: '0.00' } } } });
    expect(await refund(paid.id, {})).toMatchObject({ status: 409, body: { error: { code: 'refund_exceeds_paid' } } });

    // Each is its own PIX cash-out to the payer's CPF, for its own amount.
    for (const made of [first.body, rest.body]) {
      const record = await t.server.provider.transactions.retrieve(made.transactionId);
      expect(record.transaction).toMatchObject({ type: 'Debit', amount: `${made.amount}0000` });
      expect(record.payment.key).toBe(PAYER.taxNumber);
    }

    await t.completeAtProvider(first.body.idempotencyKey, first.body.transactionId);
    const after = await refunds(paid.id);
    expect(after.body).toMatchObject({
      paid: paid.amount,
      refunded: formatCents(part),
      refundable: '0.00',
      recipient: null,
      reason: 'refund_exceeds_paid',
      charges: null,
    });
    expect(after.body.data.map((r: { idempotencyKey: string }) => r.idempotencyKey)).toEqual([
      first.body.idempotencyKey,
      rest.body.idempotencyKey,
    ]);

    // The checkout's views: every refund, the latest that counts, and what the Completed ones gave back.
    const row = (await t.admin('GET', `/checkouts?orderId=${paid.orderId}`)).body.items[0];
    expect(row).toMatchObject({ id: paid.id, refunded: formatCents(part), refund: { idempotencyKey: rest.body.idempotencyKey } });
    expect(row.refunds.map((r: { amount: string; state: string }) => [r.amount, r.state])).toEqual([
      [formatCents(part), 'Completed'],
      [formatCents(paidCents - part), 'Created'],
    ]);
    const detail = (await t.admin('GET', `/checkouts/${paid.id}`)).body;
    expect(detail.checkout.refunded).toBe(formatCents(part));
    expect(detail.refunds).toHaveLength(2);
  });

  it("tells each refund's events with its own amount and the refunded checkout", async () => {
    const paid = await t.paidCheckout();
    const made = await refund(paid.id, { amount: '1.23' });
    expect(made.status).toBe(201);
    await t.completeAtProvider(made.body.idempotencyKey, made.body.transactionId);
    const events = (await t.server.store.merchantEventsAfter(0, 10_000)).filter((e) => e.data.idempotencyKey === made.body.idempotencyKey);
    expect(events.map((e) => e.type)).toEqual(['refund.created', 'refund.completed']);
    for (const event of events) expect(event.data).toMatchObject({ amount: '1.23', checkoutId: paid.id, checkoutOrderId: paid.orderId });
    expect(JSON.stringify(events)).not.toContain(PAYER.taxNumber);
  });

  it('answers the same refund for the same key and request, and refuses the key with another amount (422)', async () => {
    const paid = await t.paidCheckout();
    const key = { 'idempotency-key': randomUUID() };
    const [a, b] = await Promise.all([refund(paid.id, { amount: '2.00' }, key), refund(paid.id, { amount: '2.00' }, key)]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.transactionId).toBe(b.body.transactionId);
    expect(await refund(paid.id, { amount: '3.00' }, key)).toMatchObject({
      status: 422,
      body: { error: { code: 'idempotency_key_reused' } },
    });
    // Without an amount ("all that is left"), the key's refund answers.
    expect(await refund(paid.id, {}, key)).toMatchObject({ status: 200, body: { idempotencyKey: key['idempotency-key'], amount: '2.00' } });
    const other = await t.paidCheckout();
    expect(await refund(other.id, { amount: '2.00' }, key)).toMatchObject({
      status: 422,
      body: { error: { code: 'idempotency_key_reused' } },
    });
    // A whole refund retried under its key answers it, though nothing is left by then.
    const whole = { 'idempotency-key': randomUUID() };
    const all = await refund(other.id, {}, whole);
    expect(all).toMatchObject({ status: 201, body: { amount: other.amount } });
    expect(await refund(other.id, {}, whole)).toMatchObject({ status: 200, body: { transactionId: all.body.transactionId } });
    expect((await t.atProvider(all.body.orderId)).length).toBe(1);
  });

  it('refuses a checkout that is not Completed (409), a payer named by a CNPJ (409) and bad amounts (400)', async () => {
    const { orderId, orderToken } = await t.server.order();
    const open = await t.server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    expect(await refund(open.body.id, {})).toMatchObject({ status: 409, body: { error: { code: 'checkout_not_paid' } } });
    expect((await refunds(open.body.id)).body).toMatchObject({
      paid: '0.00',
      refundable: '0.00',
      recipient: null,
      reason: 'checkout_not_paid',
    });
    expect((await refund('co_nope', {})).status).toBe(404);

    // A company paid (a CNPJ): no CPF to send a refund to.
    const anonymous = await t.paidCheckout({ name: 'Empresa Pagadora', taxNumber: '11222333000181' });
    expect(await refund(anonymous.id, {})).toMatchObject({ status: 409, body: { error: { code: 'payer_not_refundable' } } });
    expect((await refunds(anonymous.id)).body).toMatchObject({ recipient: null, reason: 'payer_not_refundable' });

    const paid = await t.paidCheckout();
    for (const amount of ['0.00', '1.005', '-1.00', 'dez', 12, '90071992547409.92']) {
      const res = await refund(paid.id, { amount });
      expect({ amount, status: res.status, code: res.body.error?.code }).toEqual({ amount, status: 400, code: 'invalid_request' });
    }
    expect((await refund(paid.id, {}, {})).body.error.code).toBe('idempotency_key_required');
    expect((await refunds(paid.id)).body.data).toEqual([]);
  });

  it('records each refund and refusal in the audit trail, with the amount and never the CPF', async () => {
    const paid = await t.paidCheckout();
    const key = randomUUID();
    await refund(paid.id, { amount: '1.00' }, { 'idempotency-key': key });
    await refund(paid.id, { amount: paid.amount });
    const lines = (await t.auditOf('refund.create')).filter((l) => l.target === paid.id);
    expect(lines.map((l) => [l.outcome, l.details?.code ?? null])).toEqual([
      ['refused', 'refund_exceeds_paid'],
      ['ok', null],
    ]);
    expect(lines[1]).toMatchObject({ actor: 'api-token', details: { checkoutId: paid.id, idempotencyKey: key, amount: '1.00' } });
    expect(JSON.stringify(lines)).not.toContain(PAYER.taxNumber);
  });
});

describe('the refund of a duplicate payment (the alias /checkouts/:id/refund)', () => {
  it('keeps refusing a payment that is not a duplicate (the duplicate itself: backoffice.test.ts)', async () => {
    const once = await t.paidCheckout();
    expect(await t.admin('GET', `/checkouts/${once.id}/refund`)).toMatchObject({
      status: 409,
      body: { error: { code: 'not_a_duplicate_payment' } },
    });
    expect(await t.admin('POST', `/checkouts/${once.id}/refund`, {}, newKey())).toMatchObject({
      status: 409,
      body: { error: { code: 'not_a_duplicate_payment' } },
    });
  });
});
