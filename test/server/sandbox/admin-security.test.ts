/** The portal stand-in (`/admin/...`) always needs the admin key, and none of its answers carries a secret. */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { errorEnvelope } from '../../../server/provider/schemas';
import { createSandbox, IN_MEMORY, type Sandbox } from '../../../server/sandbox';
import { ADMIN_KEY_HEADER } from '../../../server/sandbox/company/routes/admin';
import { admin, SEED } from './company-helpers';
import { ADMIN_KEY, BASE, call, makeSandbox, tempDir } from './helpers';

let sandbox: Sandbox | undefined;
afterEach(() => {
  sandbox?.close();
  sandbox = undefined;
});

const HEADER_SECRET = 'company-webhook-header-secret-value';

/** Every admin route, with a body where it takes one. */
const ROUTES: [method: string, path: string, body?: unknown][] = [
  ['GET', ''],
  ['POST', '/receivers', { companyFantasyName: 'Oficina Nova', companyCNPJ: '87.654.321/0001-98' }],
  ['POST', `/receivers/${SEED.pending}/accounts`, { bankCode: '001', bankName: 'Banco', accountAgency: '1', accountNumber: '2' }],
  ['POST', `/receivers/${SEED.pending}/approve`, {}],
  ['POST', `/receivers/${SEED.pending}/reject`, {}],
  ['POST', '/transaction-requests/nope/approve', {}],
  ['POST', '/transaction-requests/nope/reject', {}],
  ['GET', '/company-webhook'],
  ['PUT', '/company-webhook', { url: 'http://127.0.0.1:9/hooks', customHeaderName: 'x-k', customHeaderValue: 'v' }],
  ['DELETE', '/company-webhook'],
  ['GET', '/documents/nope/content'],
  ['PATCH', '/company-webhook'],
  ['GET', '/nothing-here'],
];

const KEYS: [name: string, key: string | null][] = [
  ['no key', null],
  ['an empty key', ''],
  ['a wrong key', 'not-the-admin-key-0123456789'],
  ['the key with a suffix', `${ADMIN_KEY}x`],
  ['the key in another case', ADMIN_KEY.toUpperCase()],
];

describe('admin key', () => {
  const cases = ROUTES.flatMap(([method, path, body]) => KEYS.map(([name, key]) => ({ method, path, body, name, key })));
  it.each(cases)('$method /admin$path with $name → 401 AdminKeyInvalid', async ({ method, path, body, key }) => {
    sandbox = makeSandbox().sandbox;
    const reply = await admin(sandbox, method, path, body, key);
    expect(reply.status, reply.text).toBe(401);
    expect(errorEnvelope.parse(reply.body).error.details).toEqual({ reason: 'AdminKeyInvalid' });
  });

  it.each(ROUTES.map(([method, path, body]) => ({ method, path, body })))(
    '$method /admin$path with the key is not refused for the key',
    async ({ method, path, body }) => {
      sandbox = makeSandbox().sandbox;
      const reply = await admin(sandbox, method, path, body);
      expect(reply.status, reply.text).not.toBe(401);
      expect(reply.status).toBeLessThan(500);
    },
  );

  it('is generated per instance when none is given, and only that one opens the routes', async () => {
    const open = () => createSandbox({ dataDir: IN_MEMORY, publicBaseUrl: BASE });
    sandbox = open();
    const other = open();
    try {
      expect(sandbox.adminKey).toMatch(/^[\w-]{43}$/);
      expect(other.adminKey).not.toBe(sandbox.adminKey);
      expect((await admin(sandbox, 'GET', '/company-webhook', undefined, null)).status).toBe(401);
      expect((await admin(sandbox, 'GET', '/company-webhook', undefined, other.adminKey)).status).toBe(401);
      expect((await admin(sandbox, 'GET', '/company-webhook', undefined, sandbox.adminKey)).status).toBe(200);
    } finally {
      other.close();
    }
  });

  it('keeps the key it is given and refuses a short one at creation', () => {
    sandbox = makeSandbox().sandbox;
    expect(sandbox.adminKey).toBe(ADMIN_KEY);
    expect(() => createSandbox({ dataDir: IN_MEMORY, publicBaseUrl: BASE, adminKey: 'k3y' })).toThrow(/adminKey/);
    expect(() => createSandbox({ dataDir: IN_MEMORY, publicBaseUrl: BASE, adminKey: '' })).toThrow(/adminKey/);
  });

  it('is not taken from a query parameter or a bearer token', async () => {
    sandbox = makeSandbox().sandbox;
    const query = await call(sandbox, 'GET', `/admin/company-webhook?${ADMIN_KEY_HEADER}=${ADMIN_KEY}`);
    expect(query.status).toBe(401);
    const bearer = await call(sandbox, 'GET', '/admin/company-webhook', undefined, { authorization: `Bearer ${ADMIN_KEY}` });
    expect(bearer.status).toBe(401);
  });
});

describe('admin answers carry no secret', () => {
  const secretFree = (text: string) => {
    expect(text).not.toContain(HEADER_SECRET);
    expect(text).not.toContain(ADMIN_KEY);
    expect(text).not.toContain('customHeaderValue"');
  };

  it('shows the company webhook from the option with its header value only said to be set', async () => {
    sandbox = makeSandbox({
      companyWebhook: { url: 'http://127.0.0.1:9/hooks', customHeaderName: 'x-shop-secret', customHeaderValue: HEADER_SECRET },
    }).sandbox;
    const view = { url: 'http://127.0.0.1:9/hooks', customHeaderName: 'x-shop-secret', customHeaderValueSet: true };
    const got = await admin(sandbox, 'GET', '/company-webhook');
    expect(got.body).toEqual({ statusCode: 'Done', data: view });
    const overview = await admin(sandbox, 'GET', '');
    expect(overview.body.data.companyWebhook).toEqual(view);
    for (const reply of [got, overview]) {
      secretFree(reply.text);
      expect(reply.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('does not echo a value set through PUT, nor after DELETE goes back to the option', async () => {
    sandbox = makeSandbox({
      companyWebhook: { url: 'http://127.0.0.1:9/option', customHeaderName: 'x-a', customHeaderValue: HEADER_SECRET },
    }).sandbox;
    const put = await admin(sandbox, 'PUT', '/company-webhook', {
      url: 'https://hooks.example/company',
      customHeaderName: 'x-b',
      customHeaderValue: HEADER_SECRET,
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toEqual({ url: 'https://hooks.example/company', customHeaderName: 'x-b', customHeaderValueSet: true });
    const removed = await admin(sandbox, 'DELETE', '/company-webhook');
    expect(removed.body.data).toEqual({ url: 'http://127.0.0.1:9/option', customHeaderName: 'x-a', customHeaderValueSet: true });
    for (const reply of [put, removed, await admin(sandbox, 'GET', '/company-webhook'), await admin(sandbox, 'GET', '')])
      secretFree(reply.text);
  });

  it('says when no header value is set, and null when there is no webhook', async () => {
    sandbox = makeSandbox().sandbox;
    expect((await admin(sandbox, 'GET', '/company-webhook')).body.data).toBeNull();
    const put = await admin(sandbox, 'PUT', '/company-webhook', { url: 'http://hooks.example/x' });
    expect(put.body.data).toEqual({ url: 'http://hooks.example/x', customHeaderValueSet: false });
  });

  it.each([
    ['user and password', 'https://alice:hunter2-password@hooks.example/x', 'https://********:********@hooks.example/x'],
    ['a token as user name', 'https://tok3n-in-the-user-name@hooks.example/x', 'https://********@hooks.example/x'],
  ])('refuses %s in the address, and masks it in one an older emulator stored', async (_name, url, shown) => {
    sandbox = makeSandbox().sandbox;
    const put = await admin(sandbox, 'PUT', '/company-webhook', { url });
    expect(put.status).toBe(400);
    expect(put.body.error.details).toEqual([expect.objectContaining({ path: '/url', code: 'format' })]);
    sandbox.close();

    const dataDir = tempDir();
    const open = () => createSandbox({ dataDir, publicBaseUrl: BASE, adminKey: ADMIN_KEY });
    open().close();
    const db = new Database(join(dataDir, 'sandbox.sqlite'));
    db.prepare("INSERT INTO settings (key, value) VALUES ('company-webhook', ?)").run(
      JSON.stringify({ url, customHeaderValue: HEADER_SECRET }),
    );
    db.close();
    sandbox = open();
    for (const reply of [await admin(sandbox, 'GET', '/company-webhook'), await admin(sandbox, 'GET', '')]) {
      expect(reply.text).toContain(`"url":"${shown}"`);
      expect(reply.text).not.toMatch(/hunter2|tok3n/);
      secretFree(reply.text);
    }
  });
});
