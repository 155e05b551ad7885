import { afterEach, describe, expect, it } from 'vitest';
import { errorEnvelope } from '../../../server/provider/schemas';
import { API, call, cashIn, login, makeSandbox, tempDir } from './helpers';
import { createSandbox } from '../../../server/sandbox';
import { ManualClock } from '../../../server/lib/clock';

const sandboxes: { close(): void }[] = [];
afterEach(() => sandboxes.splice(0).forEach((s) => s.close()));

function setup(options: Parameters<typeof makeSandbox>[0] = {}) {
  const made = makeSandbox(options);
  sandboxes.push(made.sandbox);
  return made;
}

const balance = (sandbox: ReturnType<typeof setup>['sandbox'], token: string) =>
  call(sandbox, 'GET', `${API}/accounts/balance`, undefined, { authorization: `Bearer ${token}` });

describe('POST /login', () => {
  it('answers 201 with a bare JWT that expires 60 minutes later on the emulator clock', async () => {
    const { sandbox, clock } = setup();
    const reply = await call(sandbox, 'POST', `${API}/login`, { accessKey: 'sandbox-access-key', secret: 'sandbox-secret' });
    expect(reply.status).toBe(201);
    expect(reply.headers.get('content-type')).toMatch(/^text\/plain/);
    const [, payload] = reply.text.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    expect(claims.exp - claims.iat).toBe(3600);
    expect(claims.iat).toBe(Date.parse('2026-01-15T12:00:00.000Z') / 1000);
    expect(clock.now().toISOString()).toBe('2026-01-15T12:00:00.000Z');
  });

  it('refuses a wrong key pair with 401 AccessKeyUnauthorized', async () => {
    const { sandbox } = setup();
    for (const body of [
      { accessKey: 'sandbox-access-key', secret: 'wrong' },
      { accessKey: 'other', secret: 'sandbox-secret' },
    ]) {
      const reply = await call(sandbox, 'POST', `${API}/login`, body);
      expect(reply.status).toBe(401);
      expect(errorEnvelope.parse(reply.body).error).toMatchObject({
        name: 'AuthenticationError',
        code: 'AuthenticationError',
        details: { reason: 'AccessKeyUnauthorized' },
      });
    }
  });

  it('accepts the key pair given to createSandbox instead of the default one', async () => {
    const { sandbox } = setup({ accessKey: 'ak', secret: 'sk' });
    expect((await call(sandbox, 'POST', `${API}/login`, { accessKey: 'ak', secret: 'sk' })).status).toBe(201);
    expect((await call(sandbox, 'POST', `${API}/login`, { accessKey: 'sandbox-access-key', secret: 'sandbox-secret' })).status).toBe(401);
  });

  it('answers a body without secret with 400 required at the root', async () => {
    const { sandbox } = setup();
    const reply = await call(sandbox, 'POST', `${API}/login`, { accessKey: 'sandbox-access-key' });
    expect(reply.status).toBe(400);
    expect(reply.body.error.name).toBe('InvalidRequestFormatError');
    expect(reply.body.error.details).toEqual([
      { path: '', code: 'required', message: expect.any(String), info: { missingProperty: 'secret' } },
    ]);
  });
});

describe('bearer token', () => {
  it('is required on every other operation: 401 AuthenticationTokenInvalid', async () => {
    const { sandbox } = setup();
    const token = await login(sandbox);
    const [head, body] = token.split('.');
    const forged = `${head}.${Buffer.from(JSON.stringify({ sub: 'x', exp: 9999999999 })).toString('base64url')}.${token.split('.')[2]}`;
    const cases: Record<string, string>[] = [
      {},
      { authorization: 'Bearer' },
      { authorization: 'Bearer not-a-token' },
      { authorization: `Basic ${token}` },
      { authorization: `Bearer ${forged}` },
      { authorization: `Bearer ${head}.${body}.` },
    ];
    for (const headers of cases) {
      const reply = await call(sandbox, 'POST', `${API}/accounts/pix/cashin`, cashIn('http://127.0.0.1:1/x'), headers);
      expect(reply.status, JSON.stringify(headers)).toBe(401);
      expect(reply.body.error).toMatchObject({ name: 'AuthenticationError', details: { reason: 'AuthenticationTokenInvalid' } });
    }
    expect((await balance(sandbox, token)).status).toBe(200);
  });

  it('expires after 60 minutes of emulator time', async () => {
    const { sandbox, clock } = setup();
    const token = await login(sandbox);
    clock.advance(59 * 60_000 + 59_000);
    expect((await balance(sandbox, token)).status).toBe(200);
    clock.advance(1_000);
    const reply = await balance(sandbox, token);
    expect(reply.status).toBe(401);
    expect(reply.body.error.details.reason).toBe('AuthenticationTokenInvalid');
    expect((await balance(sandbox, await login(sandbox))).status).toBe(200);
  });

  it('stays valid across a restart with the same data folder, and is refused by another folder', async () => {
    const dir = tempDir();
    const clock = new ManualClock('2026-01-15T12:00:00.000Z');
    const first = createSandbox({ dataDir: dir, publicBaseUrl: 'http://127.0.0.1:3000', clock });
    const token = await login(first);
    first.close();
    const again = createSandbox({ dataDir: dir, publicBaseUrl: 'http://127.0.0.1:3000', clock });
    const other = createSandbox({ dataDir: tempDir(), publicBaseUrl: 'http://127.0.0.1:3000', clock });
    sandboxes.push(again, other);
    expect((await call(again, 'GET', `${API}/accounts/balance`, undefined, { authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await call(other, 'GET', `${API}/accounts/balance`, undefined, { authorization: `Bearer ${token}` })).status).toBe(401);
  });
});

describe('token spelling', () => {
  /** Other spellings of the same signature bytes, which a decode-then-compare check would accept. */
  const variants: [name: string, change: (token: string) => string][] = [
    ['a trailing ~', (t) => `${t}~`],
    ['a trailing =', (t) => `${t}=`],
    ['padding and a stray character', (t) => `${t}==!`],
    [
      'another last character with the same bytes',
      (t) => {
        // 32 bytes take 43 characters; the last one carries 4 bits, so its 2 low bits are free.
        const last = t.at(-1)!;
        const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
        const index = alphabet.indexOf(last);
        return t.slice(0, -1) + alphabet[index ^ 1];
      },
    ],
    ['+ and / for - and _', (t) => t.replace(/\.([^.]+)$/, (_m, sig: string) => `.${sig.replaceAll('-', '+').replaceAll('_', '/')}`)],
    ['an extra dot', (t) => t.replace(/\.([^.]{10})/, '.$1.').replace(/\.([^.]+)\.([^.]+)$/, '.$1$2')],
  ];

  it.each(variants)('refuses the token with %s', async (_name, change) => {
    const { sandbox } = setup();
    // Each login makes another token (a new jti); take one whose characters the variant can change.
    let token = await login(sandbox);
    for (let i = 0; i < 100 && change(token) === token; i++) token = await login(sandbox);
    expect((await balance(sandbox, token)).status).toBe(200);
    const changed = change(token);
    expect(changed).not.toBe(token);
    const reply = await balance(sandbox, changed);
    expect(reply.status).toBe(401);
    expect(errorEnvelope.parse(reply.body).error.details).toMatchObject({ reason: 'AuthenticationTokenInvalid' });
  });
});
