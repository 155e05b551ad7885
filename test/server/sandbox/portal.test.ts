/**
 * The portal's key management in the emulator: access keys Active, Pending and Expired (the contract's 401
 * `AccessKeyUnauthorized`), and the webhook signing key of the provider's public docs.
 */
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderConfigError } from '../../../server/provider';
import { parseSignatureHeader, verifyWebhookSignature } from '../../../server/provider/webhook-signature';
import { startSandbox } from '../helpers/sandbox';
import { ADMIN_KEY, API, call, cashIn, client, makeSandbox, startReceiver, tempDir } from './helpers';

let made: ReturnType<typeof makeSandbox>;
afterEach(() => made?.sandbox.close());

const admin = (method: string, path: string, body?: unknown, key = ADMIN_KEY) =>
  call(made.sandbox, method, `/admin${path}`, body, { 'x-sandbox-admin-key': key });
const loginAs = (accessKey: string, secret: string) => call(made.sandbox, 'POST', `${API}/login`, { accessKey, secret });
const SIGNING_KEY = 'whsec-test-0123456789abcdef';

describe('access keys', () => {
  it('a new key is Pending until approved, then logs in; Expired refuses again', async () => {
    made = makeSandbox();
    const created = await admin('POST', '/access-keys', { accessKey: 'shop-key-2', secret: 'shop-secret-2' });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      accessKey: 'shop-key-2',
      status: 'Pending',
      createdAt: '2026-01-15T12:00:00.000Z',
      expiresAt: null,
      configured: false,
    });
    expect(JSON.stringify(created.body)).not.toContain('shop-secret-2');

    const pending = await loginAs('shop-key-2', 'shop-secret-2');
    expect(pending.status).toBe(401);
    expect(pending.body.error).toMatchObject({
      name: 'AuthenticationError',
      code: 'AuthenticationError',
      details: { reason: 'AccessKeyUnauthorized' },
      message: 'The access key is pending approval',
    });

    expect((await admin('PUT', '/access-keys/shop-key-2', { status: 'Active' })).body.data.status).toBe('Active');
    expect((await loginAs('shop-key-2', 'shop-secret-2')).status).toBe(201);
    // A wrong secret says nothing of the key's state.
    expect((await loginAs('shop-key-2', 'wrong')).body.error.message).toBe('The access key is invalid, pending or expired');

    await admin('PUT', '/access-keys/shop-key-2', { status: 'Expired' });
    const expired = await loginAs('shop-key-2', 'shop-secret-2');
    expect(expired.status).toBe(401);
    expect(expired.body.error).toMatchObject({ details: { reason: 'AccessKeyUnauthorized' }, message: 'The access key has expired' });
  });

  it('an expiry date passes on the emulator clock, and takes the tokens already issued with it', async () => {
    made = makeSandbox();
    await admin('POST', '/access-keys', { accessKey: 'k-exp', secret: 'secret-exp', status: 'Active', expiresAt: '2026-01-15T12:30:00Z' });
    const token = (await loginAs('k-exp', 'secret-exp')).text;
    const balance = () => call(made.sandbox, 'GET', `${API}/accounts/balance`, undefined, { authorization: `Bearer ${token}` });
    expect((await balance()).status).toBe(200);
    made.clock.advance(31 * 60_000);
    expect((await admin('GET', '/access-keys/k-exp')).body.data.status).toBe('Expired');
    const refused = await balance();
    expect(refused.status).toBe(401);
    expect(refused.body.error.details).toEqual({ reason: 'AuthenticationTokenInvalid' });
    expect((await loginAs('k-exp', 'secret-exp')).body.error.details).toEqual({ reason: 'AccessKeyUnauthorized' });
  });

  it('the configured pair is listed and can be expired, not deleted; others can be deleted', async () => {
    made = makeSandbox();
    const api = await client(made.sandbox);
    const listed = await admin('GET', '/access-keys');
    expect(listed.body.data).toEqual([expect.objectContaining({ accessKey: 'sandbox-access-key', status: 'Active', configured: true })]);
    expect((await admin('DELETE', '/access-keys/sandbox-access-key')).status).toBe(409);
    await admin('PUT', '/access-keys/sandbox-access-key', { status: 'Expired' });
    expect((await api('GET', '/accounts/balance')).status).toBe(401);
    await admin('PUT', '/access-keys/sandbox-access-key', { status: 'Active' });
    expect((await api('GET', '/accounts/balance')).status).toBe(200);

    await admin('POST', '/access-keys', { accessKey: 'temp', secret: 'temp-secret', status: 'Active' });
    expect((await admin('DELETE', '/access-keys/temp')).status).toBe(200);
    expect((await loginAs('temp', 'temp-secret')).status).toBe(401);
    expect((await admin('DELETE', '/access-keys/temp')).status).toBe(404);
  });

  it('refuses bad input with 400, a second key of the same name with 409, and callers without the admin key', async () => {
    made = makeSandbox();
    expect((await admin('POST', '/access-keys', { accessKey: 'a b', secret: 'x' })).status).toBe(400);
    expect((await admin('POST', '/access-keys', { accessKey: 'ok-key', secret: 'long-enough', status: 'Frozen' })).status).toBe(400);
    expect((await admin('POST', '/access-keys', { accessKey: 'ok-key', secret: 'long-enough', expiresAt: 'soon' })).status).toBe(400);
    expect((await admin('POST', '/access-keys', { accessKey: 'ok-key', secret: 'long-enough' })).status).toBe(201);
    expect((await admin('POST', '/access-keys', { accessKey: 'ok-key', secret: 'long-enough' })).status).toBe(409);
    expect((await admin('PUT', '/access-keys/nope', { status: 'Active' })).status).toBe(404);
    for (const [method, path] of [
      ['GET', '/access-keys'],
      ['POST', '/access-keys'],
      ['PUT', '/access-keys/ok-key'],
      ['GET', '/webhook-signing-key'],
      ['PUT', '/webhook-signing-key'],
    ]) {
      const reply = await admin(method!, path!, method === 'GET' ? undefined : { status: 'Active' }, 'wrong-key-0123456789');
      expect(reply.status, `${method} ${path}`).toBe(401);
    }
  });

  it('the typed client reports a pending or expired key as a configuration error', async () => {
    const env = await startSandbox({ adminKey: ADMIN_KEY });
    try {
      const adminCall = (method: string, path: string, body?: unknown) =>
        fetch(`${env.url}/sandbox/admin${path}`, {
          method,
          headers: { 'x-sandbox-admin-key': ADMIN_KEY, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      await adminCall('POST', '/access-keys', { accessKey: 'new-key', secret: 'new-secret' });
      const pending = env.client({ accessKey: 'new-key', secret: 'new-secret' });
      await expect(pending.balance.retrieve()).rejects.toBeInstanceOf(ProviderConfigError);
      await adminCall('PUT', '/access-keys/new-key', { status: 'Active' });
      await expect(pending.balance.retrieve()).resolves.toMatchObject({ currency: 'BRL' });
    } finally {
      await env.close();
    }
  });

  it('keeps key states across a restart; a new configured pair replaces the old one', async () => {
    const dataDir = tempDir();
    made = makeSandbox({ dataDir });
    await admin('POST', '/access-keys', { accessKey: 'kept', secret: 'kept-secret', status: 'Active' });
    made.sandbox.close();
    made = makeSandbox({ dataDir, accessKey: 'other-pair', secret: 'other-secret' });
    expect((await loginAs('kept', 'kept-secret')).status).toBe(201);
    expect((await loginAs('other-pair', 'other-secret')).status).toBe(201);
    expect((await loginAs('sandbox-access-key', 'sandbox-secret')).status).toBe(401);
  });
});

describe('webhook signing key', () => {
  it('signs each delivery as the public docs describe when a key is configured', async () => {
    const receiver = await startReceiver();
    try {
      made = makeSandbox({ webhookSigningKey: SIGNING_KEY });
      const api = await client(made.sandbox);
      const { id } = (await api('POST', '/accounts/pix/cashin', cashIn(receiver.url))).body.data.transaction;
      expect((await api('POST', `/sandbox/transactions/complete/${id}`)).status).toBe(200);
      const hit = receiver.received[0]!;
      const header = hit.headers['x-webhook-signature'] as string;
      expect(header).toMatch(/^HMAC-SHA256 Sign=[0-9A-F]{64}, Nonce=[0-9a-f-]{36},TS=\d+$/);
      const { nonce, timestamp } = parseSignatureHeader(header)!;
      expect(timestamp).toBe(String(Date.parse('2026-01-15T12:00:00.000Z') / 1000));
      const expected = createHmac('sha256', SIGNING_KEY).update(`${nonce}:${timestamp}:${hit.text}`).digest('hex').toUpperCase();
      expect(header).toContain(`Sign=${expected}`);
      expect(verifyWebhookSignature({ key: SIGNING_KEY, header, body: hit.text, nowSeconds: Number(timestamp) })).toMatchObject({
        ok: true,
      });
      // The custom header still comes along.
      expect(hit.headers['x-shop-secret']).toBe('s3cret');
    } finally {
      await receiver.close();
    }
  });

  it('sends no signature without a key; the admin route sets, shows (never echoes) and removes it', async () => {
    const receiver = await startReceiver();
    try {
      made = makeSandbox();
      const api = await client(made.sandbox);
      const pay = async () => {
        const { id } = (await api('POST', '/accounts/pix/cashin', cashIn(receiver.url))).body.data.transaction;
        await api('POST', `/sandbox/transactions/complete/${id}`);
        return receiver.received.at(-1)!.headers['x-webhook-signature'];
      };
      expect(await pay()).toBeUndefined();
      expect((await admin('GET', '/webhook-signing-key')).body.data).toEqual({ signingKeySet: false });
      const set = await admin('PUT', '/webhook-signing-key', { key: SIGNING_KEY });
      expect(set.body.data).toEqual({ signingKeySet: true });
      expect(set.text).not.toContain(SIGNING_KEY);
      expect(await pay()).toMatch(/^HMAC-SHA256 /);
      expect((await admin('PUT', '/webhook-signing-key', { key: 'short' })).status).toBe(400);
      expect((await admin('DELETE', '/webhook-signing-key')).body.data).toEqual({ signingKeySet: false });
      expect(await pay()).toBeUndefined();
    } finally {
      await receiver.close();
    }
  });

  it('refuses a too short key at start', () => {
    expect(() => makeSandbox({ webhookSigningKey: 'short' })).toThrow(/webhookSigningKey/);
  });
});
