/**
 * The demo's portal proxy (`/demo/api/sandbox-admin/*`) gives an operator the portal's job only: the provider's access
 * keys, the webhook signing key and the company webhook are an owner's (403 `admin_forbidden` for an operator, who
 * can no longer expire the key pair every checkout needs); every write is in the product's audit trail; and approving
 * a payment request goes the product's way: only one the back office asked for passes, and one above APPROVAL_ABOVE
 * is at the provider only once an owner approved it in the console (the operator who asked for R$ 40.000,00 cannot
 * get it paid alone).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS_FILE, parseDemoUsers } from '../../../demo/demo-users';
import { ADMIN_KEY_HEADER } from '../../../server/sandbox';
import { sessionCookie } from '../backoffice/auth-helpers';
import { startTestServer, tempDir, type TestServer } from '../helpers/server';

const ADMIN_TOKEN = 'portal-movements-admin-token-0123456789';
const PROXY = '/demo/api/sandbox-admin';

let server: TestServer;
let dataDir: string;
let operator: string;
let owner: string;
let partner: string;
beforeAll(async () => {
  dataDir = tempDir();
  server = await startTestServer({ dataDir, env: { ADMIN_TOKEN } });
  operator = await sessionOf('operador@armazem.demo');
  owner = await sessionOf('dona@armazem.demo');
  partner = await sessionOf('socia@armazem.demo');
});
afterAll(async () => {
  await server?.close();
});

const origin = () => new URL(server.publicBaseUrl).origin;
/** Signs in as the demo user `email` (DATA_DIR/demo-users.txt) and resolves with the session's cookie header. */
async function sessionOf(email: string) {
  const user = parseDemoUsers(readFileSync(join(dataDir, DEMO_USERS_FILE), 'utf8')).find((u) => u.email === email)!;
  const signedIn = await server.json('POST', '/api/admin/session', { email, password: user.password }, { origin: origin() });
  expect(signedIn.status, signedIn.text).toBe(200);
  return sessionCookie(signedIn.headers.get('set-cookie'));
}
const viaPortal = (cookie: string, method: string, path: string, body?: unknown) =>
  server.json(method, PROXY + path, body, { cookie, ...(method === 'GET' ? {} : { origin: origin() }) });
const viaConsole = (cookie: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  server.json(method, `/api/admin${path}`, body, { cookie, origin: origin(), ...headers });
const emulator = (method: string, path: string, body?: unknown) =>
  server.json(method, `/sandbox/admin${path}`, body, { [ADMIN_KEY_HEADER]: server.sandbox!.adminKey });
const trail = async (action: string) =>
  (await server.json('GET', `/api/admin/audit?action=${action}&limit=200`, undefined, { authorization: `Bearer ${ADMIN_TOKEN}` })).body
    .data as { actor: string; action: string; target: string | null; outcome: string; details?: Record<string, unknown> }[];

/** An approved receiver of the demo and its first account. */
async function payee() {
  const receivers = await viaConsole(owner, 'GET', '/receivers?status=Approved&limit=5&offset=0');
  const receiver = receivers.body.items[0];
  const accounts = await viaConsole(owner, 'GET', `/receivers/${receiver.id}/accounts`);
  return { receiverId: receiver.id as string, accountId: accounts.body.items[0].id as string };
}

describe("the provider's keys through the portal", () => {
  const keyRoutes: [string, string, unknown?][] = [
    ['GET', '/access-keys'],
    ['POST', '/access-keys', { accessKey: 'minted-by-operator', secret: 'a-secret-of-8+', status: 'Approved' }],
    ['PUT', '/access-keys/sandbox-access-key', { status: 'Expired' }],
    ['DELETE', '/access-keys/minted-by-operator'],
    ['GET', '/webhook-signing-key'],
    ['PUT', '/webhook-signing-key', { key: 'k'.repeat(40) }],
    ['DELETE', '/webhook-signing-key'],
    ['PUT', '/company-webhook', { url: 'https://elsewhere.example/hook' }],
    ['DELETE', '/company-webhook'],
    ['PUT', '/access%2Dkeys/sandbox-access-key', { status: 'Expired' }],
  ];

  it.each(keyRoutes)("are an owner's: an operator's %s %s is 403 admin_forbidden, and nothing changes", async (method, path, body) => {
    const before = (await emulator('GET', '/access-keys')).body.data;
    const refused = await viaPortal(operator, method, path, body);
    expect(refused, refused.text).toMatchObject({
      status: 403,
      body: { error: { code: 'admin_forbidden', message: 'This needs the owner role.' } },
    });
    expect((await emulator('GET', '/access-keys')).body.data).toEqual(before);
  });

  it('keep every checkout working after an operator tried to expire the key pair, and the try is in the trail', async () => {
    await viaPortal(operator, 'PUT', '/access-keys/sandbox-access-key', { status: 'Expired' });
    const { orderId, orderToken } = await server.order();
    expect((await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' })).status).toBe(201);
    const denied = (await trail('access.denied')).find((l) => l.target === '/sandbox/admin/access-keys/sandbox-access-key');
    expect(denied).toMatchObject({
      actor: 'operador@armazem.demo',
      outcome: 'refused',
      details: { code: 'admin_forbidden', method: 'PUT' },
    });
  });

  it("are an owner's to manage, audited without the secret", async () => {
    const accessKey = `owner-key-${randomUUID().slice(0, 8)}`;
    const made = await viaPortal(owner, 'POST', '/access-keys', { accessKey, secret: 'owner-secret-value', status: 'Pending' });
    expect(made.status, made.text).toBe(201);
    expect((await viaPortal(owner, 'GET', '/access-keys')).status).toBe(200);
    const lines = (await trail('portal.access_key.post')).filter((l) => l.actor === 'dona@armazem.demo');
    expect(lines[0]).toMatchObject({ outcome: 'ok', details: { status: 201 } });
    expect(JSON.stringify(lines)).not.toContain('owner-secret-value');
  });
});

describe("the portal's job for an operator", () => {
  it('registers and reviews a receiver, each write in the trail as the operator', async () => {
    const made = await viaPortal(operator, 'POST', '/receivers', {
      companyFantasyName: 'Empresa do operador',
      companyCNPJ: '11222333000181',
    });
    expect(made.status).toBe(201);
    expect((await viaPortal(operator, 'POST', `/receivers/${made.body.data.id}/reject`, {})).status).toBe(200);
    expect((await viaPortal(operator, 'POST', '/receivers/nope/approve', {})).status).toBe(404);
    expect((await trail('portal.receiver.add')).find((l) => l.actor === 'operador@armazem.demo')).toMatchObject({ outcome: 'ok' });
    expect((await trail('portal.receiver.reject')).find((l) => l.target === made.body.data.id)).toMatchObject({
      actor: 'operador@armazem.demo',
      outcome: 'ok',
    });
    expect((await trail('portal.receiver.approve')).find((l) => l.target === 'nope')).toMatchObject({
      outcome: 'refused',
      details: { status: 404 },
    });
  });

  it('approves a payment request the back office asked for, with its amount and key in the trail', async () => {
    const p = await payee();
    const key = randomUUID();
    const made = await viaConsole(
      operator,
      'POST',
      '/payment-requests',
      { amount: '120.00', description: 'Nota 7', ...p },
      { 'idempotency-key': key },
    );
    expect(made.status).toBe(201);
    const approved = await viaPortal(operator, 'POST', `/transaction-requests/${made.body.id}/approve`, {});
    expect(approved).toMatchObject({ status: 200, body: { data: { entity: { status: 'Approved' } } } });
    expect((await trail('portal.payment_request.approve')).find((l) => l.target === made.body.id)).toMatchObject({
      actor: 'operador@armazem.demo',
      outcome: 'ok',
      details: { amount: '120.00', idempotencyKey: key, requestedBy: 'operador@armazem.demo' },
    });
  });

  it('refuses a payment request made at the provider behind the back office, which stays Pending', async () => {
    const p = await payee();
    const foreign = await server.provider.paymentRequests.create({
      amount: '40000.00',
      description: 'Por fora',
      refReceiver: p.receiverId,
      refBankAccount: p.accountId,
    });
    const refused = await viaPortal(operator, 'POST', `/transaction-requests/${foreign.id}/approve`, {});
    expect(refused).toMatchObject({ status: 409, body: { error: { code: 'payment_request_not_ours' } } });
    expect((await server.provider.paymentRequests.retrieve(foreign.id)).entity.status).toBe('Pending');
    expect((await trail('portal.payment_request.approve')).find((l) => l.target === foreign.id)).toMatchObject({
      outcome: 'refused',
      details: { code: 'payment_request_not_ours' },
    });
    // Rejecting moves no money: it passes, audited.
    expect((await viaPortal(operator, 'POST', `/transaction-requests/${foreign.id}/reject`, {})).status).toBe(200);
    expect((await trail('portal.payment_request.reject')).find((l) => l.target === foreign.id)).toMatchObject({ outcome: 'ok' });
  });

  it("cannot get an operator's R$ 40.000,00 request paid alone: it reaches the portal only once an owner approved it", async () => {
    const p = await payee();
    const kept = await viaConsole(operator, 'POST', '/payment-requests', { amount: '40000.00', description: 'Nota grande', ...p });
    expect(kept).toMatchObject({ status: 202, body: { state: 'PendingApproval', requestId: null } });
    const overview = async () => (await viaPortal(operator, 'GET', '')).body.data.paymentRequests as { entity: { description: string } }[];
    expect((await overview()).filter((r) => r.entity.description === 'Nota grande')).toEqual([]);

    const approved = await viaConsole(partner, 'POST', `/approvals/payment-requests/${kept.body.idempotencyKey}/approve`, {});
    expect(approved).toMatchObject({ status: 200, body: { state: 'Requested', decidedBy: 'socia@armazem.demo' } });
    const paid = await viaPortal(operator, 'POST', `/transaction-requests/${approved.body.requestId}/approve`, {});
    expect(paid).toMatchObject({ status: 200, body: { data: { entity: { status: 'Approved' } } } });
    expect((await trail('portal.payment_request.approve')).find((l) => l.target === approved.body.requestId)).toMatchObject({
      details: { amount: '40000.00', requestedBy: 'operador@armazem.demo', decidedBy: 'socia@armazem.demo' },
    });
  });
});
