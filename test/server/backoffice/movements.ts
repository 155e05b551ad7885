/**
 * What the tests of refunds and approvals share: the demo process (emulator + BFF) with a clock the test moves, the
 * back office through the bearer token (the owner `api-token`) or as a signed-in console user (an owner added
 * through `/users`, its session cookie and the console's own Origin), a checkout paid by a named payer, the
 * sandbox's cash-out controls, and what the provider holds for an order id.
 */
import { randomUUID } from 'node:crypto';
import { expect, vi } from 'vitest';
import { ManualClock } from '../../../server/lib/clock';
import { ADMIN_KEY_HEADER } from '../../../server/sandbox/company/routes/admin';
import { startTestServer, type TestServer } from '../helpers/server';

export const PAYER = { name: 'Maria Pagadora', taxNumber: '52998224725' };
const PASSWORD = 'a long enough password';

export async function startMovementServer(token: string, env: Record<string, string> = {}) {
  const clock = new ManualClock(new Date());
  const server: TestServer = await startTestServer({ env: { ADMIN_TOKEN: token, ...env }, start: { clock } });

  /** The back office through the bearer token. */
  const admin = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    server.json(method, `/api/admin${path}`, body, { authorization: `Bearer ${token}`, ...headers });
  const sandboxAdmin = (path: string) => server.json('POST', `/sandbox/admin${path}`, {}, { [ADMIN_KEY_HEADER]: server.sandbox!.adminKey });

  /** A console user with `role`, signed in: its calls carry its session cookie and the console's Origin. */
  async function signedIn(email: string, role: 'owner' | 'operator' | 'viewer' = 'owner') {
    expect((await admin('POST', '/users', { email, role, password: PASSWORD })).status).toBe(201);
    const session = await server.json('POST', '/api/admin/session', { email, password: PASSWORD });
    expect(session.status).toBe(200);
    const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect(cookie).toMatch(/^pix_admin=./);
    return (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      server.json(method, `/api/admin${path}`, body, { cookie, origin: server.url, ...headers });
  }

  /** A PIX checkout of a new demo order, paid by `payer` and Completed in the store. */
  async function paidCheckout(payer: { name: string; taxNumber: string } = PAYER) {
    const { orderId, orderToken, amount } = await server.order();
    const res = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    expect([200, 201]).toContain(res.status);
    const checkout = { orderId, amount, id: res.body.id as string, transactionId: res.body.transactionId as string };
    await server.provider.sandbox.pix.complete(checkout.transactionId, payer);
    await settles(checkout.id, 'Completed');
    return checkout;
  }

  /** Waits until the store has the checkout in `state` (its webhook on the way). */
  const settles = (id: string, state: string) =>
    vi.waitFor(async () => expect((await server.store.getCheckout(id))!.state).toBe(state), { timeout: 5_000, interval: 50 });

  /** The provider's transactions of an order id today (a cash-out's or a refund's, chosen before any call). */
  async function atProvider(orderId: string) {
    const day = clock.now().toISOString().slice(0, 10);
    const res = await admin('GET', `/transactions?orderId=${orderId}&date=${day}`);
    expect(res.status).toBe(200);
    return res.body.items as { transaction: { id: string; type: string; amount: string } }[];
  }

  /** Completes a cash-out at the sandbox and lists the cash-outs (which re-reads them), until the store has it Completed. */
  async function completeAtProvider(key: string, transactionId: string) {
    expect((await sandboxAdmin(`/cashouts/${transactionId}/complete`)).status).toBe(200);
    await vi.waitFor(
      async () => {
        await admin('GET', '/cashouts?limit=50');
        expect((await server.store.getCashOut(key))!.state).toBe('Completed');
      },
      { timeout: 5_000, interval: 50 },
    );
  }

  /** The audit trail's entries of `action` (newest first). */
  const auditOf = async (action: string) => (await admin('GET', `/audit?action=${action}&limit=200`)).body.data as AuditLine[];

  return { server, clock, admin, sandboxAdmin, signedIn, paidCheckout, settles, atProvider, completeAtProvider, auditOf };
}

export interface AuditLine {
  actor: string;
  action: string;
  target: string | null;
  outcome: string;
  details?: Record<string, unknown> | null;
}

export const newKey = () => ({ 'idempotency-key': randomUUID() });
