/**
 * Options the provider's public docs describe beyond the contract: the per-account balance, the balance of a past
 * day through the typed client, and the cash-out paid to a bank account (with or without a PIX key).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cashOutResponse, transactionRecord } from '../../../server/provider/schemas';
import { MERCHANT } from '../../../server/sandbox/defaults';
import { startSandbox } from '../helpers/sandbox';
import { cashOut, client, DEAD_URL, makeSandbox, startReceiver, VALID_CPF, type Api } from './helpers';

let made: ReturnType<typeof makeSandbox>;
let api: Api;
afterEach(() => made?.sandbox.close());

async function fresh(options: Parameters<typeof makeSandbox>[0] = {}) {
  made = makeSandbox(options);
  api = await client(made.sandbox);
}

const ACCOUNT = { ispb: '60701190', branch: '0001', number: '123456', digit: '7', type: 'CheckingAccount' };

describe('GET /accounts/balance/{accountUid}', () => {
  it("answers the merchant's account like /balance, and names the account in both", async () => {
    await fresh();
    const all = await api('GET', '/accounts/balance');
    const one = await api('GET', `/accounts/balance/${MERCHANT.accountUid}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(all.body.data);
    expect(all.body.data).toMatchObject({ accountUid: MERCHANT.accountUid, balance: '100000.000000', currency: 'BRL' });
  });

  it('takes filterDate there too, and 404s an account the merchant does not have', async () => {
    await fresh();
    const day = await api('GET', `/accounts/balance/${MERCHANT.accountUid}?filterDate=2026-01-14T00:00:00.000Z`);
    expect(day.body.data.date).toBe('2026-01-14T23:59:59.999Z');
    const unknown = await api('GET', '/accounts/balance/acc-someone-else');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.name).toBe('NotFoundError');
    expect((await api('POST', `/accounts/balance/${MERCHANT.accountUid}`, {})).status).toBe(405);
  });

  it('through the typed client: per account and per day', async () => {
    const env = await startSandbox();
    try {
      const provider = env.client();
      expect(await provider.balance.retrieve({ accountUid: MERCHANT.accountUid })).toMatchObject({
        balance: '100000.000000',
        accountUid: MERCHANT.accountUid,
      });
      const past = await provider.balance.retrieve({ filterDate: new Date('2020-05-01T15:00:00Z') });
      expect(past.date).toBe('2020-05-01T23:59:59.999Z');
      await expect(provider.balance.retrieve({ accountUid: 'nope' })).rejects.toMatchObject({ status: 404 });
    } finally {
      await env.close();
    }
  });
});

describe('POST /accounts/pix/cashout to a bank account', () => {
  const bankOnly = (account: object = ACCOUNT) => {
    const body = cashOut(DEAD_URL);
    const { key: _key, ...payment } = body.payment;
    return { ...body, payment: { ...payment, recipient: { name: 'João Souza', cpf: VALID_CPF, account } } };
  };

  it('accepts the bank account alone, records it, and pays that account on completion', async () => {
    const receiver = await startReceiver();
    try {
      await fresh();
      const body = bankOnly();
      body.webhook.url = receiver.url;
      const reply = await api('POST', '/accounts/pix/cashout', body);
      expect(reply.status, reply.text).toBe(201);
      const id = cashOutResponse.parse(reply.body.data).transaction.id;
      const read = transactionRecord.parse((await api('GET', `/accounts/transactions/pix/${id}`)).body.data);
      expect(read.payment).toMatchObject({ key: null, keyType: null, receiver: { name: 'João Souza', cpf: VALID_CPF, account: ACCOUNT } });
      expect((await api('POST', `/sandbox/transactions/complete/${id}`)).status).toBe(200);
      const done = transactionRecord.parse((await api('GET', `/accounts/transactions/pix/${id}`)).body.data);
      expect(done.transaction.recipient).toMatchObject({
        name: 'João Souza',
        taxNumber: VALID_CPF,
        bankIspb: '60701190',
        accountAgency: '0001',
        accountNumber: '123456',
        accountDigit: '7',
        accountType: 'CheckingAccount',
      });
    } finally {
      await receiver.close();
    }
  });

  it('accepts a key plus the account', async () => {
    await fresh();
    const body = cashOut(DEAD_URL);
    const reply = await api('POST', '/accounts/pix/cashout', {
      ...body,
      payment: { ...body.payment, recipient: { ...body.payment.recipient, account: { ...ACCOUNT, digit: undefined } } },
    });
    expect(reply.status, reply.text).toBe(201);
  });

  it('needs the digit when no key is given, and a key or an account', async () => {
    await fresh();
    const noDigit = await api('POST', '/accounts/pix/cashout', bankOnly({ ...ACCOUNT, digit: undefined }));
    expect(noDigit.status).toBe(400);
    expect(noDigit.body.error.details).toEqual([
      expect.objectContaining({ path: '/payment/recipient/account', code: 'required', info: { missingProperty: 'digit' } }),
    ]);
    const body = cashOut(DEAD_URL);
    const { key: _key, ...payment } = body.payment;
    const neither = await api('POST', '/accounts/pix/cashout', { ...body, payment });
    expect(neither.status).toBe(400);
    expect(neither.body.error.details).toEqual([
      expect.objectContaining({ path: '/payment', code: 'required', info: { missingProperty: 'key' } }),
    ]);
  });

  it('checks the account fields', async () => {
    await fresh();
    for (const [account, path] of [
      [{ ...ACCOUNT, ispb: '123' }, '/payment/recipient/account/ispb'],
      [{ ...ACCOUNT, branch: '12345' }, '/payment/recipient/account/branch'],
      [{ ...ACCOUNT, number: '12-3' }, '/payment/recipient/account/number'],
      [{ ...ACCOUNT, digit: '77' }, '/payment/recipient/account/digit'],
      [{ ...ACCOUNT, type: 'checking' }, '/payment/recipient/account/type'],
    ] as const) {
      const reply = await api('POST', '/accounts/pix/cashout', bankOnly(account));
      expect(reply.status, path).toBe(400);
      expect(reply.body.error.details[0].path).toBe(path);
    }
  });
});
