/**
 * Contract tests: the typed client against the emulator over a real loopback socket. Each operation of the
 * partner API, each documented refusal, every state transition, token handling and webhook delivery.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderConfigError, ProviderError, webhookEvent, type ProviderClient } from '../../../server/provider';
import { decodeBrCode } from '../../../server/sandbox/brcode';
import { MAGIC_CPFS } from '../../../server/sandbox/defaults';
import { sendJson, startRecordingServer } from '../helpers/http';
import { startSandbox } from '../helpers/sandbox';

const CPF = '52998224725';
const SECRET_HEADER = { customHeaderName: 'X-Shop-Secret', customHeaderValue: 'shh-123' };

let env: Awaited<ReturnType<typeof startSandbox>>;
let receiver: Awaited<ReturnType<typeof startRecordingServer>>;
let failing: Awaited<ReturnType<typeof startRecordingServer>>;
let client: ProviderClient;

beforeAll(async () => {
  env = await startSandbox({ registerDelayMs: 20 });
  receiver = await startRecordingServer((_req, res) => sendJson(res, 200, { ok: true }));
  failing = await startRecordingServer((_req, res) => sendJson(res, 500, {}));
  client = env.client();
});
afterAll(async () => {
  await env.close();
  await receiver.close();
  await failing.close();
});

let orders = 0;
const webhook = (url = `${receiver.url}/hook`) => ({ url, ...SECRET_HEADER });
const cashIn = (extra: { payer?: { cpf: string; name?: string }; editable?: boolean; url?: string } = {}) =>
  client.pix.createCashIn({
    payment: {
      ...(extra.payer ? { payer: extra.payer } : {}),
      value: { original: '25.50', ...(extra.editable ? { editable: true } : {}) },
    },
    transaction: { orderId: `order-${++orders}`, orderDescription: 'Contract test' },
    webhook: webhook(extra.url),
  });
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as ProviderError,
  );
const deliveriesFor = (id: string) => receiver.requests.filter((r) => JSON.parse(r.body || '{}').id === id);

describe('authentication', () => {
  it('logs in once and reuses the token across calls', async () => {
    const fresh = env.client();
    await Promise.all([fresh.balance.retrieve(), fresh.balance.retrieve(), fresh.balance.retrieve()]);
    await fresh.balance.retrieve();
    expect(fresh.tokens.logins).toBe(1);
  });

  it('logs in again when the emulator says the token expired', async () => {
    const fresh = env.client();
    await fresh.balance.retrieve();
    env.clock.advance(2 * 60 * 60_000);
    await expect(fresh.balance.retrieve()).resolves.toMatchObject({ currency: 'BRL' });
    expect(fresh.tokens.logins).toBe(2);
  });

  it('reports a refused key pair as a configuration error', async () => {
    const error = await refusal(env.client({ secret: 'wrong' }).balance.retrieve());
    expect(error).toBeInstanceOf(ProviderConfigError);
    expect(error).toMatchObject({
      status: 401,
      errorName: 'AuthenticationError',
      code: 'AuthenticationError',
      reason: 'AccessKeyUnauthorized',
    });
  });

  it('answers a login without secret with 400 naming it', async () => {
    const error = await refusal(env.client({ secret: undefined as unknown as string }).login());
    expect(error).toMatchObject({ status: 400, errorName: 'InvalidRequestFormatError' });
    expect(error!.validation).toContainEqual(expect.objectContaining({ path: '', code: 'required', info: { missingProperty: 'secret' } }));
  });
});

describe('PIX cash-in', () => {
  it('creates an identified cash-in, Registered, with a valid BR Code of the amount and a QR image', async () => {
    const created = await cashIn({ payer: { cpf: CPF, name: 'Maria' } });
    expect(created.transaction).toMatchObject({ state: 'Registered', orderId: `order-${orders}` });
    const code = decodeBrCode(created.payment.qrCode);
    expect(code.crcValid).toBe(true);
    expect(code.amount).toBe('25.50');
    const image = await fetch(created.payment.qrCodeLocation);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/image\//);
  });

  it('creates an anonymous cash-in and an editable one without a fixed amount in the code', async () => {
    const anonymous = await cashIn();
    expect((await client.transactions.retrieve(anonymous.transaction.id)).payment.payer ?? null).toBeNull();
    const editable = await cashIn({ editable: true });
    expect(decodeBrCode(editable.payment.qrCode).amount).toBeUndefined();
  });

  it('refuses an empty payer object with 400 naming cpf at /payment/payer', async () => {
    const error = await refusal(
      client.pix.createCashIn({ payment: { payer: {} as { cpf: string }, value: { original: '1.00' } }, webhook: webhook() }),
    );
    expect(error).toMatchObject({ status: 400, errorName: 'InvalidRequestFormatError' });
    expect(error!.validation).toContainEqual(
      expect.objectContaining({ path: '/payment/payer', code: 'required', info: { missingProperty: 'cpf' } }),
    );
  });

  it.each([
    ['wrong check digits', '52998224724', 'CounterpartyTaxNumberInvalid'],
    ['repeated digits', '11111111111', 'CounterpartyTaxNumberInvalid'],
    ['a refused real-looking CPF', MAGIC_CPFS.serviceError[0], 'CounterpartyServiceError'],
  ])('refuses %s with 409', async (_name, cpf, reason) => {
    const error = await refusal(cashIn({ payer: { cpf } }));
    expect(error).toMatchObject({ status: 409, errorName: 'OperationError', reason });
  });
});

describe('PIX cash-out', () => {
  const cashOut = (key: { type?: 'CPF' | 'EMAIL' | 'PHONE' | 'EVP'; value: string }, value = '5.00') =>
    client.pix.createCashOut({
      payment: { recipient: { name: 'João', cpf: CPF }, key, value },
      transaction: { orderId: `out-${++orders}` },
      webhook: webhook(),
    });

  it('starts Created and then registers on its own', async () => {
    const created = await cashOut({ type: 'EMAIL', value: 'joao@example.com' });
    expect(created.transaction.state).toBe('Created');
    await expect.poll(async () => (await client.transactions.retrieve(created.transaction.id)).transaction.state).toBe('Registered');
  });

  it('refuses a missing value (400), an unknown key type (400 enum) and a missing key type (409)', async () => {
    const noValue = await refusal(
      client.pix.createCashOut({
        payment: { recipient: { name: 'J', cpf: CPF }, key: { type: 'CPF', value: CPF } } as never,
        transaction: { orderId: 'x' },
        webhook: webhook(),
      }),
    );
    expect(noValue!.validation).toContainEqual(
      expect.objectContaining({ path: '/payment', code: 'required', info: { missingProperty: 'value' } }),
    );

    const badType = await refusal(cashOut({ type: 'IBAN' as 'CPF', value: 'x' }));
    expect(badType!.validation).toContainEqual(
      expect.objectContaining({ path: '/payment/key/type', code: 'enum', info: { allowedValues: ['CPF', 'EMAIL', 'PHONE', 'EVP'] } }),
    );

    expect(await refusal(cashOut({ value: CPF }))).toMatchObject({ status: 409, reason: 'PixKeyTypeNotAllowed' });
  });
});

describe('OpenFinance', () => {
  it('creates an initiation whose checkout page exists, and completes or errors it through the sandbox', async () => {
    const initiation = await client.openFinance.createInitiation({
      payment: { payer: { taxNumber: CPF }, value: { original: '12.34' }, redirectUrl: 'http://127.0.0.1:9/back' },
      transaction: { orderId: `of-${++orders}` },
      webhook: webhook(),
    });
    expect((await fetch(initiation.checkoutUrl)).status).toBe(200);
    await expect(client.sandbox.openFinance.complete(initiation.transactionId)).resolves.toMatchObject({ transactionState: 'Completed' });
    expect(await refusal(client.sandbox.openFinance.error(initiation.transactionId))).toMatchObject({ status: 409 });
  });
});

describe('transitions through the sandbox', () => {
  it('completes a Registered cash-in with receipt, participants and charges, and sends the webhook', async () => {
    const created = await cashIn({ payer: { cpf: CPF } });
    await expect(client.sandbox.pix.complete(created.transaction.id, { name: 'Maria', taxNumber: CPF })).resolves.toMatchObject({
      transactionId: created.transaction.id,
      transactionState: 'Completed',
    });
    const { transaction, webhook: hook } = await client.transactions.retrieve(created.transaction.id);
    expect(transaction).toMatchObject({ state: 'Completed', amount: '25.500000', stateErrorDate: null, stateCancelledDate: null });
    expect(transaction.stateCompletedDate).toBeTruthy();
    expect(transaction.receiptUrl).toBeTruthy();
    expect(transaction.payer).toMatchObject({ name: 'Maria', taxNumber: CPF });
    expect(transaction.charges).toMatch(/^\d+\.\d{6}$/);
    expect(hook.deliveryStatus).toBe('Success');

    const [delivery] = deliveriesFor(created.transaction.id);
    expect(delivery?.method).toBe('POST');
    expect(delivery?.headers['x-shop-secret']).toBe('shh-123');
    const payload = webhookEvent.parse(JSON.parse(delivery!.body));
    expect(payload).toMatchObject({ id: created.transaction.id, transactionState: 'Completed', transactionAmount: '25.500000' });
  });

  it.each([
    ['error', 'Error'],
    ['cancel', 'Cancelled'],
    ['reverse', 'Reversed'],
  ] as const)('moves a Registered cash-in with %s to %s', async (operation, state) => {
    const created = await cashIn();
    const result = await client.sandbox.pix[operation](created.transaction.id);
    expect(result.transactionState).toBe(state);
    expect((await client.transactions.retrieve(created.transaction.id)).transaction.state).toBe(state);
    expect(deliveriesFor(created.transaction.id).map((r) => JSON.parse(r.body).transactionState)).toEqual([state]);
  });

  it('refuses every simulation on a final transaction with 409, and an unknown one with 404', async () => {
    const created = await cashIn();
    await client.sandbox.pix.complete(created.transaction.id, { name: 'M', taxNumber: CPF });
    for (const operation of ['complete', 'error', 'cancel', 'reverse'] as const) {
      expect(await refusal(client.sandbox.pix[operation](created.transaction.id))).toMatchObject({ status: 409 });
    }
    expect(await refusal(client.sandbox.pix.complete('does-not-exist'))).toMatchObject({ status: 404 });
    expect(await refusal(client.transactions.retrieve('does-not-exist'))).toMatchObject({ status: 404 });
  });

  it('refuses a simulation whose webhook cannot be delivered with a 4xx, keeping the change (never undone: docs/spec-gaps.md)', async () => {
    const created = await cashIn({ url: `${failing.url}/hook` });
    const error = await refusal(client.sandbox.pix.complete(created.transaction.id, { name: 'M', taxNumber: CPF }));
    expect(error!.status).toBeGreaterThanOrEqual(400);
    expect(error!.status).toBeLessThan(500);
    expect((await client.transactions.retrieve(created.transaction.id)).transaction.state).toBe('Completed');
  });
});

describe('reads', () => {
  it('reads the record with POST when configured', async () => {
    const created = await cashIn();
    const viaPost = env.client({ transactionRecordMethod: 'POST' });
    await expect(viaPost.transactions.retrieve(created.transaction.id)).resolves.toMatchObject({
      transaction: { id: created.transaction.id },
    });
  });

  it('lists the transactions of one order within a day', async () => {
    const created = await cashIn();
    const now = env.clock.now();
    const list = await client.transactions.list({
      transactionOrderId: created.transaction.orderId!,
      startDate: new Date(now.getTime() - 3_600_000).toISOString(),
      endDate: new Date(now.getTime() + 3_600_000).toISOString(),
      'dataset.limit': 10,
      'dataset.offset': 0,
    });
    expect(list.total).toBe(1);
    expect(list.items[0]?.transaction.id).toBe(created.transaction.id);
  });

  it('derives the balance from completed credits, exactly', async () => {
    const before = await client.balance.retrieve();
    const created = await cashIn();
    await client.sandbox.pix.complete(created.transaction.id, { name: 'M', taxNumber: CPF });
    const after = await client.balance.retrieve();
    const { charges } = (await client.transactions.retrieve(created.transaction.id)).transaction;
    const toMicros = (s: string) => {
      const [whole, fraction = ''] = s.split('.');
      return BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, '0').slice(0, 6));
    };
    expect(toMicros(after.balance) - toMicros(before.balance)).toBe(toMicros('25.50') - toMicros(charges!));
  });
});
