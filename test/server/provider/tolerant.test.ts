/**
 * The client against recorded answers that differ from the emulator's in ways the contract allows: unknown fields,
 * optional parts left out, other spellings, and shapes the contract never published (balance, document items, the
 * listing by order id). Strict where the contract defines a shape, tolerant where it does not, and the raw answer kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProviderClient, ProviderError, type ProviderClient } from '../../../server/provider';
import { startSandbox } from '../helpers/sandbox';

type Recorded = { status?: number; body: unknown; text?: boolean };
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjQxMDI0NDQ4MDB9.c2lnbmF0dXJl';

/** A provider that answers from recordings keyed by `METHOD /path`, and remembers what it was asked. */
function recorded(answers: Record<string, Recorded>) {
  const asked: URL[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    asked.push(url);
    const key = `${init?.method ?? 'GET'} ${url.pathname.replace(/^\/v1/, '')}`;
    const answer = answers[key];
    if (!answer)
      return new Response(JSON.stringify({ statusCode: 'Error', error: { name: 'NotFoundError', message: key } }), { status: 404 });
    const text = answer.text ? String(answer.body) : JSON.stringify(answer.body);
    return new Response(text, { status: answer.status ?? 200, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  const client = createProviderClient({ baseUrl: 'https://provider.example/v1', accessKey: 'k', secret: 's', fetch, retryBaseMs: 1 });
  return { client, asked };
}

const login = { 'POST /partners-int/login': { status: 201, body: TOKEN, text: true } };
const done = (data: unknown) => ({ body: { statusCode: 'Done', data } });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as ProviderError,
  );

describe('login', () => {
  it('reads a token sent as a JSON string or inside an envelope, as well as bare', async () => {
    for (const body of [JSON.stringify(TOKEN), JSON.stringify({ statusCode: 'Done', data: TOKEN }), `${TOKEN}\n`]) {
      const { client } = recorded({ 'POST /partners-int/login': { status: 201, body, text: true } });
      await expect(client.login()).resolves.toBe(TOKEN);
    }
  });
});

describe('balance (shape not published)', () => {
  it('reads the amount under other common names, keeps every field and the raw answer', async () => {
    const answer = { availableBalance: '1234.56', blockedBalance: '10.00', currency: 'BRL', updatedAt: '2026-01-15T12:00:00Z' };
    const { client } = recorded({ ...login, 'GET /partners-int/accounts/balance': done(answer) });
    const balance = await client.balance.retrieve();
    expect(balance).toMatchObject({ balance: '1234.56', currency: 'BRL', blockedBalance: '10.00' });
    expect(balance.date).toBeUndefined();
    expect(balance.raw).toEqual(answer);
  });

  it('takes a nested amount, and a JSON number as its decimal text', async () => {
    const nested = recorded({ ...login, 'GET /partners-int/accounts/balance': done({ balance: { available: '99.90', blocked: '0' } }) });
    expect((await nested.client.balance.retrieve()).balance).toBe('99.90');
    const numeric = recorded({ ...login, 'GET /partners-int/accounts/balance': done({ balance: 1500.25, currency: null, date: 17 }) });
    const read = await numeric.client.balance.retrieve();
    expect(read).toMatchObject({ balance: '1500.25' });
    // Optional parts of another type read as absent instead of failing the call.
    expect(read.currency).toBeUndefined();
    expect(read.date).toBeUndefined();
  });

  it('refuses only an answer with no amount at all, keeping it for the logs', async () => {
    const { client } = recorded({ ...login, 'GET /partners-int/accounts/balance': done({ saldo: 'muito' }) });
    const error = await failure(client.balance.retrieve());
    expect(error).toBeInstanceOf(ProviderError);
    expect(error!.errorName).toBe('InvalidResponse');
    expect(error!.message).toMatch(/no balance amount/);
    expect(error!.raw).toEqual({ statusCode: 'Done', data: { saldo: 'muito' } });
  });

  it('sends filterDate as the UTC day with the time zeroed, and the account in the path', async () => {
    const answer = done({ balance: '5.00' });
    const { client, asked } = recorded({
      ...login,
      'GET /partners-int/accounts/balance/acc-9': answer,
      'GET /partners-int/accounts/balance': answer,
    });
    await client.balance.retrieve({ accountUid: 'acc-9', filterDate: '2026-01-14' });
    await client.balance.retrieve({ filterDate: new Date('2026-01-14T21:30:00-03:00') });
    await client.balance.retrieve();
    const balanceCalls = asked.filter((url) => url.pathname.includes('/balance'));
    expect(balanceCalls.map((url) => `${url.pathname}${url.search}`)).toEqual([
      '/v1/partners-int/accounts/balance/acc-9?filterDate=2026-01-14T00%3A00%3A00.000Z',
      '/v1/partners-int/accounts/balance?filterDate=2026-01-15T00%3A00%3A00.000Z',
      '/v1/partners-int/accounts/balance',
    ]);
    await expect(client.balance.retrieve({ filterDate: 'yesterday' })).rejects.toThrow(/filterDate/);
  });
});

describe('documents (item fields not published)', () => {
  it('accepts items with only an id (or _id), with unknown fields and odd types, and keeps the raw page', async () => {
    const page = {
      limit: 50,
      offset: 0,
      total: 2,
      items: [
        { id: 'd1', fileName: 'nota.pdf', url: 'https://files.example/d1', size: '2048' },
        { _id: 'd2', title: 'Nota 2' },
      ],
    };
    const { client } = recorded({ ...login, 'GET /partners-int/documents': done(page) });
    const listed = await client.documents.list({ type: 'Invoice', ownerType: 'Transaction', owner: 'tr-1' });
    expect(listed.total).toBe(2);
    expect(listed.items[0]).toMatchObject({ id: 'd1', fileName: 'nota.pdf', url: 'https://files.example/d1' });
    expect(listed.items[0]!.size).toBeUndefined();
    expect(listed.items[1]).toMatchObject({ id: 'd2', title: 'Nota 2' });
    expect(listed.raw).toEqual(page);
  });

  it('still requires the page the contract names (limit, offset, total, items)', async () => {
    const { client } = recorded({ ...login, 'GET /partners-int/documents': done({ items: [] }) });
    const error = await failure(client.documents.list({ type: 'Invoice', ownerType: 'Transaction', owner: 'tr-1' }));
    expect(error?.errorName).toBe('InvalidResponse');
  });
});

const record = {
  transaction: {
    id: 'tx-1',
    externalResourceId: 'ext-9',
    date: '2026-01-15T12:00:00.000Z',
    type: 'Credit',
    state: 'Canceled',
    stateCancelledDate: '2026-01-15T12:05:00.000Z',
    amount: '10.500000',
    brandNewField: { nested: true },
  },
  payment: { value: { original: '10.50' }, qrCode: '000201…' },
  webhook: { url: 'https://shop.example/api/webhooks/provider', deliveryStatus: 'Sent' },
  extra: 'kept',
};

describe('transactions (shape defined by the contract)', () => {
  it('keeps unknown fields, reads the other spellings and lets optional parts be absent', async () => {
    const { client } = recorded({ ...login, 'GET /partners-int/accounts/transactions/pix/tx-1': done(record) });
    const read = await client.transactions.retrieve('tx-1');
    expect(read.transaction).toMatchObject({
      id: 'tx-1',
      state: 'Cancelled',
      externalResourceId: 'ext-9',
      brandNewField: { nested: true },
    });
    expect(read.transaction.payer).toBeUndefined();
    expect(read.webhook.deliveryStatus).toBe('Sent');
    expect(read).toMatchObject({ extra: 'kept' });
  });

  it('stays strict on what the contract defines: an unknown type or a missing id is refused', async () => {
    for (const transaction of [
      { ...record.transaction, type: 'Transfer' },
      { ...record.transaction, id: undefined },
    ]) {
      const { client } = recorded({ ...login, 'GET /partners-int/accounts/transactions/pix/tx-1': done({ ...record, transaction }) });
      const error = await failure(client.transactions.retrieve('tx-1'));
      expect(error?.errorName).toBe('InvalidResponse');
      expect(error?.raw).toMatchObject({ statusCode: 'Done' });
    }
  });

  it('lists by order id with full records in the items and keeps the raw page', async () => {
    const page = { limit: 5, offset: 0, total: 1, items: [record], next: null };
    const { client } = recorded({ ...login, 'GET /partners-int/accounts/transactions/pix': done(page) });
    const listed = await client.transactions.list({
      transactionOrderId: 'o-1',
      startDate: '2026-01-15T00:00:00.000Z',
      endDate: '2026-01-15T23:59:59.999Z',
      'dataset.limit': 5,
      'dataset.offset': 0,
    });
    expect(listed.items[0]).toMatchObject({ transaction: { id: 'tx-1', state: 'Cancelled' }, payment: { qrCode: '000201…' } });
    expect(listed.raw).toEqual(page);
  });

  it('keeps extra fields of the create answers and lets orderId be absent', async () => {
    const { client } = recorded({
      ...login,
      'POST /partners-int/accounts/pix/cashin': {
        status: 201,
        ...done({
          transaction: { id: 'tx-2', date: '2026-01-15T12:00:00.000Z', state: 'Registered', amount: '10.500000', externalId: 'e' },
          payment: { qrCode: '000201…', qrCodeLocation: 'https://provider.example/v1/system/qrcodeviewer/tx-2', qrCodeBase64: 'iVBOR' },
        }),
      },
      'POST /partners-int/accounts/payment-initiation': {
        status: 201,
        ...done({ transactionId: 'tx-3', checkoutUrl: 'https://bank.example/x', expiresIn: 600 }),
      },
    });
    const webhook = { url: 'https://shop.example/api/webhooks/provider' };
    const cashIn = await client.pix.createCashIn({ payment: { value: { original: '10.50' } }, webhook });
    expect(cashIn.transaction.orderId).toBeUndefined();
    expect(cashIn.payment).toMatchObject({ qrCodeBase64: 'iVBOR' });
    const initiation = await client.openFinance.createInitiation({
      payment: { payer: { taxNumber: '52998224725' }, value: { original: '10.00' }, redirectUrl: 'https://shop.example/back' },
      webhook,
    });
    expect(initiation).toMatchObject({ transactionId: 'tx-3', expiresIn: 600 });
  });

  it('refuses a create answer without what the contract requires (the copy-and-paste code)', async () => {
    const { client } = recorded({
      ...login,
      'POST /partners-int/accounts/pix/cashin': {
        status: 201,
        ...done({ transaction: { id: 'tx-2', date: '2026-01-15T12:00:00.000Z', state: 'Registered', amount: '10.5' }, payment: {} }),
      },
    });
    const error = await failure(
      client.pix.createCashIn({ payment: { value: { original: '10.50' } }, webhook: { url: 'https://x.example/h' } }),
    );
    expect(error?.errorName).toBe('InvalidResponse');
  });
});

describe('errors', () => {
  it('keeps the provider name when details or message are off the two shapes the contract shows', async () => {
    const { client } = recorded({
      ...login,
      'GET /partners-int/accounts/transactions/pix/tx-1': {
        status: 409,
        body: { statusCode: 'Error', error: { name: 'OperationError', details: 'Saldo insuficiente', traceId: 't-1' } },
      },
    });
    const error = await failure(client.transactions.retrieve('tx-1'));
    expect(error).toMatchObject({ status: 409, errorName: 'OperationError', details: undefined });
    expect(error!.raw).toMatchObject({ error: { details: 'Saldo insuficiente', traceId: 't-1' } });
  });

  it("keeps details' externalReason (the bank's reason)", async () => {
    const { client } = recorded({
      ...login,
      'POST /partners-int/accounts/pix/cashout': {
        status: 409,
        body: {
          statusCode: 'Error',
          error: { name: 'OperationError', message: 'Refused', details: { reason: 'CounterpartyServiceError', externalReason: 'AC03' } },
        },
      },
    });
    const error = await failure(
      client.pix.createCashOut({
        payment: { recipient: { name: 'A', cpf: '52998224725' }, key: { type: 'EVP', value: 'x' }, value: '1.00' },
        transaction: { orderId: 'o' },
        webhook: { url: 'https://x.example/h' },
      }),
    );
    expect(error).toMatchObject({ reason: 'CounterpartyServiceError', details: { externalReason: 'AC03' } });
  });
});

describe('cash-out key spellings of real integrations (against the emulator)', () => {
  let env: Awaited<ReturnType<typeof startSandbox>>;
  let client: ProviderClient;
  beforeAll(async () => {
    env = await startSandbox();
    client = env.client();
  });
  afterAll(() => env.close());

  const cashOut = (key: { type: string; value: string }) =>
    client.pix.createCashOut({
      payment: { recipient: { name: 'João Souza', cpf: '52998224725' }, key: key as never, value: '5.00' },
      transaction: { orderId: 'payout-1' },
      webhook: { url: 'http://127.0.0.1:9/hooks' },
    });

  it('says a lower-case key type must be upper case, and which one was meant', async () => {
    for (const [type, meant] of [
      ['cpf', 'CPF'],
      ['e-mail', 'EMAIL'],
      ['phone', 'PHONE'],
      ['evp', 'EVP'],
    ] as const) {
      const error = await failure(cashOut({ type, value: '52998224725' }));
      expect(error).toMatchObject({ status: 400, errorName: 'InvalidRequestFormatError' });
      expect(error!.message).toContain(`key type "${type}"`);
      expect(error!.message).toContain('upper case, one of CPF, EMAIL, PHONE or EVP');
      expect(error!.message).toContain(`"${meant}" here`);
      expect(error!.validation).toContainEqual(expect.objectContaining({ path: '/payment/key/type', code: 'enum' }));
    }
  });

  it('says a phone key needs +55, with the key it should have been', async () => {
    const error = await failure(cashOut({ type: 'PHONE', value: '11987654321' }));
    expect(error!.message).toContain('a PHONE key is +55, the area code and the number');
    expect(error!.message).toContain('"+5511987654321" here');
  });

  it('leaves other refusals as the provider worded them', async () => {
    const error = await failure(cashOut({ type: 'EMAIL', value: 'not-an-address' }));
    expect(error!.message).not.toContain('upper case');
    expect(error!.validation).toContainEqual(expect.objectContaining({ path: '/payment/key/value', code: 'format' }));
  });
});

describe("a transaction's record read for its status (view: 'status')", () => {
  const record = (transaction: Record<string, unknown>) => ({
    transaction: {
      id: 'tx-1',
      date: '2026-01-15T12:00:00Z',
      type: 'Credit',
      state: 'Completed',
      amount: '54.90',
      stateCompletedDate: '2026-01-15T12:01:00Z',
      charges: '0.599000',
      payer: { bankName: 'Banco Exemplo', name: 'Ana', taxNumber: '***.456.789-**' },
      ...transaction,
    },
    payment: { key: 'k' },
    webhook: {},
  });
  const PATH = 'GET /partners-int/accounts/transactions/pix/tx-1';
  const both = (transaction: Record<string, unknown>) => {
    const { client } = recorded({ ...login, [PATH]: done(record(transaction)) });
    return { status: client.transactions.retrieve('tx-1', { view: 'status' }), whole: client.transactions.retrieve('tx-1') };
  };

  it('checks the fields the status and its receipt rest on as strictly as the whole record does', async () => {
    for (const broken of [
      { state: 'Paid' },
      { state: undefined },
      { charges: '0,59' },
      { stateCompletedDate: 17 },
      { payer: { bankName: 3 } },
    ]) {
      const { status, whole } = both(broken);
      expect((await failure(status))?.errorName, JSON.stringify(broken)).toBe('InvalidResponse');
      expect((await failure(whole))?.errorName, JSON.stringify(broken)).toBe('InvalidResponse');
    }
  });

  it('leaves the rest of the record out, unchecked, where the whole record refuses it', async () => {
    const { status, whole } = both({ amount: 'a lot', type: 'Sideways', recipient: 'somebody' });
    expect(await status).toEqual({
      transaction: {
        id: 'tx-1',
        state: 'Completed',
        stateCompletedDate: '2026-01-15T12:01:00Z',
        charges: '0.599000',
        payer: { bankName: 'Banco Exemplo' },
      },
    });
    expect((await failure(whole))?.errorName).toBe('InvalidResponse');
  });
});
