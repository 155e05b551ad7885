import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sandboxResult, transactionRecord, webhookEvent } from '../../../server/provider/schemas';
import { cashIn, cashOut, client, DEAD_URL, eventually, initiation, makeSandbox, startReceiver, VALID_CPF, type Api } from './helpers';

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

let made: ReturnType<typeof makeSandbox>;
let api: Api;
async function fresh() {
  made = makeSandbox();
  api = await client(made.sandbox);
  receiver.received.length = 0;
  receiver.answer(200);
}
afterEach(() => made.sandbox.close());

const record = async (id: string) => transactionRecord.parse((await api('GET', `/accounts/transactions/pix/${id}`)).body.data);
const simulate = (op: string, id: string, body?: unknown, method = 'POST') => api(method, `/sandbox/transactions/${op}/${id}`, body);

async function newCashIn(extra: Parameters<typeof cashIn>[1] = {}) {
  const reply = await api('POST', '/accounts/pix/cashin', cashIn(receiver.url, extra));
  expect(reply.status).toBe(201);
  return reply.body.data.transaction.id as string;
}
async function newCashOut() {
  const reply = await api('POST', '/accounts/pix/cashout', cashOut(receiver.url));
  expect(reply.status).toBe(201);
  return reply.body.data.transaction.id as string;
}

const DATE_FIELDS = ['stateCompletedDate', 'stateCancelledDate', 'stateRefundDate', 'stateReversedDate', 'stateErrorDate'] as const;
const TARGETS = [
  ['complete', 'Completed', 'stateCompletedDate'],
  ['error', 'Error', 'stateErrorDate'],
  ['cancel', 'Cancelled', 'stateCancelledDate'],
  ['reverse', 'Reversed', 'stateReversedDate'],
] as const;

describe('PIX simulations from Registered (cash-in)', () => {
  it.each(TARGETS)('%s moves to %s, sets only %s, and delivers the webhook first', async (op, state, dateField) => {
    await fresh();
    const id = await newCashIn();
    made.clock.advance(90_000);
    const reply = await simulate(op, id);
    expect(reply.status, reply.text).toBe(200);
    const data = sandboxResult.parse(reply.body.data);
    expect(data).toMatchObject({ transactionId: id, transactionState: state });
    if (state === 'Error') expect(data.stateErrorCause).toBe('PaymentProcessingError');

    const { transaction: t, webhook } = await record(id);
    expect(t.state).toBe(state);
    // "Date fields other than the one matching the current state are empty (null)": the registration date too.
    expect(t.stateRegisteredDate).toBeNull();
    expect(t[dateField]).toBe('2026-01-15T12:01:30.000Z');
    for (const field of DATE_FIELDS) if (field !== dateField) expect(t[field], field).toBeNull();
    expect(webhook).toMatchObject({ deliveryStatus: 'Success', deliveryTime: '2026-01-15T12:01:30.000Z' });

    expect(receiver.received).toHaveLength(1);
    const hit = receiver.received[0]!;
    expect(hit.method).toBe('POST');
    expect(hit.url).toBe('/hooks/provider');
    expect(hit.headers['content-type']).toBe('application/json');
    expect(hit.headers['x-shop-secret']).toBe('s3cret');
    expect(hit.text).toBe(JSON.stringify(hit.body));
    const event = webhookEvent.parse(hit.body);
    expect(Object.keys(hit.body).sort()).toEqual(
      [
        'id',
        'transactionState',
        'transactionDate',
        'transactionOrderId',
        'transactionOrderDescription',
        'transactionReceipt',
        'transactionReceiptDate',
        'transactionReceiptVoucher',
        'transactionAmount',
        'transactionType',
        'transactionPaymentType',
        'stateRegisteredDate',
        'stateCompletedDate',
        'stateCancelledDate',
        'stateRefundDate',
        'stateReversedDate',
        'stateErrorDate',
        'stateErrorCause',
        'webhookUrl',
        'payer',
        'recipient',
      ].sort(),
    );
    expect(event).toMatchObject({
      id,
      transactionState: state,
      transactionAmount: '10.500000',
      transactionType: 'Credit',
      transactionOrderId: 'order-1',
      webhookUrl: receiver.url,
    });
    expect(event[dateField]).toBe('2026-01-15T12:01:30.000Z');
    if (state === 'Completed') {
      expect(event.transactionReceipt).toBe(`http://127.0.0.1:3000/sandbox/v1/system/e-receipt/${id}/receipt.pdf`);
      expect(event.transactionReceiptVoucher).toMatch(/^E\w{31}$/);
      expect(event.payer).toEqual({
        name: 'Maria Silva',
        taxNumber: VALID_CPF,
        bankCode: '999',
        bankName: 'Banco Sandbox',
        accountAgency: '99999',
        accountNumber: '99999',
        accountDigit: '9',
      });
      expect(event.recipient).toMatchObject({
        bankCode: '999',
        accountAgency: '99999',
        accountNumber: '99999',
        accountDigit: '9',
        taxNumber: '99999999000191',
      });
      expect(t.receiptAmount).toBe('10.500000');
    } else {
      expect(event).toMatchObject({
        transactionReceipt: null,
        transactionReceiptDate: null,
        transactionReceiptVoucher: null,
        payer: null,
        recipient: null,
      });
      expect(t.payer ?? null).toBeNull();
      expect(t.receiptUrl ?? null).toBeNull();
    }
  });

  it('accepts PUT as well as POST', async () => {
    await fresh();
    const id = await newCashIn();
    expect((await simulate('cancel', id, undefined, 'PUT')).body.data.transactionState).toBe('Cancelled');
  });

  it.each(TARGETS)('refuses %s on every final state with 409 and no webhook', async (op) => {
    await fresh();
    for (const [first, state] of TARGETS) {
      const id = await newCashIn();
      expect((await simulate(first, id)).status).toBe(200);
      receiver.received.length = 0;
      const reply = await simulate(op, id);
      expect(reply.status, `${op} after ${first}`).toBe(409);
      expect(reply.body.error).toMatchObject({ name: 'OperationError', details: { reason: 'TransactionStateInvalid', state } });
      expect((await record(id)).transaction.state).toBe(state);
      expect(receiver.received).toHaveLength(0);
    }
  });

  it('answers 404 for an unknown transaction', async () => {
    await fresh();
    const reply = await simulate('complete', 'no-such-id');
    expect(reply.status).toBe(404);
    expect(reply.body.statusCode).toBe('Error');
  });
});

describe('anonymous and editable cash-ins', () => {
  it('takes the payer from the complete body', async () => {
    await fresh();
    const id = await newCashIn({ payment: { payer: undefined } });
    await simulate('complete', id, { name: 'Ana Paga', taxNumber: '111.444.777-35' });
    expect((await record(id)).transaction.payer).toMatchObject({ name: 'Ana Paga', taxNumber: '11144477735' });
    expect(receiver.received[0]!.body.payer).toMatchObject({ name: 'Ana Paga', taxNumber: '11144477735' });
  });

  it('refuses to complete an anonymous cash-in without name and taxNumber, with the 400 of a missing property', async () => {
    await fresh();
    const anonymous = await newCashIn({ payment: { payer: undefined } });
    const editable = await newCashIn({ payment: { payer: undefined, value: { original: '10.00', editable: true } } });
    const required = (...names: string[]) =>
      names.map((name) => ({
        path: '',
        code: 'required',
        message: `must have required property '${name}'`,
        info: { missingProperty: name },
      }));
    // The contract: the complete body's name and taxNumber are "required only for anonymous PIX".
    for (const [id, body, missing] of [
      [anonymous, undefined, ['name', 'taxNumber']],
      [anonymous, {}, ['name', 'taxNumber']],
      [anonymous, { name: 'Ana Paga' }, ['taxNumber']],
      [anonymous, { taxNumber: VALID_CPF }, ['name']],
      [editable, { amount: '12.00' }, ['name', 'taxNumber']],
    ] as const) {
      for (const method of ['POST', 'PUT']) {
        const reply = await simulate('complete', id, body, method);
        expect(reply.status, reply.text).toBe(400);
        expect(reply.body).toEqual({
          statusCode: 'Error',
          error: {
            name: 'InvalidRequestFormatError',
            message: expect.any(String),
            code: 'InvalidRequestFormatError',
            details: required(...missing),
          },
        });
      }
    }
    expect(receiver.received).toEqual([]);
    for (const id of [anonymous, editable]) expect((await record(id)).transaction).toMatchObject({ state: 'Registered', payer: null });
    // Naming the payer completes it; an identified cash-in still needs no body.
    expect((await simulate('complete', anonymous, { name: 'Ana Paga', taxNumber: VALID_CPF })).status).toBe(200);
    expect((await simulate('complete', await newCashIn())).status).toBe(200);
  });

  it('answers 409, not 400, for an anonymous cash-in already final', async () => {
    await fresh();
    const id = await newCashIn({ payment: { payer: undefined } });
    expect((await simulate('cancel', id)).status).toBe(200);
    expect((await simulate('complete', id)).status).toBe(409);
  });

  it('refuses a complete body with an invalid tax number', async () => {
    await fresh();
    const id = await newCashIn({ payment: { payer: undefined } });
    const reply = await simulate('complete', id, { name: 'X', taxNumber: '12345678900' });
    expect(reply.status).toBe(400);
    expect((await record(id)).transaction.state).toBe('Registered');
  });

  it('settles an editable cash-in with the amount paid and recomputes the charges', async () => {
    await fresh();
    const id = await newCashIn({ payment: { value: { original: '10.00', editable: true } } });
    expect((await simulate('complete', id, { amount: '20.00' })).status).toBe(200);
    const { transaction: t, payment } = await record(id);
    expect(t).toMatchObject({ amount: '20.000000', receiptAmount: '20.000000', charges: '0.698000' });
    expect(payment.value).toEqual({ original: '10.000000', editable: true });
    expect(receiver.received[0]!.body.transactionAmount).toBe('20.000000');
  });

  it('refuses another amount for a fixed-value cash-in with 409 AmountNotEditable', async () => {
    await fresh();
    const id = await newCashIn();
    const reply = await simulate('complete', id, { amount: '11.00' });
    expect(reply.status).toBe(409);
    expect(reply.body.error.details.reason).toBe('AmountNotEditable');
    expect((await simulate('complete', id, { amount: '10.50' })).status).toBe(200);
  });
});

describe('cash-out', () => {
  it('starts Created and allows every simulation from there', async () => {
    await fresh();
    for (const [op, state] of TARGETS) {
      const id = await newCashOut();
      expect((await record(id)).transaction).toMatchObject({ state: 'Created', stateRegisteredDate: null, type: 'Debit' });
      expect((await simulate(op, id)).body.data.transactionState).toBe(state);
      const t = (await record(id)).transaction;
      expect(t.state).toBe(state);
      // A final state shows its own date only.
      expect(t.stateRegisteredDate).toBeNull();
      expect(receiver.received.at(-1)!.body).toMatchObject({ transactionState: state, stateRegisteredDate: null });
    }
  });

  it('completes with the operator as payer and the recipient from the request', async () => {
    await fresh();
    const id = await newCashOut();
    await simulate('complete', id);
    const { transaction: t, payment } = await record(id);
    expect(t.payer).toMatchObject({ taxNumber: '99999999000191', bankCode: '999' });
    expect(t.recipient).toMatchObject({ name: 'João Souza', taxNumber: VALID_CPF, bankCode: '999', accountDigit: '9' });
    expect(payment).toMatchObject({ key: 'joao@example.com', keyType: 'E-mail', receiver: { name: 'João Souza', cpf: VALID_CPF } });
  });
});

describe('OpenFinance simulations', () => {
  it.each([
    ['complete', 'Completed'],
    ['error', 'Error'],
  ])('%s moves to %s with its webhook', async (op, state) => {
    await fresh();
    const created = await api('POST', '/accounts/payment-initiation', initiation(receiver.url));
    const id = created.body.data.transactionId;
    const reply = await api('POST', `/sandbox/payment-initiation/${op}/${id}`);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ transactionId: id, transactionState: state });
    expect(webhookEvent.parse(receiver.received[0]!.body)).toMatchObject({
      id,
      transactionState: state,
      transactionPaymentType: 'OpenFinance',
    });
    expect((await api('POST', `/sandbox/payment-initiation/${op}/${id}`)).status).toBe(409);
  });

  it('keeps PIX and OpenFinance operations apart (404 across)', async () => {
    await fresh();
    const pix = await newCashIn();
    const of = (await api('POST', '/accounts/payment-initiation', initiation(receiver.url))).body.data.transactionId;
    expect((await api('POST', `/sandbox/payment-initiation/complete/${pix}`)).status).toBe(404);
    expect((await simulate('complete', of)).status).toBe(404);
  });
});

describe('webhook delivery failure', () => {
  it.each([
    ['an HTTP 500 answer', () => receiver.answer(500), () => receiver.url],
    ['a 302 redirect', () => receiver.answer(302), () => receiver.url],
    ['nobody listening', () => undefined, () => DEAD_URL],
  ])('with %s answers 424 WebhookDeliveryFailed, keeps the change and retries its webhook', async (_name, arrange, url) => {
    made = makeSandbox({ webhookRetry: { delaysMs: [50] } });
    api = await client(made.sandbox);
    receiver.received.length = 0;
    receiver.answer(200);
    const reply = await api('POST', '/accounts/pix/cashin', { ...cashIn(url()) });
    const id = reply.body.data.transaction.id;
    arrange();
    const failed = await simulate('complete', id);
    expect(failed.status).toBe(424);
    expect(failed.body.error).toMatchObject({
      name: 'OperationError',
      details: { reason: 'WebhookDeliveryFailed', transactionState: 'Completed' },
    });
    expect((await record(id)).transaction.state).toBe('Completed');
    expect((await simulate('complete', id)).status).toBe(409);
    receiver.answer(200);
    const delivered = url() === receiver.url ? 'Success' : 'Failed';
    await eventually(() => made.sandbox.store.get(id)!.record.webhook.deliveryStatus === delivered);
    if (delivered === 'Success')
      expect(webhookEvent.parse(receiver.received.at(-1)!.body)).toMatchObject({ id, transactionState: 'Completed' });
  });

  it('keeps a completion the receiver read and committed before its answer came too late', async () => {
    made = makeSandbox({ webhookTimeoutMs: 200 });
    api = await client(made.sandbox);
    receiver.received.length = 0;
    receiver.answer(200, 1_000);
    const id = await newCashIn();
    const completing = simulate('complete', id);
    // What the BFF does with the webhook: re-reads the transaction, sees it Completed, and commits the payment.
    await eventually(() => receiver.received.length === 1);
    expect((await record(id)).transaction.state).toBe('Completed');
    const reply = await completing;
    expect(reply.status).toBe(424);
    expect(reply.body.error.details.externalReason).toMatch(/in time/);
    // The provider's record still says what the receiver committed, not Registered again.
    expect((await record(id)).transaction.state).toBe('Completed');
    receiver.answer(200);
  });
});

describe('concurrent simulations', () => {
  it('lets exactly one of two simultaneous operations win; the other gets 409', async () => {
    await fresh();
    receiver.answer(200, 50);
    const id = await newCashIn();
    const replies = await Promise.all([simulate('complete', id), simulate('cancel', id)]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(receiver.received).toHaveLength(1);
    expect((await record(id)).transaction.state).toBe(replies[0].status === 200 ? 'Completed' : 'Cancelled');
    receiver.answer(200);
  });
});
