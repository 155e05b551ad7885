/** Every address the emulator will call or send a payer to is an absolute http(s) URL, kept exactly as given. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope } from '../../../server/provider/schemas';
import { createSandbox, IN_MEMORY, type Sandbox } from '../../../server/sandbox';
import { admin } from './company-helpers';
import { type Api, BASE, cashIn, cashOut, client, initiation, makeSandbox } from './helpers';

let sandbox: Sandbox;
let api: Api;
beforeAll(async () => {
  sandbox = makeSandbox().sandbox;
  api = await client(sandbox);
});
afterAll(() => sandbox.close());

const BAD_URLS = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'file:///etc/passwd',
  'ftp://hooks.example/x',
  'gopher://hooks.example:70/x',
  'ws://hooks.example/x',
  'mailto:ops@hooks.example',
  'blob:http://hooks.example/x',
  '//hooks.example/no-scheme',
  '/relative/path',
  'hooks.example/x',
  'not a url',
  '',
  'http://',
  'https:',
  'http:hooks.example',
  ' http://hooks.example/leading-space',
  'http://hooks.example/trailing-space ',
  'http://hooks.example/\nx',
  'http://hooks.\texample/x',
  'http://hooks.example/\rSet-Cookie:x',
  `http://hooks.example/${'a'.repeat(2048)}`,
  'http://user:password@hooks.example/x',
  'https://t0ken@hooks.example/x',
  'http://:secret@hooks.example/x',
];

const GOOD_URLS = ['http://127.0.0.1:9/hooks', 'https://hooks.example/x?y=1#z', 'HTTPS://Hooks.Example/X', 'http://[::1]:8080/h'];

/** Where a webhook address goes in each operation that takes one, and where a refusal must point. */
const TARGETS: [name: string, send: (url: string) => ReturnType<Api>, path: string][] = [
  ['cash-in', (url) => api('POST', '/accounts/pix/cashin', cashIn(url)), '/webhook/url'],
  ['cash-out', (url) => api('POST', '/accounts/pix/cashout', cashOut(url)), '/webhook/url'],
  ['initiation', (url) => api('POST', '/accounts/payment-initiation', initiation(url)), '/webhook/url'],
  [
    'initiation redirect',
    (url) => api('POST', '/accounts/payment-initiation', initiation('http://127.0.0.1:9/h', url)),
    '/payment/redirectUrl',
  ],
  ['company webhook', (url) => admin(sandbox, 'PUT', '/company-webhook', { url }), '/url'],
];

describe('webhook and redirect addresses', () => {
  const cases = TARGETS.flatMap(([target, send, path]) => BAD_URLS.map((url) => ({ target, send, path, url })));
  it.each(cases)('$target refuses $url with a 400 at the address', async ({ send, path, url }) => {
    const reply = await send(url);
    expect(reply.status, reply.text).toBe(400);
    const { error } = errorEnvelope.parse(reply.body);
    expect(error.name).toBe('InvalidRequestFormatError');
    expect(error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
  });

  const accepted = TARGETS.flatMap(([target, send]) => GOOD_URLS.map((url) => ({ target, send, url })));
  it.each(accepted)('$target accepts $url', async ({ send, url }) => {
    const reply = await send(url);
    expect(reply.status, reply.text).toBeLessThan(300);
  });

  it('stores and echoes the address exactly as given', async () => {
    const url = 'https://hooks.example/x?y=1';
    const created = await api('POST', '/accounts/pix/cashin', cashIn(url));
    const record = await api('GET', `/accounts/transactions/pix/${created.body.data.transaction.id}`);
    expect(record.body.data.webhook.url).toBe(url);
  });

  it('refuses a bad company webhook at creation', () => {
    for (const url of ['javascript:alert(1)', ' http://x/', 'http://x/\n'])
      expect(() => createSandbox({ dataDir: IN_MEMORY, publicBaseUrl: BASE, companyWebhook: { url } })).toThrow(/companyWebhook/);
  });
});
