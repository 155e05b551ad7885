/**
 * The merchant's events of cash-outs and refunds through the whole product (back-office API, emulator, the sandbox's
 * cash-out controls), read from the pull feed: a payout completed or cancelled at the provider becomes one
 * `cashout.completed` or `cashout.failed`, and the refund of a duplicate payment `refund.created` then
 * `refund.completed`, with the checkout it gives back and never the recipient's CPF or key.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../server/lib/clock';
import { ADMIN_KEY_HEADER } from '../../../server/sandbox/company/routes/admin';
import { startTestServer, type TestServer } from '../helpers/server';

const TOKEN = 'admin-token-for-cashout-events-0123';
const MINUTE = 60_000;
const payer = { name: 'Maria Pagadora', taxNumber: '52998224725' };

let clock: ManualClock;
let server: TestServer;
beforeAll(async () => {
  clock = new ManualClock(new Date());
  server = await startTestServer({ env: { ADMIN_TOKEN: TOKEN }, start: { clock } });
});
afterAll(() => server?.close());

const admin = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  server.json(method, `/api/admin${path}`, body, { authorization: `Bearer ${TOKEN}`, ...headers });
const sandboxAdmin = (path: string) => server.json('POST', `/sandbox/admin${path}`, {}, { [ADMIN_KEY_HEADER]: server.sandbox!.adminKey });
const feed = async (after: string) => (await admin('GET', `/webhook-events?after=${after}&limit=500`)).body;
const cursor = async () => ((await feed('0')).nextCursor as string | null) ?? '0';
/** Lists the cash-outs, which re-reads those still moving at the provider (so a sandbox move reaches the store). */
const refreshCashOuts = () => admin('GET', '/cashouts?limit=50');

async function pixCheckout(order?: { orderId: string; orderToken: string }) {
  const { orderId, orderToken } = order ?? (await server.order());
  const res = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
  expect([200, 201]).toContain(res.status);
  return { orderId, orderToken, id: res.body.id as string, transactionId: res.body.transactionId as string };
}
const settles = (id: string, state: string) =>
  vi.waitFor(async () => expect((await server.store.getCheckout(id))!.state).toBe(state), { timeout: 5_000, interval: 50 });

describe("the merchant's events of cash-outs", () => {
  it('gives a payout completed or cancelled at the provider as one cashout.completed or cashout.failed', async () => {
    const start = await cursor();
    const body = (amount: string) => ({
      recipient: { name: 'João', cpf: '529.982.247-25' },
      key: { type: 'EMAIL', value: 'joao@example.com' },
      amount,
    });
    const key = randomUUID();
    const made = (await admin('POST', '/cashouts', body('3.00'), { 'idempotency-key': key })).body;
    expect((await feed(start)).items).toEqual([]); // under way: nothing to act on yet
    await sandboxAdmin(`/cashouts/${made.transactionId}/complete`);
    const other = (await admin('POST', '/cashouts', body('2.00'), { 'idempotency-key': randomUUID() })).body;
    await sandboxAdmin(`/cashouts/${other.transactionId}/cancel`);
    await refreshCashOuts();
    const { items } = await feed(start);
    expect(items.map((e: { type: string }) => e.type).sort()).toEqual(['cashout.completed', 'cashout.failed']);
    expect(items.find((e: { type: string }) => e.type === 'cashout.completed').data).toMatchObject({
      idempotencyKey: key,
      orderId: made.orderId,
      transactionId: made.transactionId,
      amount: '3.00',
      currency: 'BRL',
      state: 'Completed',
      charges: expect.stringMatching(/^\d+\.\d{6}$/),
    });
    expect(items.find((e: { type: string }) => e.type === 'cashout.failed').data).toMatchObject({
      transactionId: other.transactionId,
      failure: 'Cancelled',
    });
    expect(JSON.stringify(items)).not.toMatch(/52998224725|joao@example\.com/);
  });

  it('gives the refund of a duplicate payment as refund.created then refund.completed, with its checkout', async () => {
    const first = await pixCheckout();
    clock.advance(31 * MINUTE);
    expect((await server.json('GET', `/api/checkouts/${first.id}`)).body.state).toBe('Expired');
    const renewed = await pixCheckout(first);
    await server.provider.sandbox.pix.complete(renewed.transactionId, payer);
    await settles(renewed.id, 'Completed');
    await server.provider.sandbox.pix.complete(first.transactionId, payer);
    await settles(first.id, 'Completed');

    const start = await cursor();
    const key = randomUUID();
    const refund = await admin('POST', `/checkouts/${first.id}/refund`, {}, { 'idempotency-key': key });
    expect(refund.status).toBe(201);
    await sandboxAdmin(`/cashouts/${refund.body.transactionId}/complete`);
    await refreshCashOuts();
    const { items } = await feed(start);
    expect(items.map((e: { type: string }) => e.type)).toEqual(['refund.created', 'refund.completed']);
    const data = {
      idempotencyKey: key,
      orderId: refund.body.orderId,
      transactionId: refund.body.transactionId,
      checkoutId: first.id,
      checkoutOrderId: first.orderId,
      amount: refund.body.amount,
      currency: 'BRL',
    };
    expect(items[0].data).toMatchObject(data);
    expect(items[1].data).toMatchObject({ ...data, state: 'Completed' });
    expect(JSON.stringify(items)).not.toContain(payer.taxNumber);
  });
});

describe("a cash-out's own webhook", () => {
  it('writes its event at once, with nobody listing the cash-outs', async () => {
    const start = await cursor();
    const made = (
      await admin(
        'POST',
        '/cashouts',
        { recipient: { name: 'João', cpf: '529.982.247-25' }, key: { type: 'EMAIL', value: 'joao@example.com' }, amount: '4.00' },
        { 'idempotency-key': randomUUID() },
      )
    ).body;
    // The emulator posts the cash-out's webhook to the BFF, which re-reads it and records its final state.
    await sandboxAdmin(`/cashouts/${made.transactionId}/complete`);
    await vi.waitFor(async () => expect((await feed(start)).items.map((e: { type: string }) => e.type)).toEqual(['cashout.completed']), {
      timeout: 5_000,
      interval: 50,
    });
  });
});
