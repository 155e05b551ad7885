/**
 * The payment window: every checkout says when it ends (`expiresAt`); past it, unpaid, the BFF moves it to Expired
 * (the reconciler, a read, or the open event stream), which frees the order for a new code. Money that moved always
 * wins: a late payment of the expired code still completes it, kept as the duplicate of the new checkout when there
 * is one. And a Completed checkout keeps its receipt (paidAt, receiptVoucher, payerBank), never the payer's data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiptOf } from '../../../server/payments/receipt';
import { loadConfig } from '../../../server/config';
import { ManualClock } from '../../../server/lib/clock';
import type { TransactionRecord } from '../../../server/provider';
import { SANDBOX_ACCESS_KEY, SANDBOX_SECRET } from '../../../server/sandbox/defaults';
import { sendJson, startRecordingServer } from '../helpers/http';
import { openSse, type SseConnection } from '../helpers/sse';
import { startTestBff, startTestServer, tempDir, type TestServer } from '../helpers/server';

const MINUTE = 60_000;
const payer = { name: 'Maria Silva', taxNumber: '52998224725' };

interface View {
  id: string;
  orderId: string;
  state: string;
  transactionId: string;
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
  paidAt?: string;
  receiptVoucher?: string;
  payerBank?: string;
}

/** The demo on a clock the test moves: the emulator and the BFF share it. */
let clock: ManualClock;
let server: TestServer;
beforeAll(async () => {
  clock = new ManualClock(new Date());
  server = await startTestServer({ start: { clock } });
});
afterAll(() => server?.close());

async function newCheckout(order?: { orderId: string; orderToken: string }) {
  const { orderId, orderToken } = order ?? (await server.order());
  const res = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
  expect([200, 201]).toContain(res.status);
  return { orderId, orderToken, checkout: res.body as View, status: res.status };
}

const read = async (id: string) => (await server.json('GET', `/api/checkouts/${id}`)).body as View;
const stored = async (id: string) => (await server.store.getCheckout(id))!;
const events = (id: string) => server.store.eventsAfter(id, 0);
/** Waits until the BFF's store has the checkout in `state` (a webhook on its way). */
const settles = (id: string, state: string) => expect.poll(async () => (await stored(id)).state, { timeout: 5_000 }).toBe(state);

/** Frames of a stream after its retry hint, until `count` have arrived. */
async function frames(sse: SseConnection, count: number) {
  const got: View[] = [];
  while (got.length < count) {
    const event = await sse.next();
    if (!event) break;
    if (event.event === 'status') got.push(JSON.parse(event.data) as View);
  }
  return got;
}

describe('expiresAt', () => {
  it('is creation plus CHECKOUT_TTL_SECONDS (30 minutes by default) on every view, and stays put', async () => {
    const { checkout } = await newCheckout();
    expect(Date.parse(checkout.expiresAt) - Date.parse(checkout.createdAt)).toBe(30 * MINUTE);
    expect(checkout.expiresAt).toBe(new Date(checkout.expiresAt).toISOString());
    clock.advance(MINUTE);
    expect((await read(checkout.id)).expiresAt).toBe(checkout.expiresAt);
    expect((await stored(checkout.id)).expiresAt).toBe(checkout.expiresAt);
  });
});

describe('CHECKOUT_TTL_SECONDS', () => {
  it('defaults to 1800 and takes whole seconds from 1 to 604800', () => {
    const dir = tempDir();
    expect(loadConfig({ DATA_DIR: dir }).checkoutTtlSeconds).toBe(1800);
    expect(loadConfig({ DATA_DIR: dir, CHECKOUT_TTL_SECONDS: '' }).checkoutTtlSeconds).toBe(1800);
    expect(loadConfig({ DATA_DIR: dir, CHECKOUT_TTL_SECONDS: '1' }).checkoutTtlSeconds).toBe(1);
    expect(loadConfig({ DATA_DIR: dir, CHECKOUT_TTL_SECONDS: '604800' }).checkoutTtlSeconds).toBe(604_800);
    for (const bad of ['0', '-5', '1.5', 'soon', '604801']) {
      expect(() => loadConfig({ DATA_DIR: dir, CHECKOUT_TTL_SECONDS: bad }), bad).toThrow(/CHECKOUT_TTL_SECONDS/);
    }
  });

  it('sets the window of new checkouts', async () => {
    const short = await startTestServer({ env: { CHECKOUT_TTL_SECONDS: '120' } });
    try {
      const { orderId, orderToken } = await short.order();
      const { body } = await short.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
      expect(Date.parse(body.expiresAt) - Date.parse(body.createdAt)).toBe(120_000);
    } finally {
      await short.close();
    }
  });
});

describe('expiry', () => {
  it('is reached by the reconciler once the window has ended, and only then', async () => {
    const { checkout } = await newCheckout();
    clock.advance(29 * MINUTE);
    await server.checkout.reconciler.runOnce();
    expect((await stored(checkout.id)).state).toBe('Registered');

    clock.advance(MINUTE);
    await server.checkout.reconciler.runOnce();
    expect(await read(checkout.id)).toMatchObject({ state: 'Expired', expiresAt: checkout.expiresAt });
    const last = (await events(checkout.id)).at(-1)!;
    expect(last).toMatchObject({ state: 'Expired', source: 'reconcile', data: { expiresAt: checkout.expiresAt } });
  });

  it('is reached by a read of the checkout past its window', async () => {
    const { checkout } = await newCheckout();
    clock.advance(30 * MINUTE + 1);
    expect(await read(checkout.id)).toMatchObject({ id: checkout.id, state: 'Expired' });
    expect((await events(checkout.id)).map((e) => [e.state, e.source])).toEqual([
      ['Registered', 'create'],
      ['Expired', 'read'],
    ]);
    // A second read changes nothing more.
    expect((await read(checkout.id)).state).toBe('Expired');
    expect(await events(checkout.id)).toHaveLength(2);
  });

  it('never touches a checkout that was paid, failed or is still being created', async () => {
    const paid = await newCheckout();
    await server.provider.sandbox.pix.complete(paid.checkout.transactionId, payer);
    await settles(paid.checkout.id, 'Completed');
    const failed = await newCheckout();
    await server.provider.sandbox.pix.error(failed.checkout.transactionId);
    await settles(failed.checkout.id, 'Error');
    clock.advance(31 * MINUTE);
    await server.checkout.reconciler.runOnce();
    expect((await read(paid.checkout.id)).state).toBe('Completed');
    expect((await read(failed.checkout.id)).state).toBe('Error');
  });
});

describe('a new code after expiry', () => {
  it('is a new checkout for the same order, with a window of its own', async () => {
    const first = await newCheckout();
    clock.advance(31 * MINUTE);
    expect((await read(first.checkout.id)).state).toBe('Expired');

    const second = await newCheckout(first);
    expect(second.status).toBe(201);
    expect(second.checkout).toMatchObject({ orderId: first.orderId, state: 'Registered' });
    expect(second.checkout.id).not.toBe(first.checkout.id);
    expect(second.checkout.transactionId).not.toBe(first.checkout.transactionId);
    expect(Date.parse(second.checkout.expiresAt)).toBe(clock.now().getTime() + 30 * MINUTE);
    expect((await newCheckout(first)).checkout.id).toBe(second.checkout.id);
    expect((await stored(first.checkout.id)).state).toBe('Expired');
  });

  it('is made even when nobody noticed the expiry: the POST expires the old checkout itself', async () => {
    const first = await newCheckout();
    clock.advance(31 * MINUTE);
    const second = await newCheckout(first);
    expect(second.status).toBe(201);
    expect(second.checkout.id).not.toBe(first.checkout.id);
    expect((await stored(first.checkout.id)).state).toBe('Expired');
  });

  it('is not made when the old code was paid in time: the POST returns the paid checkout', async () => {
    const first = await newCheckout();
    await server.provider.sandbox.pix.complete(first.checkout.transactionId, payer);
    await settles(first.checkout.id, 'Completed');
    clock.advance(31 * MINUTE);
    const again = await newCheckout(first);
    expect(again).toMatchObject({ status: 200, checkout: { id: first.checkout.id, state: 'Completed' } });
  });
});

describe('a late payment of the expired code', () => {
  it('completes it, marked late, and the order is paid', async () => {
    const first = await newCheckout();
    clock.advance(31 * MINUTE);
    expect((await read(first.checkout.id)).state).toBe('Expired');

    await server.provider.sandbox.pix.complete(first.checkout.transactionId, payer);
    await settles(first.checkout.id, 'Completed');
    const completed = (await events(first.checkout.id)).at(-1)!;
    expect(completed).toMatchObject({ state: 'Completed', source: 'webhook', data: { late: true, transactionState: 'Completed' } });
    expect(completed.data).not.toHaveProperty('duplicateOf');
    expect((await stored(first.checkout.id)).duplicateOf).toBeNull();
    // The order's place is the paid checkout again: no new code.
    expect(await newCheckout(first)).toMatchObject({ status: 200, checkout: { id: first.checkout.id, state: 'Completed' } });
  });

  it('is kept as the duplicate of the new checkout when the new code was paid first', async () => {
    const first = await newCheckout();
    clock.advance(31 * MINUTE);
    expect((await read(first.checkout.id)).state).toBe('Expired');
    const second = await newCheckout(first);
    await server.provider.sandbox.pix.complete(second.checkout.transactionId, payer);
    await settles(second.checkout.id, 'Completed');

    await server.provider.sandbox.pix.complete(first.checkout.transactionId, payer);
    await settles(first.checkout.id, 'Completed');
    const old = await stored(first.checkout.id);
    expect(old.duplicateOf).toBe(second.checkout.id);
    expect((await events(first.checkout.id)).at(-1)).toMatchObject({
      state: 'Completed',
      data: { late: true, duplicateOf: second.checkout.id },
    });
    // The page that shows the old code hears it was paid, with its receipt.
    expect(await read(first.checkout.id)).toMatchObject({ state: 'Completed', payerBank: 'Banco Sandbox' });
    // The new checkout keeps the order's place; the back-office sees both payments of the order.
    expect(await stored(second.checkout.id)).toMatchObject({ state: 'Completed', duplicateOf: null });
    expect((await newCheckout(first)).checkout.id).toBe(second.checkout.id);
    const all = await server.store.findCheckoutsByOrder(first.orderId);
    expect(all.map((c) => [c.id, c.state, c.duplicateOf])).toEqual([
      [first.checkout.id, 'Completed', second.checkout.id],
      [second.checkout.id, 'Completed', null],
    ]);
  });

  it('takes the order from a new code still waiting, which expires; paying that one too makes the duplicate', async () => {
    const first = await newCheckout();
    clock.advance(31 * MINUTE);
    expect((await read(first.checkout.id)).state).toBe('Expired');
    const second = await newCheckout(first);

    await server.provider.sandbox.pix.complete(first.checkout.transactionId, payer);
    await settles(first.checkout.id, 'Completed');
    expect(await stored(first.checkout.id)).toMatchObject({ state: 'Completed', duplicateOf: null });
    // The new code's page hears it is over, and why: no tab or device goes on offering it.
    expect(await read(second.checkout.id)).toMatchObject({ state: 'Expired' });
    expect((await events(second.checkout.id)).at(-1)).toMatchObject({ state: 'Expired', data: { supersededBy: first.checkout.id } });
    // The order is paid: asking again answers the paid checkout, never a third code.
    expect(await newCheckout(first)).toMatchObject({ status: 200, checkout: { id: first.checkout.id, state: 'Completed' } });

    // The shopper paid the new code too (its QR was still open in the bank app): recorded, as the duplicate.
    await server.provider.sandbox.pix.complete(second.checkout.transactionId, payer);
    await settles(second.checkout.id, 'Completed');
    const all = await server.store.findCheckoutsByOrder(first.orderId);
    expect(all.map((c) => [c.id, c.state, c.duplicateOf])).toEqual([
      [first.checkout.id, 'Completed', null],
      [second.checkout.id, 'Completed', first.checkout.id],
    ]);
  });
});

describe("the demo's late-payment control", () => {
  it("pays the order's expired code at the emulator: expired, new code, old code paid late", async () => {
    const first = await newCheckout();
    const none = await server.json('POST', `/demo/api/orders/${first.orderId}/pay-expired`);
    expect(none).toMatchObject({ status: 404, body: { error: { code: 'checkout_not_found' } } });

    clock.advance(31 * MINUTE);
    expect((await read(first.checkout.id)).state).toBe('Expired');
    const second = await newCheckout(first);

    const paid = await server.json('POST', `/demo/api/orders/${first.orderId}/pay-expired`);
    expect(paid).toMatchObject({
      status: 200,
      body: { statusCode: 'Done', data: { checkoutId: first.checkout.id, transactionId: first.checkout.transactionId } },
    });
    await settles(first.checkout.id, 'Completed');
    expect((await stored(first.checkout.id)).duplicateOf).toBeNull();
    expect((await stored(second.checkout.id)).state).toBe('Expired');
    // The newer code, expired by the late payment, is the one left to pay late; then nothing is.
    const again = await server.json('POST', `/demo/api/orders/${first.orderId}/pay-expired`);
    expect(again).toMatchObject({ status: 200, body: { data: { checkoutId: second.checkout.id } } });
    await settles(second.checkout.id, 'Completed');
    expect((await server.json('POST', `/demo/api/orders/${first.orderId}/pay-expired`)).status).toBe(404);
    const order = await server.json('GET', `/demo/api/orders/${first.orderId}`);
    expect(order.body.checkouts.map((c: { state: string }) => c.state)).toEqual(['Completed', 'Completed']);
  });
});

describe('receipt fields', () => {
  it('are kept from the provider record when the checkout is paid, and never the payer data', async () => {
    const { checkout } = await newCheckout();
    const before = await read(checkout.id);
    for (const name of ['paidAt', 'receiptVoucher', 'payerBank']) expect(before).not.toHaveProperty(name);

    clock.advance(MINUTE);
    await server.provider.sandbox.pix.complete(checkout.transactionId, payer);
    await settles(checkout.id, 'Completed');
    const record = await server.provider.transactions.retrieve(checkout.transactionId);
    const res = await server.json('GET', `/api/checkouts/${checkout.id}`);
    expect(res.body).toMatchObject({
      state: 'Completed',
      paidAt: new Date(record.transaction.stateCompletedDate!).toISOString(),
      receiptVoucher: record.transaction.receiptVoucher,
      payerBank: 'Banco Sandbox',
    });
    expect(record.transaction.payer?.name).toBe(payer.name);
    for (const secret of [payer.name, payer.taxNumber, 'taxNumber', 'accountNumber', 'accountAgency', 'payerName', 'payerCpf']) {
      expect(res.text).not.toContain(secret);
    }
  });

  it('take the time the BFF saw the payment when the record has no completion date, and leave out what it lacks', () => {
    const record = {
      transaction: { stateCompletedDate: null, receiptVoucher: '', payer: { bankName: null, name: 'X', taxNumber: '1' } },
    } as unknown as TransactionRecord;
    expect(receiptOf(record, '2026-01-15T12:00:00.000Z')).toEqual({ paidAt: '2026-01-15T12:00:00.000Z' });
    const full = {
      transaction: { stateCompletedDate: '2026-01-15T09:00:00-03:00', receiptVoucher: 'AB12', payer: { bankName: 'Banco X' } },
    } as unknown as TransactionRecord;
    expect(receiptOf(full, '2026-01-15T13:00:00.000Z')).toEqual({
      paidAt: '2026-01-15T12:00:00.000Z',
      receiptVoucher: 'AB12',
      payerBank: 'Banco X',
    });
  });
});

describe('the event stream', () => {
  it('stays open on Expired and delivers the late Completed with its receipt, then closes', async () => {
    const { checkout } = await newCheckout();
    const sse = await openSse(`${server.url}/api/checkouts/${checkout.id}/events`);
    expect((await frames(sse, 1))[0]).toMatchObject({ state: 'Registered', expiresAt: checkout.expiresAt });

    clock.advance(31 * MINUTE);
    await server.checkout.reconciler.runOnce();
    const [expired] = await frames(sse, 1);
    expect(expired).toMatchObject({ id: checkout.id, state: 'Expired', expiresAt: checkout.expiresAt });
    expect(expired).not.toHaveProperty('paidAt');
    // Still open: nothing more, and no end.
    await expect(sse.next(400)).rejects.toThrow(/timeout/);

    await server.provider.sandbox.pix.complete(checkout.transactionId, payer);
    const [paid] = await frames(sse, 1);
    expect(paid).toMatchObject({ state: 'Completed', payerBank: 'Banco Sandbox' });
    expect(paid!.paidAt).toBe(clock.now().toISOString());
    expect(paid!.receiptVoucher).toBeTruthy();
    expect(await sse.ended()).toBe(true);

    // Replayed from the start, each frame shows the checkout as it was: the receipt only from Completed on.
    const replay = await openSse(`${server.url}/api/checkouts/${checkout.id}/events`, { 'last-event-id': '0' });
    const all = await frames(replay, 3);
    expect(all.map((v) => [v.state, 'paidAt' in v])).toEqual([
      ['Registered', false],
      ['Expired', false],
      ['Completed', true],
    ]);
    expect(await replay.ended()).toBe(true);
  });

  it('opened on an Expired checkout stays open', async () => {
    const { checkout } = await newCheckout();
    clock.advance(31 * MINUTE);
    const sse = await openSse(`${server.url}/api/checkouts/${checkout.id}/events`);
    expect((await frames(sse, 1))[0]).toMatchObject({ state: 'Expired' });
    await expect(sse.next(400)).rejects.toThrow(/timeout/);
    sse.close();
  });
});

describe('with a tiny window (the tuning knob) and the real clock', () => {
  it('the open stream expires the checkout when its window ends, without the reconciler', async () => {
    const tiny = await startTestServer({ start: { tuning: { checkoutTtlMs: 1_000 } } });
    try {
      const { orderId, orderToken } = await tiny.order();
      const created = await tiny.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
      const checkout = created.body as View;
      expect(Date.parse(checkout.expiresAt) - Date.parse(checkout.createdAt)).toBe(1_000);
      const sse = await openSse(`${tiny.url}/api/checkouts/${checkout.id}/events`);
      expect((await frames(sse, 1))[0]!.state).toBe('Registered');
      const [expired] = await frames(sse, 1);
      expect(expired).toMatchObject({ state: 'Expired' });
      expect((await tiny.store.eventsAfter(checkout.id, 0)).at(-1)).toMatchObject({ state: 'Expired', source: 'read' });
      sse.close();
    } finally {
      await tiny.close();
    }
  });
});

describe('when the webhooks never arrive', () => {
  let emulator: TestServer;
  let bff: Awaited<ReturnType<typeof startTestBff>>;
  let bffClock: ManualClock;
  let emulatorClock: ManualClock;
  let blackHole: Awaited<ReturnType<typeof startRecordingServer>>;
  beforeAll(async () => {
    // The provider's clock, moved with the BFF's where a test needs the payment's own time after the window.
    emulatorClock = new ManualClock(new Date());
    emulator = await startTestServer({ start: { clock: emulatorClock } });
    bffClock = new ManualClock(new Date());
    // The provider's webhooks go to an address that takes them and tells nobody: the reconciler alone learns of payments.
    blackHole = await startRecordingServer((_, res) => sendJson(res, 200, { ok: true }));
    bff = await startTestBff({
      env: {
        PROVIDER_BASE_URL: `${emulator.url}/sandbox/v1`,
        PROVIDER_ACCESS_KEY: SANDBOX_ACCESS_KEY,
        PROVIDER_SECRET: SANDBOX_SECRET,
        PUBLIC_BASE_URL: blackHole.url,
      },
      start: { clock: bffClock },
    });
  });
  afterAll(async () => {
    await bff?.close();
    await emulator?.close();
    await blackHole?.close();
  });

  const create = async () => {
    const { orderId, orderToken } = await bff.order();
    const res = await bff.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    expect(res.status).toBe(201);
    return res.body as View;
  };

  it('a payment made within the window is found by the expiring pass: Completed, not Expired', async () => {
    const checkout = await create();
    await emulator.provider.sandbox.pix.complete(checkout.transactionId, payer);
    bffClock.advance(31 * MINUTE);
    await bff.checkout.reconciler.runOnce();
    const states = (await bff.store.eventsAfter(checkout.id, 0)).map((e) => e.state);
    expect(states).toEqual(['Registered', 'Completed']);
    expect((await bff.store.eventsAfter(checkout.id, 0)).at(-1)!.data).not.toHaveProperty('late');
    expect((await bff.json('GET', `/api/checkouts/${checkout.id}`)).body).toMatchObject({ state: 'Completed', payerBank: 'Banco Sandbox' });
  });

  it('a late payment is still caught by the reconciler, which follows expired checkouts', async () => {
    const checkout = await create();
    bffClock.advance(31 * MINUTE);
    await bff.checkout.reconciler.runOnce();
    expect((await bff.store.getCheckout(checkout.id))!.state).toBe('Expired');

    // Paid after the window: the provider's completion date is past its end.
    emulatorClock.set(bffClock.now());
    await emulator.provider.sandbox.pix.complete(checkout.transactionId, payer);
    bffClock.advance(2 * MINUTE);
    await bff.checkout.reconciler.runOnce();
    expect((await bff.store.eventsAfter(checkout.id, 0)).map((e) => [e.state, e.data.late ?? false])).toEqual([
      ['Registered', false],
      ['Expired', false],
      ['Completed', true],
    ]);
  });

  it('an expired checkout is no longer followed a day after its expiry', async () => {
    const checkout = await create();
    bffClock.advance(31 * MINUTE);
    await bff.checkout.reconciler.runOnce();
    bffClock.advance(25 * 60 * MINUTE);
    await emulator.provider.sandbox.pix.complete(checkout.transactionId, payer);
    await bff.checkout.reconciler.runOnce();
    expect((await bff.store.getCheckout(checkout.id))!.state).toBe('Expired');
  });
});
