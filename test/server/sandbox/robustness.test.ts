import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope } from '../../../server/provider/schemas';
import type { Sandbox } from '../../../server/sandbox';
import { API, call, cashIn, login, makeSandbox, serveSandbox } from './helpers';

let sandbox: Sandbox;
let token: string;
beforeAll(async () => {
  sandbox = makeSandbox().sandbox;
  token = await login(sandbox);
});
afterAll(() => sandbox.close());

const raw = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
  call(sandbox, method, path, body, { authorization: `Bearer ${token}`, ...headers });

const cases: [string, () => ReturnType<typeof raw>, number][] = [
  ['invalid JSON', () => raw('POST', `${API}/accounts/pix/cashin`, '{"payment":', { 'content-type': 'application/json' }), 400],
  ['JSON null', () => raw('POST', `${API}/accounts/pix/cashin`, 'null', { 'content-type': 'application/json' }), 400],
  ['a JSON array', () => raw('POST', `${API}/accounts/pix/cashin`, '[1,2]', { 'content-type': 'application/json' }), 400],
  ['a JSON string', () => raw('POST', `${API}/login`, '"x"', { 'content-type': 'application/json' }), 400],
  [
    'payment as a string',
    () => raw('POST', `${API}/accounts/pix/cashin`, JSON.stringify({ payment: 'x', webhook: 1 }), { 'content-type': 'application/json' }),
    400,
  ],
  ['an empty body', () => raw('POST', `${API}/accounts/pix/cashout`, '', { 'content-type': 'application/json' }), 400],
  [
    'form encoding',
    () => raw('POST', `${API}/accounts/pix/cashin`, 'payment=1', { 'content-type': 'application/x-www-form-urlencoded' }),
    415,
  ],
  ['text/plain JSON', () => raw('POST', `${API}/login`, '{"accessKey":"a","secret":"b"}', { 'content-type': 'text/plain' }), 415],
  [
    'a 1 MB body',
    () => raw('POST', `${API}/accounts/pix/cashin`, JSON.stringify({ pad: 'x'.repeat(1 << 20) }), { 'content-type': 'application/json' }),
    413,
  ],
  ['an unknown path', () => raw('GET', `${API}/nothing/here`), 404],
  ['the root', () => raw('GET', '/'), 404],
  ['a trailing path segment', () => raw('POST', `${API}/accounts/pix/cashin/extra`, '{}', { 'content-type': 'application/json' }), 404],
  ['GET on cash-in', () => raw('GET', `${API}/accounts/pix/cashin`), 405],
  ['DELETE on a record', () => raw('DELETE', `${API}/accounts/transactions/pix/abc`), 405],
  ['GET on a simulation', () => raw('GET', `${API}/sandbox/transactions/complete/abc`), 405],
  ['PUT on an OpenFinance simulation', () => raw('PUT', `${API}/sandbox/payment-initiation/complete/abc`), 405],
  ['an unknown simulation', () => raw('POST', `${API}/sandbox/transactions/refund/abc`), 404],
  ['an unknown transaction', () => raw('GET', `${API}/accounts/transactions/pix/does-not-exist`), 404],
  ['an encoded slash in an id', () => raw('GET', `${API}/accounts/transactions/pix/a%2Fb`), 404],
  [
    'a bad date in the listing',
    () =>
      raw('GET', `${API}/accounts/transactions/pix?transactionOrderId=a&startDate=yesterday&endDate=x&dataset.limit=5&dataset.offset=0`),
    400,
  ],
  [
    'a range over one day',
    () =>
      raw(
        'GET',
        `${API}/accounts/transactions/pix?transactionOrderId=a&startDate=2026-01-01T00:00:00.000Z&endDate=2026-01-02T00:00:01.000Z&dataset.limit=5&dataset.offset=0`,
      ),
    400,
  ],
  [
    'an end before the start',
    () =>
      raw(
        'GET',
        `${API}/accounts/transactions/pix?transactionOrderId=a&startDate=2026-01-02T00:00:00.000Z&endDate=2026-01-01T00:00:00.000Z&dataset.limit=5&dataset.offset=0`,
      ),
    400,
  ],
  [
    'a negative offset',
    () =>
      raw(
        'GET',
        `${API}/accounts/transactions/pix?transactionOrderId=a&startDate=2026-01-01T00:00:00.000Z&endDate=2026-01-01T10:00:00.000Z&dataset.limit=5&dataset.offset=-1`,
      ),
    400,
  ],
  ['a bad balance filterDate', () => raw('GET', `${API}/accounts/balance?filterDate=soon`), 400],
  [
    'an invalid complete body',
    () => raw('POST', `${API}/sandbox/transactions/complete/abc`, '{"name":1}', { 'content-type': 'application/json' }),
    400,
  ],
  [
    'a non-JSON error body',
    () => raw('POST', `${API}/sandbox/transactions/error/abc`, '<xml/>', { 'content-type': 'application/json' }),
    400,
  ],
  ['an unknown QR image', () => raw('GET', '/v1/system/qrcodeviewer/nope'), 404],
  ['an unknown receipt', () => raw('GET', '/v1/system/e-receipt/nope/receipt.pdf'), 404],
  ['an unknown charge location', () => raw('GET', '/v1/QR/cob/nope'), 404],
];

describe('bad input of any shape', () => {
  it.each(cases.map(([name, send, status]) => ({ name, send, status })))(
    '$name → $status with the error envelope',
    async ({ send, status }) => {
      const reply = await send();
      expect(reply.status, reply.text).toBe(status);
      const envelope = errorEnvelope.parse(reply.body);
      expect(envelope.error.message).not.toMatch(/at \w+ \(|node_modules|sqlite/i);
    },
  );

  it('keeps serving after all of them', async () => {
    for (const [, send] of cases) await send();
    const reply = await raw('POST', `${API}/accounts/pix/cashin`, JSON.stringify(cashIn('http://127.0.0.1:1/x')), {
      'content-type': 'application/json',
    });
    expect(reply.status).toBe(201);
  });
});

describe('over a real socket', () => {
  it('answers a chunked oversized body with 413 and a truncated body with 400, then still serves', async () => {
    const served = await serveSandbox(sandbox);
    try {
      // Its own connection (no keep-alive): the server answers before reading the rest and then drops the socket.
      const tooBig = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = request(
          `${served.url}${API}/login`,
          { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } },
          (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
          },
        );
        req.on('error', reject);
        for (let i = 0; i < 40; i++) req.write('x'.repeat(4096));
        req.end();
      });
      expect(tooBig.status).toBe(413);
      expect(errorEnvelope.parse(JSON.parse(tooBig.text)).error.name).toBe('PayloadTooLargeError');

      // A declared length over the limit is refused before anything is read.
      const declared = await fetch(`${served.url}${API}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ pad: 'x'.repeat(1 << 20) }),
      });
      expect(declared.status).toBe(413);
      expect(errorEnvelope.parse(await declared.json()).error.name).toBe('PayloadTooLargeError');

      const broken = await fetch(`${served.url}${API}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"accessKey":',
      });
      expect(broken.status).toBe(400);

      const ok = await fetch(`${served.url}${API}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({ accessKey: 'sandbox-access-key', secret: 'sandbox-secret' }),
      });
      expect(ok.status).toBe(201);
    } finally {
      await served.close();
    }
  });
});
