import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope } from '../../../server/provider/schemas';
import { MAGIC_CPFS } from '../../../server/sandbox';
import { cashIn, cashOut, client, initiation, makeSandbox, type Api } from './helpers';

const HOOK = 'http://127.0.0.1:1/hooks';
let api: Api;
let close: () => void;
beforeAll(async () => {
  const { sandbox } = makeSandbox();
  close = () => sandbox.close();
  api = await client(sandbox);
});
afterAll(() => close());

const without = <T extends object>(value: T, ...keys: string[]) =>
  Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key)));

async function expect400(path: string, body: unknown) {
  const reply = await api('POST', path, body);
  expect(reply.status, reply.text).toBe(400);
  const error = errorEnvelope.parse(reply.body).error;
  expect(error.name).toBe('InvalidRequestFormatError');
  return error.details as { path: string; code: string; info: Record<string, unknown> }[];
}

async function expect409(path: string, body: unknown, reason: string) {
  const reply = await api('POST', path, body);
  expect(reply.status, reply.text).toBe(409);
  expect(reply.body.error).toMatchObject({ name: 'OperationError', details: { reason } });
  return reply.body.error as { message: string };
}

describe("the spec's 400 examples", () => {
  it('cash-in with an empty payer: cpf required at /payment/payer', async () => {
    const body = cashIn(HOOK, { payment: { payer: {} } });
    expect(await expect400('/accounts/pix/cashin', body)).toEqual([
      { path: '/payment/payer', code: 'required', message: expect.any(String), info: { missingProperty: 'cpf' } },
    ]);
  });

  it('cash-out without payment.value: value required at /payment', async () => {
    const body = cashOut(HOOK);
    body.payment = without(body.payment, 'value') as typeof body.payment;
    expect(await expect400('/accounts/pix/cashout', body)).toEqual([
      { path: '/payment', code: 'required', message: expect.any(String), info: { missingProperty: 'value' } },
    ]);
  });

  it('cash-out with a key type outside CPF, EMAIL, PHONE, EVP: enum at /payment/key/type', async () => {
    for (const type of ['CNPJ', 'email', 'e-mail', '']) {
      expect(await expect400('/accounts/pix/cashout', cashOut(HOOK, { key: { type, value: 'joao@example.com' } }))).toEqual([
        { path: '/payment/key/type', code: 'enum', message: expect.any(String), info: { allowedValues: ['CPF', 'EMAIL', 'PHONE', 'EVP'] } },
      ]);
    }
  });

  it('reports every problem of a body at once', async () => {
    const details = await expect400('/accounts/pix/cashin', { payment: { payer: {} } });
    expect(details.map((d) => `${d.path}:${String(d.info.missingProperty)}`).sort()).toEqual(
      ['/payment/payer:cpf', '/payment:value', ':webhook'].sort(),
    );
  });
});

describe('other malformed values', () => {
  it.each([
    ['a number instead of a string', { payment: { value: { original: 10.5 } } }, '/payment/value/original', 'type'],
    ['a comma decimal', { payment: { value: { original: '10,50' } } }, '/payment/value/original', 'pattern'],
    ['three significant decimals', { payment: { value: { original: '10.505' } } }, '/payment/value/original', 'format'],
    ['a zero amount', { payment: { value: { original: '0.00' } } }, '/payment/value/original', 'minimum'],
    ['an amount over the limit', { payment: { value: { original: '1000000.01' } } }, '/payment/value/original', 'maximum'],
    // Exact, but more cents than a number holds exactly (2^53): over the limit all the same, never a crash or a rounding.
    ['an amount of 2^53 cents', { payment: { value: { original: '90071992547409.92' } } }, '/payment/value/original', 'maximum'],
    ['an amount of thirty digits', { payment: { value: { original: `1${'0'.repeat(29)}.00` } } }, '/payment/value/original', 'maximum'],
    ['editable as text', { payment: { value: { original: '1.00', editable: 'yes' } } }, '/payment/value/editable', 'type'],
  ])('cash-in with %s → 400 %s', async (_name, override, path, code) => {
    const base = cashIn(HOOK);
    const body = { ...base, payment: { ...base.payment, ...override.payment } };
    const details = await expect400('/accounts/pix/cashin', body);
    expect(details).toContainEqual(expect.objectContaining({ path, code }));
  });

  it('refuses a webhook address that is not an absolute http(s) URL', async () => {
    for (const url of ['not a url', '/relative', 'ftp://example.com/x']) {
      const details = await expect400('/accounts/pix/cashin', { ...cashIn(HOOK), webhook: { url } });
      expect(details).toEqual([expect.objectContaining({ path: '/webhook/url', code: 'format' })]);
    }
  });

  it('refuses a custom header that cannot be sent', async () => {
    for (const webhook of [
      { url: HOOK, customHeaderName: 'bad header', customHeaderValue: 'x' },
      { url: HOOK, customHeaderName: 'content-type', customHeaderValue: 'x' },
      { url: HOOK, customHeaderName: 'x-ok', customHeaderValue: 'line\r\nbreak' },
    ]) {
      const details = await expect400('/accounts/pix/cashin', { ...cashIn(HOOK), webhook });
      expect(details[0]!.path).toMatch(/^\/webhook\/customHeader(Name|Value)$/);
    }
  });

  it('refuses a cash-out key value that does not fit its key type with 400 at /payment/key/value', async () => {
    for (const key of [
      { type: 'CPF', value: '12345678900' },
      { type: 'EMAIL', value: 'not-an-email' },
      { type: 'PHONE', value: '11987654321' },
      { type: 'PHONE', value: '+551198765' },
      { type: 'EVP', value: 'not-a-uuid' },
    ]) {
      const details = await expect400('/accounts/pix/cashout', cashOut(HOOK, { key }));
      expect(details, JSON.stringify(key)).toEqual([expect.objectContaining({ path: '/payment/key/value', code: 'format' })]);
    }
  });

  it('accepts a well-formed key of every type', async () => {
    for (const key of [
      { type: 'CPF', value: '529.982.247-25' },
      { type: 'EMAIL', value: 'ana@example.com.br' },
      { type: 'PHONE', value: '+5511987654321' },
      { type: 'EVP', value: '123e4567-e89b-42d3-a456-426614174000' },
    ]) {
      expect((await api('POST', '/accounts/pix/cashout', cashOut(HOOK, { key }))).status, JSON.stringify(key)).toBe(201);
    }
  });

  it('validates the listing query with the same detail items', async () => {
    const reply = await api('GET', '/accounts/transactions/pix?transactionOrderId=a&dataset.limit=7&dataset.offset=0');
    expect(reply.status).toBe(400);
    expect(reply.body.error.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '', code: 'required', info: { missingProperty: 'startDate' } }),
        expect.objectContaining({ path: '/dataset.limit', code: 'enum', info: { allowedValues: [5, 10, 20] } }),
      ]),
    );
  });
});

describe('409 OperationError', () => {
  it.each<[string]>([['52998224724'], ['11111111111'], ['00000000000'], ['123'], ...MAGIC_CPFS.restricted.map((c): [string] => [c])])(
    'CounterpartyTaxNumberInvalid for CPF %s, naming it',
    async (cpf) => {
      const error = await expect409('/accounts/pix/cashin', cashIn(HOOK, { payment: { payer: { cpf } } }), 'CounterpartyTaxNumberInvalid');
      expect(error.message).toContain(cpf);
    },
  );

  it.each(MAGIC_CPFS.serviceError.map((c) => [c]))('CounterpartyServiceError for the magic CPF %s, on every operation', async (cpf) => {
    await expect409('/accounts/pix/cashin', cashIn(HOOK, { payment: { payer: { cpf } } }), 'CounterpartyServiceError');
    await expect409('/accounts/pix/cashout', cashOut(HOOK, { recipient: { name: 'X', cpf } }), 'CounterpartyServiceError');
    const body = initiation(HOOK);
    await expect409(
      '/accounts/payment-initiation',
      { ...body, payment: { ...body.payment, payer: { taxNumber: cpf } } },
      'CounterpartyServiceError',
    );
  });

  it('PixKeyTypeNotAllowed when the cash-out key type is missing', async () => {
    await expect409('/accounts/pix/cashout', cashOut(HOOK, { key: { value: 'joao@example.com' } }), 'PixKeyTypeNotAllowed');
  });

  it('CounterpartyTaxNumberInvalid for an invalid OpenFinance payer', async () => {
    const body = initiation(HOOK);
    await expect409(
      '/accounts/payment-initiation',
      { ...body, payment: { ...body.payment, payer: { taxNumber: '99999999999' } } },
      'CounterpartyTaxNumberInvalid',
    );
  });

  it('InsufficientBalance when a cash-out exceeds what the account holds', async () => {
    await expect409('/accounts/pix/cashout', cashOut(HOOK, { value: '999999.00' }), 'InsufficientBalance');
  });
});
