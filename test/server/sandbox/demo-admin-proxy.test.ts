/**
 * `npm start` keeps the emulator's admin key in DATA_DIR, and the sandbox portal reaches the admin routes only through
 * the demo's proxy (`/demo/api/sandbox-admin/...`), which takes the back-office admin token or the console's session
 * of an operator or an owner (a cookie-borne write from the page's own origin only), and adds the key itself.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS_FILE, parseDemoUsers } from '../../../demo/demo-users';
import { ADMIN_KEY_HEADER } from '../../../server/sandbox';
import { sessionCookie } from '../backoffice/auth-helpers';
import { startTestServer, tempDir, type TestServer } from '../helpers/server';

const ADMIN_TOKEN = 'proxy-test-admin-token-0123456789abcdef';
const PROXY = '/demo/api/sandbox-admin';

let server: TestServer;
let dataDir: string;
beforeAll(async () => {
  dataDir = tempDir();
  server = await startTestServer({ dataDir, env: { ADMIN_TOKEN } });
});
afterAll(async () => {
  await server?.close();
});

const bearer = (token = ADMIN_TOKEN) => ({ authorization: `Bearer ${token}` });
const adminKey = () => server.sandbox!.adminKey;

describe('the emulator admin key of the demo', () => {
  it('is generated once into DATA_DIR, owner-only, and kept across a restart', async () => {
    const file = join(dataDir, 'sandbox-admin-key');
    expect(readFileSync(file, 'utf8').trim()).toBe(adminKey());
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(adminKey()).toMatch(/^[\w-]{43}$/);
  });

  it.each([
    ['GET', '/sandbox/admin'],
    ['GET', '/sandbox/admin/company-webhook'],
    ['DELETE', '/sandbox/admin/company-webhook'],
    ['POST', '/sandbox/admin/transaction-requests/x/approve'],
  ])('guards %s %s on the public address', async (method, path) => {
    const reply = await server.json(method, path, method === 'POST' ? {} : undefined);
    expect(reply.status).toBe(401);
    expect(reply.body.error.details.reason).toBe('AdminKeyInvalid');
    // The back-office token is no emulator key.
    expect((await server.json(method, path, method === 'POST' ? {} : undefined, bearer())).status).toBe(401);
    expect((await server.json(method, path, method === 'POST' ? {} : undefined, { [ADMIN_KEY_HEADER]: adminKey() })).status).not.toBe(401);
  });

  it('does not show the BFF webhook secret the demo gives the emulator', async () => {
    const reply = await server.json('GET', '/sandbox/admin/company-webhook', undefined, { [ADMIN_KEY_HEADER]: adminKey() });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ customHeaderValueSet: true });
    expect(reply.text).not.toContain(server.config.webhookSecret);
  });
});

describe(`${PROXY}/*`, () => {
  const refusals: [name: string, headers: () => Record<string, string>][] = [
    ['no authorization', () => ({})],
    ['a wrong token', () => bearer('not-the-admin-token-0123456789')],
    ['the token without Bearer', () => ({ authorization: ADMIN_TOKEN })],
    ['the emulator key as bearer', () => bearer(adminKey())],
    ['the emulator key header', () => ({ [ADMIN_KEY_HEADER]: adminKey() })],
  ];
  it.each(refusals)('refuses %s with 401 admin_unauthorized', async (_name, headers) => {
    for (const [method, path] of [
      ['GET', '/company-webhook'],
      ['POST', '/transaction-requests/x/approve'],
    ] as const) {
      const reply = await server.json(method, PROXY + path, method === 'POST' ? {} : undefined, headers());
      expect(reply.status).toBe(401);
      expect(reply.body.error.code).toBe('admin_unauthorized');
    }
  });

  it('forwards with the key added and answers what the emulator answers, secret-free', async () => {
    const overview = await server.json('GET', PROXY, undefined, bearer());
    expect(overview.status).toBe(200);
    expect(overview.body.data.receivers.length).toBeGreaterThan(0);
    const hook = await server.json('GET', `${PROXY}/company-webhook`, undefined, bearer());
    expect(hook.status).toBe(200);
    expect(hook.headers.get('cache-control')).toBe('no-store');
    for (const reply of [overview, hook]) {
      expect(reply.text).not.toContain(adminKey());
      expect(reply.text).not.toContain(server.config.webhookSecret);
    }
    const unknown = await server.json('POST', `${PROXY}/receivers/nope/approve`, {}, bearer());
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.name).toBe('NotFoundError');
    // A payment request the back office did not ask for is not the portal's to approve (it moves money).
    const foreign = await server.json('POST', `${PROXY}/transaction-requests/nope/approve`, {}, bearer());
    expect(foreign).toMatchObject({ status: 409, body: { error: { code: 'payment_request_not_ours' } } });
    const invalid = await server.json('POST', `${PROXY}/receivers`, { companyFantasyName: 'X', companyCNPJ: '1' }, bearer());
    expect(invalid.status).toBe(400);
  });

  it('approves a payment request the back-office created, as the reviewer', async () => {
    const bff = (method: string, path: string, body?: unknown) => server.json(method, `/api/admin${path}`, body, bearer());
    const receivers = await bff('GET', '/receivers?status=Approved&limit=5&offset=0');
    const receiver = receivers.body.items[0];
    const accounts = await bff('GET', `/receivers/${receiver.id}/accounts`);
    const created = await bff('POST', '/payment-requests', {
      amount: '12.00',
      description: 'Nota 1',
      receiverId: receiver.id,
      accountId: accounts.body.items[0].id,
    });
    expect(created.status).toBe(201);
    const approved = await server.json('POST', `${PROXY}/transaction-requests/${created.body.id}/approve`, {}, bearer());
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body.data.entity).toMatchObject({ id: created.body.id, status: 'Approved' });
  });

  it.each([
    `${PROXY}/..%2f..%2fv1/partners-int/accounts/balance`,
    `${PROXY}/%2e%2e/v1/partners-int/accounts/balance`,
    `${PROXY}/%2E%2E/%2E%2E/sandbox/v1/partners-int/accounts/balance`,
    `${PROXY}/..%5c..%5cv1/partners-int/accounts/balance`,
  ])('stays below the admin routes: %s', async (path) => {
    const reply = await fetch(server.url + path, { headers: bearer() });
    const text = await reply.text();
    expect(reply.status).toBeGreaterThanOrEqual(400);
    expect(reply.status).toBeLessThan(500);
    expect(text).not.toContain('"balance"');
  });

  it('refuses a body over 64 KiB before it reaches the emulator', async () => {
    const reply = await server.json('POST', `${PROXY}/receivers`, { pad: 'x'.repeat(70 * 1024) }, bearer());
    expect(reply.status).toBe(413);
  });
});

describe(`${PROXY}/* with the console's session`, () => {
  const origin = () => new URL(server.publicBaseUrl).origin;
  /** Signs in as the demo user of `role` (DATA_DIR/demo-users.txt) and resolves with the session's cookie header. */
  async function sessionOf(role: string) {
    const user = parseDemoUsers(readFileSync(join(dataDir, DEMO_USERS_FILE), 'utf8')).find((u) => u.role === role)!;
    const signedIn = await server.json('POST', '/api/admin/session', { email: user.email, password: user.password }, { origin: origin() });
    expect(signedIn.status, signedIn.text).toBe(200);
    return sessionCookie(signedIn.headers.get('set-cookie'));
  }

  it.each(['operator', 'owner'])('lets an %s read and decide, from the page of its own origin', async (role) => {
    const cookie = await sessionOf(role);
    const overview = await server.json('GET', PROXY, undefined, { cookie });
    expect(overview.status).toBe(200);
    expect(overview.body.data.receivers.length).toBeGreaterThan(0);
    expect(overview.text).not.toContain(adminKey());
    const registered = await server.json(
      'POST',
      `${PROXY}/receivers`,
      { companyFantasyName: `Empresa ${role}`, companyCNPJ: '11222333000181' },
      { cookie, origin: origin() },
    );
    expect(registered.status, registered.text).toBe(201);
    const pending = registered.body.data;
    expect(pending.receiverStatus).toBe('Pending');
    const reviewed = await server.json('POST', `${PROXY}/receivers/${pending.id}/approve`, {}, { cookie, origin: origin() });
    expect(reviewed.status, reviewed.text).toBe(200);
    expect(reviewed.body.data.receiverStatus).toBe('Approved');
  });

  it('refuses a viewer with 403 admin_forbidden, reads and writes alike', async () => {
    const cookie = await sessionOf('viewer');
    for (const [method, path] of [
      ['GET', '/company-webhook'],
      ['POST', '/transaction-requests/x/approve'],
    ] as const) {
      const reply = await server.json(method, PROXY + path, method === 'POST' ? {} : undefined, { cookie, origin: origin() });
      expect(reply.status, `${method} ${path}`).toBe(403);
      expect(reply.body.error.code).toBe('admin_forbidden');
    }
  });

  it('refuses a cookie-borne write without the page origin (403 cross_site_write), and one from another site', async () => {
    const cookie = await sessionOf('operator');
    const bare = await server.json('POST', `${PROXY}/transaction-requests/x/approve`, {}, { cookie });
    expect(bare.status).toBe(403);
    expect(bare.body.error.code).toBe('cross_site_write');
    const foreign = await server.json('POST', `${PROXY}/transaction-requests/x/approve`, {}, { cookie, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    // The same write from the page's own origin gets through (to the refusal of a request the back office did not ask for).
    const own = await server.json('POST', `${PROXY}/transaction-requests/x/approve`, {}, { cookie, origin: origin() });
    expect(own).toMatchObject({ status: 409, body: { error: { code: 'payment_request_not_ours' } } });
  });

  it('refuses a session that ended, and a cookie that is no session, with 401 admin_unauthorized', async () => {
    const cookie = await sessionOf('owner');
    expect((await server.json('DELETE', '/api/admin/session', undefined, { cookie, origin: origin() })).status).toBe(204);
    for (const stale of [cookie, 'pix_admin=not-a-session', `pix_admin=${'A'.repeat(43)}`]) {
      const reply = await server.json('GET', `${PROXY}/company-webhook`, undefined, { cookie: stale });
      expect(reply.status, stale).toBe(401);
      expect(reply.body.error.code).toBe('admin_unauthorized');
    }
  });

  it('never tries a wrong bearer token as the cookie', async () => {
    const cookie = await sessionOf('owner');
    const reply = await server.json('GET', `${PROXY}/company-webhook`, undefined, { cookie, ...bearer('not-the-admin-token-0123456789') });
    expect(reply.status).toBe(401);
  });
});
