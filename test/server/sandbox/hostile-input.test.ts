/**
 * Hostile input never gives the emulator a 5xx: dates out of range, NUL and lone surrogates anywhere in a request,
 * JSON nested too deeply, malformed percent escapes. Each is a 4xx in the provider's envelope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope } from '../../../server/provider/schemas';
import type { Sandbox } from '../../../server/sandbox';
import { ADMIN_KEY_HEADER } from '../../../server/sandbox';
import { documentBody, paymentBody, SEED } from './company-helpers';
import { ADMIN_KEY, API, type Api, call, cashIn, cashOut, client, initiation, makeSandbox, type Reply } from './helpers';

let sandbox: Sandbox;
let api: Api;
let token: string;
let txId: string;
let requestId: string;
beforeAll(async () => {
  sandbox = makeSandbox().sandbox;
  api = await client(sandbox);
  token = (await call(sandbox, 'POST', `${API}/login`, { accessKey: 'sandbox-access-key', secret: 'sandbox-secret' })).text;
  txId = (await api('POST', '/accounts/pix/cashin', cashIn('http://127.0.0.1:9/h'))).body.data.transaction.id;
  requestId = (await api('POST', '/accounts/transaction-requests', paymentBody())).body.data.id;
});
afterAll(() => sandbox.close());

const HOOK = 'http://127.0.0.1:9/hooks';
const adminHeaders = { [ADMIN_KEY_HEADER]: ADMIN_KEY };

function expectRefusal(reply: Reply, status = 400) {
  expect(reply.status, reply.text).toBe(status);
  return errorEnvelope.parse(reply.body).error;
}

const listing = (startDate: string, endDate: string) =>
  api(
    'GET',
    `/accounts/transactions/pix?${new URLSearchParams({
      transactionOrderId: 'order-1',
      startDate,
      endDate,
      'dataset.limit': '5',
      'dataset.offset': '0',
    })}`,
  );

const requestListing = (startDate: string, endDate: string) =>
  api(
    'GET',
    `/accounts/transaction-requests?${new URLSearchParams({ 'dataset.limit': '5', 'dataset.offset': '0', status: 'Pending', startDate, endDate })}`,
  );

describe('dates in queries', () => {
  const OUT_OF_RANGE = [
    '+275760-09-13',
    '-000001-01-01',
    '+010000-01-01',
    '1999-12-31',
    '2101-01-01',
    '9999-12-31T23:59:59Z',
    '0000-01-01',
  ];
  const MALFORMED = [
    '275760-09-13',
    '2026-02-30',
    '2026-13-01',
    '2026-00-10',
    '2026-01-01T24:00:00Z',
    '2026-01-01T10:60:00Z',
    '2026-01-01T00:00:00+99:99',
    '2026-1-1',
    '20260101',
    '1e10',
    '1767225600000',
    'Infinity',
    'now',
    '',
    ' 2026-01-01',
    '2026-01-01 ',
    'Thu, 01 Jan 2026 00:00:00 GMT',
  ];

  it.each([...OUT_OF_RANGE, ...MALFORMED])('balance filterDate=%j → 400', async (value) => {
    const error = expectRefusal(await api('GET', `/accounts/balance?filterDate=${encodeURIComponent(value)}`));
    expect(error.details).toEqual([expect.objectContaining({ path: '/filterDate' })]);
  });

  it.each(OUT_OF_RANGE)('the transaction listing refuses %s at either end', async (value) => {
    expectRefusal(await listing(value, value));
    expectRefusal(await listing('2026-01-15T00:00:00Z', value));
  });

  it.each(OUT_OF_RANGE)('the payment request listing refuses %s at either end', async (value) => {
    expect(expectRefusal(await requestListing(value, '2026-01-16T00:00:00Z')).details).toEqual([
      expect.objectContaining({ path: '/startDate' }),
    ]);
    expect(expectRefusal(await requestListing('2026-01-01T00:00:00Z', value)).details).toEqual([
      expect.objectContaining({ path: '/endDate' }),
    ]);
  });

  it('names the limit it broke', async () => {
    const early = expectRefusal(await api('GET', '/accounts/balance?filterDate=1999-12-31'));
    expect(early.details).toEqual([expect.objectContaining({ code: 'formatMinimum', info: { limit: '2000-01-01' } })]);
    const late = expectRefusal(await api('GET', '/accounts/balance?filterDate=%2B275760-09-13'));
    expect(late.details).toEqual([expect.objectContaining({ code: 'formatMaximum', info: { limit: '2100-12-31' } })]);
  });

  it.each([
    ['2000-01-01', '2000-01-01T23:59:59.999Z'],
    ['2100-12-31', '2100-12-31T23:59:59.999Z'],
    ['2026-01-15', '2026-01-15T23:59:59.999Z'],
    ['2026-01-15T00:00:00.000Z', '2026-01-15T23:59:59.999Z'],
    ['2026-01-15T23:30', '2026-01-15T23:59:59.999Z'],
    ['2026-01-15 23:30:00', '2026-01-15T23:59:59.999Z'],
    ['2026-01-15T22:00:00-03:00', '2026-01-16T23:59:59.999Z'],
    ['2028-02-29', '2028-02-29T23:59:59.999Z'],
  ])('balance filterDate=%s is the day ending %s (UTC without an offset)', async (value, date) => {
    const reply = await api('GET', `/accounts/balance?filterDate=${encodeURIComponent(value)}`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data.date).toBe(date);
  });

  it('still lists within the range', async () => {
    expect((await listing('2026-01-15T00:00:00Z', '2026-01-15T23:00:00Z')).body.data.total).toBe(1);
    expect((await requestListing('2026-01-01', '2026-12-31')).status).toBe(200);
  });
});

const NUL = 'a\u0000b';
const HIGH = 'x\uD800y';
const LOW = '\uDC00';
const REVERSED_PAIR = '\uDC00\uD800';

describe('NUL and lone surrogates in JSON bodies', () => {
  const bodies: [name: string, send: (bad: string) => Promise<Reply>, path: string][] = [
    ['login accessKey', (bad) => call(sandbox, 'POST', `${API}/login`, { accessKey: bad, secret: 's' }), '/accessKey'],
    [
      'cash-in orderId',
      (bad) => api('POST', '/accounts/pix/cashin', cashIn(HOOK, { transaction: { orderId: bad } })),
      '/transaction/orderId',
    ],
    [
      'cash-in payer name',
      (bad) => api('POST', '/accounts/pix/cashin', cashIn(HOOK, { payment: { payer: { cpf: '52998224725', name: bad } } })),
      '/payment/payer/name',
    ],
    [
      'cash-out recipient name',
      (bad) => api('POST', '/accounts/pix/cashout', cashOut(HOOK, { recipient: { name: bad, cpf: '52998224725' } })),
      '/payment/recipient/name',
    ],
    [
      'initiation description',
      (bad) => api('POST', '/accounts/payment-initiation', { ...initiation(HOOK), transaction: { orderId: 'o', orderDescription: bad } }),
      '/transaction/orderDescription',
    ],
    ['complete name', (bad) => api('POST', `/sandbox/transactions/complete/${txId}`, { name: bad }), '/name'],
    ['error body', (bad) => api('POST', `/sandbox/transactions/error/${txId}`, { anything: [bad] }), '/anything/0'],
    [
      'payment request description',
      (bad) => api('POST', '/accounts/transaction-requests', paymentBody({ description: bad })),
      '/description',
    ],
    ['document file name', (bad) => api('POST', '/documents', documentBody(requestId, { fileName: bad })), '/fileName'],
    [
      'admin receiver name',
      (bad) => call(sandbox, 'POST', '/admin/receivers', { companyFantasyName: bad, companyCNPJ: '87.654.321/0001-98' }, adminHeaders),
      '/companyFantasyName',
    ],
    [
      'admin decision comment',
      (bad) => call(sandbox, 'POST', `/admin/receivers/${SEED.pending}/approve`, { reviewNote: bad }, adminHeaders),
      '/reviewNote',
    ],
    ['a key of the body', (bad) => api('POST', '/accounts/pix/cashin', { ...cashIn(HOOK), [bad]: 1 }), ''],
    ['a nested key', (bad) => api('POST', '/accounts/pix/cashin', { ...cashIn(HOOK), extra: { [bad]: 1 } }), '/extra'],
  ];
  const cases = bodies.flatMap(([name, send, path]) =>
    [
      ['NUL', NUL],
      ['a lone high surrogate', HIGH],
      ['a lone low surrogate', LOW],
      ['a reversed pair', REVERSED_PAIR],
    ].map(([what, bad]) => ({ name, send, path, what: what!, bad: bad! })),
  );

  it.each(cases)('$name with $what → 400 at $path', async ({ send, path, bad }) => {
    const error = expectRefusal(await send(bad));
    expect(error.name).toBe('InvalidRequestFormatError');
    expect(error.details).toEqual([expect.objectContaining({ path, code: 'format' })]);
  });

  it('takes well-formed text outside the BMP, and escaped characters other than NUL', async () => {
    const reply = await api(
      'POST',
      '/accounts/pix/cashin',
      cashIn(HOOK, { transaction: { orderId: 'emoji-1', orderDescription: 'Café ☕ 💳 \u0001 "q" \\ /' } }),
    );
    expect(reply.status, reply.text).toBe(201);
    const record = await api('GET', `/accounts/transactions/pix/${reply.body.data.transaction.id}`);
    expect(record.body.data.transaction.orderDescription).toBe('Café ☕ 💳 \u0001 "q" \\ /');
  });
});

describe('deep JSON', () => {
  const nested = (depth: number) => '['.repeat(depth - 1) + '{}' + ']'.repeat(depth - 1);

  it.each([33, 100, 20_000])('%i levels → 400 maxDepth before parsing', async (depth) => {
    const body = JSON.stringify({ ...cashIn(HOOK), extra: 'PLACEHOLDER' }).replace('"PLACEHOLDER"', nested(depth - 1));
    const error = expectRefusal(
      await call(sandbox, 'POST', `${API}/accounts/pix/cashin`, body, {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
      }),
    );
    expect(error.details).toEqual([expect.objectContaining({ code: 'maxDepth', info: { limit: 32 } })]);
  });

  it('accepts 32 levels, and brackets inside strings do not count', async () => {
    const body = JSON.stringify({ ...cashIn(HOOK), extra: 'PLACEHOLDER' }).replace('"PLACEHOLDER"', nested(31));
    const deepest = await call(sandbox, 'POST', `${API}/accounts/pix/cashin`, body, {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
    });
    expect(deepest.status, deepest.text).toBe(201);
    const brackets = await api(
      'POST',
      '/accounts/pix/cashin',
      cashIn(HOOK, { transaction: { orderId: 'b', orderDescription: '[{\\"['.repeat(200) } }),
    );
    expect(brackets.status, brackets.text).toBe(201);
  });

  it.each([
    ['login', `${API}/login`],
    ['a simulation', `${API}/sandbox/transactions/cancel/x`],
    ['the admin routes', '/admin/receivers'],
  ])('is refused on %s too', async (_name, path) => {
    const reply = await call(sandbox, 'POST', path, nested(40), {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      ...adminHeaders,
    });
    expect(expectRefusal(reply).details).toEqual([expect.objectContaining({ code: 'maxDepth' })]);
  });
});

describe('paths and queries', () => {
  const auth = { authorization: `Bearer ${token}` };
  const addresses: [name: string, path: () => string, headers?: () => Record<string, string>][] = [
    ['a transaction id with NUL', () => `${API}/accounts/transactions/pix/%00`],
    ['a transaction id with NUL inside', () => `${API}/accounts/transactions/pix/ab%00cd`],
    ['a receiver id with NUL', () => `${API}/receivers/%00`],
    ['a payment request id with NUL', () => `${API}/accounts/transaction-requests/x%00`],
    ['a document id with NUL', () => `${API}/documents/%00`],
    ['a simulation id with NUL', () => `${API}/sandbox/transactions/complete/%00`],
    ['the QR viewer with NUL', () => '/v1/system/qrcodeviewer/%00'],
    ['the receipt with NUL', () => '/v1/system/e-receipt/%00/receipt.pdf'],
    ['the charge location with NUL', () => '/v1/QR/cob/%00'],
    ['the bank page with NUL', () => '/v1/system/checkout/init/%00/x'],
    ['an upload address with NUL', () => '/v1/uploads/%00'],
    ['an admin document with NUL', () => '/admin/documents/%00/content', () => adminHeaders],
    ['a malformed escape', () => `${API}/accounts/transactions/pix/%E0%A4%A`],
    ['a lone surrogate as UTF-8', () => `${API}/accounts/transactions/pix/%ED%A0%80`],
    ['a bare percent', () => `${API}/receivers/%`],
    ['a bad hex escape', () => '/v1/system/qrcodeviewer/%zz'],
    ['an overlong UTF-8 NUL', () => `${API}/receivers/%C0%80`],
    ['a NUL query value', () => `${API}/accounts/balance?filterDate=%00`],
    ['a NUL query name', () => `${API}/accounts/balance?%00=1`],
    ['a NUL in a listing', () => `${API}/receivers?dataset.limit=5&dataset.offset=0&receiverStatus=%00`],
    ['a NUL in a document query', () => `${API}/documents?type=Invoice&ownerType=Transaction&owner=%00`],
    ['a NUL in an admin query', () => '/admin?x=%00', () => adminHeaders],
  ];

  it.each(addresses)('%s → 400 envelope', async (_name, path, headers) => {
    const reply = await call(sandbox, 'GET', path(), undefined, { ...auth, ...(headers?.() ?? {}) });
    expect(expectRefusal(reply).name).toBe('InvalidRequestFormatError');
  });

  it('points at the query parameter', async () => {
    const reply = await api('GET', '/accounts/balance?filterDate=2026-01-01%00');
    expect(expectRefusal(reply).details).toEqual([expect.objectContaining({ path: '/filterDate' })]);
  });

  it('still serves ordinary escapes', async () => {
    expect((await api('GET', '/accounts/transactions/pix/a%2Fb')).status).toBe(404);
    expect((await api('GET', '/accounts/transactions/pix/caf%C3%A9')).status).toBe(404);
    expect((await api('GET', `/accounts/transactions/pix/${txId}`)).status).toBe(200);
  });
});

describe('a sweep of hostile values over every route', () => {
  const VALUES = [
    '%',
    '%zz',
    '%E0%A4%A',
    '%00',
    '%ED%A0%80',
    '..',
    '%2e%2e',
    '__proto__',
    'constructor',
    'x'.repeat(5000),
    '-1',
    '1e309',
    'NaN',
    '%0d%0aSet-Cookie:x',
    '<script>',
    "'; DROP TABLE transactions; --",
  ];
  const ROUTES: [method: string, template: string][] = [
    ['GET', `${API}/accounts/transactions/pix/{v}`],
    ['POST', `${API}/accounts/transactions/pix/{v}`],
    [
      'GET',
      `${API}/accounts/transactions/pix?transactionOrderId={v}&startDate={v}&endDate={v}&dataset.limit={v}&dataset.offset={v}&account={v}`,
    ],
    ['GET', `${API}/accounts/balance?filterDate={v}`],
    ['POST', `${API}/sandbox/transactions/complete/{v}`],
    ['PUT', `${API}/sandbox/transactions/reverse/{v}`],
    ['POST', `${API}/sandbox/payment-initiation/error/{v}`],
    ['GET', `${API}/receivers?dataset.limit={v}&dataset.offset={v}&receiverStatus={v}`],
    ['GET', `${API}/receivers/{v}`],
    ['GET', `${API}/receivers/{v}/accounts?limit={v}&offset={v}`],
    ['GET', `${API}/accounts/transaction-requests?dataset.limit={v}&dataset.offset={v}&status={v}&startDate={v}&endDate={v}`],
    ['GET', `${API}/accounts/transaction-requests/{v}`],
    ['PUT', `${API}/accounts/transaction-requests/cancel/{v}`],
    ['GET', `${API}/documents?type={v}&ownerType={v}&owner={v}`],
    ['DELETE', `${API}/documents/{v}`],
    ['GET', '/v1/system/qrcodeviewer/{v}'],
    ['GET', '/v1/system/e-receipt/{v}/receipt.pdf'],
    ['GET', '/v1/QR/cob/{v}'],
    ['GET', '/v1/system/checkout/init/{v}/{v}'],
    ['POST', '/v1/system/checkout/init/{v}/{v}'],
    ['PUT', '/v1/uploads/{v}'],
    ['GET', '/admin/documents/{v}/content'],
    ['POST', '/admin/receivers/{v}/approve'],
    ['POST', '/admin/receivers/{v}/accounts'],
    ['POST', '/admin/transaction-requests/{v}/reject'],
    ['GET', '/admin?{v}={v}'],
  ];

  it.each(ROUTES.map(([method, template]) => ({ method, template })))('$method $template', async ({ method, template }) => {
    for (const value of VALUES) {
      const path = template.replaceAll('{v}', value);
      const reply = await call(sandbox, method, path, undefined, { authorization: `Bearer ${token}`, ...adminHeaders });
      expect(reply.status, `${method} ${path}: ${reply.text.slice(0, 200)}`).toBeLessThan(500);
      if (reply.status >= 400 && reply.headers.get('content-type')?.startsWith('application/json')) errorEnvelope.parse(reply.body);
    }
  });
});
