import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  balance,
  cashInResponse,
  cashOutResponse,
  initiationResponse,
  transactionList,
  transactionRecord,
  webhookEvent,
} from '../../../server/provider/schemas';
import { cashIn, cashOut, client, eventually, initiation, makeSandbox, startReceiver, VALID_CPF, type Api } from './helpers';

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

let made: ReturnType<typeof makeSandbox>;
let api: Api;
async function fresh(options: Parameters<typeof makeSandbox>[0] = {}) {
  made = makeSandbox(options);
  api = await client(made.sandbox);
  receiver.received.length = 0;
  receiver.answer(200);
}
afterEach(() => made.sandbox.close());

describe('POST /accounts/pix/cashin', () => {
  it('answers 201 Registered with the code, its location and a full record behind it', async () => {
    await fresh();
    const reply = await api('POST', '/accounts/pix/cashin', cashIn(receiver.url));
    expect(reply.status).toBe(201);
    expect(reply.body.statusCode).toBe('Done');
    const data = cashInResponse.parse(reply.body.data);
    expect(data.transaction).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      orderId: 'order-1',
      date: '2026-01-15T12:00:00.000Z',
      state: 'Registered',
      amount: '10.500000',
    });

    for (const method of ['GET', 'POST']) {
      const got = await api(method, `/accounts/transactions/pix/${data.transaction.id}`);
      expect(got.status).toBe(200);
      const rec = transactionRecord.parse(got.body.data);
      expect(rec.transaction).toMatchObject({
        type: 'Credit',
        category: 'PartnerSales',
        paymentType: 'PIX',
        currency: 'BRL',
        state: 'Registered',
        charges: '0.603950',
        chargesObject: { costValue: '0.500000', rateValue: '0.103950', rate: '0.990000' },
        payer: null,
        recipient: null,
        receiptUrl: null,
        orderDescription: 'Pedido 1',
      });
      expect(rec.payment).toMatchObject({
        value: { original: '10.500000', editable: false },
        payer: { name: 'Maria Silva', cpf: VALID_CPF },
        qrCode: data.payment.qrCode,
      });
      expect(rec.payment.receiver).toBeUndefined();
      expect(rec.webhook).toEqual({
        url: receiver.url,
        customHeaderName: 'x-shop-secret',
        customHeaderValue: 's3cret',
        // The contract knows Pending, Failed and Success only: nothing delivered yet is Pending.
        deliveryStatus: 'Pending',
        deliveryTime: null,
      });
    }
  });

  it('gives different random ids to two identical requests', async () => {
    await fresh();
    const a = await api('POST', '/accounts/pix/cashin', cashIn(receiver.url));
    const b = await api('POST', '/accounts/pix/cashin', cashIn(receiver.url));
    expect(a.body.data.transaction.id).not.toBe(b.body.data.transaction.id);
    expect(a.body.data.payment.qrCode).not.toBe(b.body.data.payment.qrCode);
  });

  it('uses a billing plan given to createSandbox, exactly', async () => {
    await fresh({ billing: { fixed: '0.01', ratePercent: '1.234567' } });
    const reply = await api('POST', '/accounts/pix/cashin', cashIn(receiver.url, { payment: { value: { original: '0.07' } } }));
    const rec = (await api('GET', `/accounts/transactions/pix/${reply.body.data.transaction.id}`)).body.data;
    // 0.07 × 1.234567 % = 0.000864197 → 0.000864 at six decimals.
    expect(rec.transaction).toMatchObject({
      charges: '0.010864',
      chargesObject: { costValue: '0.010000', rateValue: '0.000864', rate: '1.234567' },
    });
  });
});

describe('POST /accounts/pix/cashout', () => {
  it('answers 201 Created, then registers on its own and sends a Registered webhook', async () => {
    await fresh({ registerDelayMs: 20 });
    const reply = await api('POST', '/accounts/pix/cashout', cashOut(receiver.url));
    expect(reply.status).toBe(201);
    const { transaction } = cashOutResponse.parse(reply.body.data);
    expect(transaction).toMatchObject({ state: 'Created', amount: '25.000000', orderId: 'payout-1' });
    made.clock.advance(1_000);
    await eventually(() => receiver.received.length === 1);
    const event = webhookEvent.parse(receiver.received[0]!.body);
    expect(event).toMatchObject({
      id: transaction.id,
      transactionState: 'Registered',
      transactionType: 'Debit',
      stateRegisteredDate: '2026-01-15T12:00:01.000Z',
    });
    await eventually(() => made.sandbox.store.get(transaction.id)?.record.webhook.deliveryStatus === 'Success');
    expect(made.sandbox.store.get(transaction.id)!.record.transaction.state).toBe('Registered');
  });
});

describe('POST /accounts/payment-initiation', () => {
  it('answers 201 with the transaction id and the bank page address', async () => {
    await fresh();
    const reply = await api('POST', '/accounts/payment-initiation', initiation(receiver.url));
    expect(reply.status).toBe(201);
    const data = initiationResponse.parse(reply.body.data);
    expect(data.checkoutUrl).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:3000/sandbox/v1/system/checkout/init/[0-9a-f-]{36}/${data.transactionId}$`),
    );
    const rec = transactionRecord.parse((await api('GET', `/accounts/transactions/pix/${data.transactionId}`)).body.data);
    expect(rec.transaction).toMatchObject({ state: 'Registered', paymentType: 'OpenFinance', amount: '1234.560000', type: 'Credit' });
    expect(rec.payment.payer).toEqual({ cpf: VALID_CPF });
  });
});

describe('the record keeps `payment` as the request made it', () => {
  const FORMATTED_CPF = '111.444.777-35';
  const record = async (id: string) => transactionRecord.parse((await api('GET', `/accounts/transactions/pix/${id}`)).body.data);

  it('keeps a cash-in payer CPF as sent; the effective payer carries its digits', async () => {
    await fresh();
    const reply = await api(
      'POST',
      '/accounts/pix/cashin',
      cashIn(receiver.url, { payment: { payer: { cpf: FORMATTED_CPF, name: 'Ana' } } }),
    );
    expect(reply.status, reply.text).toBe(201);
    const id = reply.body.data.transaction.id as string;
    expect((await record(id)).payment.payer).toEqual({ cpf: FORMATTED_CPF, name: 'Ana' });
    expect((await api('POST', `/sandbox/transactions/complete/${id}`)).status).toBe(200);
    const after = await record(id);
    expect(after.payment.payer).toEqual({ cpf: FORMATTED_CPF, name: 'Ana' });
    expect(after.transaction.payer).toMatchObject({ name: 'Ana', taxNumber: '11144477735' });
    expect(receiver.received.at(-1)!.body.payer).toMatchObject({ taxNumber: '11144477735' });
  });

  it('keeps a cash-out key and recipient CPF as sent; the effective recipient carries its digits', async () => {
    await fresh();
    const keys = [
      { type: 'CPF', value: FORMATTED_CPF },
      { type: 'EVP', value: '123E4567-E89B-12D3-A456-426614174000' },
    ];
    for (const key of keys) {
      const body = cashOut(receiver.url, { key, recipient: { name: 'João Souza', cpf: '529.982.247-25' } });
      const reply = await api('POST', '/accounts/pix/cashout', body);
      expect(reply.status, reply.text).toBe(201);
      const id = reply.body.data.transaction.id as string;
      expect((await record(id)).payment).toMatchObject({ key: key.value, receiver: { name: 'João Souza', cpf: '529.982.247-25' } });
      expect((await api('POST', `/sandbox/transactions/complete/${id}`)).status).toBe(200);
      const after = await record(id);
      expect(after.payment).toMatchObject({ key: key.value, receiver: { cpf: '529.982.247-25' } });
      expect(after.transaction.recipient).toMatchObject({ name: 'João Souza', taxNumber: VALID_CPF });
    }
  });

  it('keeps an OpenFinance payer tax number as sent', async () => {
    await fresh();
    const body = initiation(receiver.url);
    body.payment.payer.taxNumber = '529.982.247-25';
    const reply = await api('POST', '/accounts/payment-initiation', body);
    expect(reply.status, reply.text).toBe(201);
    const id = reply.body.data.transactionId as string;
    expect((await record(id)).payment.payer).toEqual({ cpf: '529.982.247-25' });
    expect((await api('POST', `/sandbox/payment-initiation/complete/${id}`)).status).toBe(200);
    expect((await record(id)).transaction.payer).toMatchObject({ taxNumber: VALID_CPF });
  });
});

describe('GET /accounts/transactions/pix (by order id)', () => {
  it('lists the transactions of one order inside a range of at most one day, paged', async () => {
    await fresh();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      made.clock.advance(60_000);
      ids.push(
        (await api('POST', '/accounts/pix/cashin', cashIn(receiver.url, { transaction: { orderId: 'A-7' } }))).body.data.transaction.id,
      );
    }
    await api('POST', '/accounts/pix/cashin', cashIn(receiver.url, { transaction: { orderId: 'other' } }));
    const query = (limit: number, offset: number, start = '2026-01-15T00:00:00.000Z', end = '2026-01-16T00:00:00.000Z') =>
      api(
        'GET',
        `/accounts/transactions/pix?transactionOrderId=A-7&startDate=${start}&endDate=${end}&dataset.limit=${limit}&dataset.offset=${offset}`,
      );
    const first = transactionList.parse((await query(5, 0)).body.data);
    expect(first).toMatchObject({ limit: 5, offset: 0, total: 7 });
    expect(first.items.map((i) => i.transaction.id)).toEqual(ids.slice(0, 5));
    const second = transactionList.parse((await query(5, 5)).body.data);
    expect(second.items.map((i) => i.transaction.id)).toEqual(ids.slice(5));
    const narrow = transactionList.parse((await query(10, 0, '2026-01-15T12:02:00.000Z', '2026-01-15T12:03:00.000Z')).body.data);
    expect(narrow.total).toBe(2);
    const empty = transactionList.parse((await query(20, 0, '2026-01-14T00:00:00.000Z', '2026-01-15T00:00:00.000Z')).body.data);
    expect(empty).toMatchObject({ total: 0, items: [] });
  });
});

describe('GET /accounts/balance', () => {
  it('is the opening balance plus completed credits minus completed debits minus their charges, exactly', async () => {
    await fresh({ openingBalance: '100.00' });
    const read = async () => balance.parse((await api('GET', '/accounts/balance')).body.data);
    expect(await read()).toMatchObject({ balance: '100.000000', currency: 'BRL', date: '2026-01-15T12:00:00.000Z' });

    const inId = (await api('POST', '/accounts/pix/cashin', cashIn(receiver.url, { payment: { value: { original: '0.10' } } }))).body.data
      .transaction.id;
    const outId = (await api('POST', '/accounts/pix/cashout', cashOut(receiver.url, { value: '0.20' }))).body.data.transaction.id;
    const pending = (await api('POST', '/accounts/pix/cashin', cashIn(receiver.url))).body.data.transaction.id;
    expect((await read()).balance).toBe('100.000000');
    await api('POST', `/sandbox/transactions/complete/${inId}`);
    await api('POST', `/sandbox/transactions/complete/${outId}`);
    await api('POST', `/sandbox/transactions/error/${pending}`);
    // +0.10 − (0.50 + 0.00099) − 0.20 − (0.50 + 0.00198) = −1.10297
    expect(await read()).toMatchObject({ balance: '98.897030', credits: '0.100000', debits: '0.200000', charges: '1.002970' });

    const yesterday = balance.parse((await api('GET', '/accounts/balance?filterDate=2026-01-14T00:00:00.000Z')).body.data);
    expect(yesterday).toMatchObject({ balance: '100.000000', date: '2026-01-14T23:59:59.999Z' });
  });

  it('reserves Created and Registered cash-outs when checking a new one', async () => {
    await fresh({ openingBalance: '10.00' });
    expect((await api('POST', '/accounts/pix/cashout', cashOut(receiver.url, { value: '5.00' }))).status).toBe(201);
    const second = await api('POST', '/accounts/pix/cashout', cashOut(receiver.url, { value: '5.00' }));
    expect(second.status).toBe(409);
    expect(second.body.error.details.reason).toBe('InsufficientBalance');
  });
});
