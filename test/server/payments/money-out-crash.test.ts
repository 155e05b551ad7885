/**
 * Issue 35's M3, on SQLite and (with TEST_DATABASE_URL) PostgreSQL: the standalone BFF as a child process, on an
 * emulator in this process (the provider outlives the crash), sends 40 refunds and 40 cash-outs at once and is killed
 * with SIGKILL while they are in flight: some answered, some held on the way (they reach the provider after the
 * crash), some never arriving. Restarted, with nobody asking for any key again: while they are unknown, a new refund of
 * their checkouts is refused (409 `refund_in_progress`); once past the settle window the reconciler has settled every
 * one to the provider's truth (adopted with the provider's transaction and state, or released when the provider has
 * none), the merchant's feed has one event of each kind per movement (`refund.created`, then one final event when it
 * ends), and no movement can be paid twice: each key answers its one cash-out, and the paid cap holds.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sha256 } from '../../../server/payments/cashouts';
import { ADMIN_KEY_HEADER } from '../../../server/sandbox/company/routes/admin';
import type { ProviderClient } from '../../../server/provider';
import type { Tuning } from '../../../server/server';
import type { Store } from '../../../server/store/types';
import { startBffChild, type BffChild } from '../helpers/bff-child';
import { startChildWorld, type ChildWorld } from '../helpers/child-world';
import type { AroundSandbox } from '../helpers/sandbox';
import { jsonClient, tempDir } from '../helpers/server';
import { createTestDatabase, TEST_DATABASE_URL } from '../store/pg-test-database';
import { openTestStore } from '../helpers/store';

const MOVEMENTS = 40;
/** Cash-out calls the emulator answers before it starts holding them (answered, perhaps not stored, at the crash). */
const ANSWERED = 10;
const PAYER = { name: 'Maria Pagadora', taxNumber: '52998224725' };
const CASH_OUT_PATH = '/accounts/pix/cashout';

/**
 * Holds the BFF's cash-out calls past the first `ANSWERED`; at the crash each held one lands late or never arrives,
 * and the calls after it go straight through.
 */
function cashOutGate() {
  let answered = 0;
  /** After the crash every call goes straight through. */
  let released = false;
  const orders = { answered: [] as string[], landed: [] as string[], dropped: [] as string[] };
  const held: { orderId: string; decide: (land: boolean) => void }[] = [];
  const landing: Promise<unknown>[] = [];
  const around: AroundSandbox = async (request, handle) => {
    if (request.method !== 'POST' || !new URL(request.url).pathname.endsWith(CASH_OUT_PATH)) return handle(request);
    // Read whole now: the caller may be dead by the time the call reaches the provider.
    const body = await request.text();
    const copy = new Request(request.url, { method: 'POST', headers: request.headers, body });
    const orderId = (JSON.parse(body) as { transaction: { orderId: string } }).transaction.orderId;
    if (released || answered++ < ANSWERED) {
      orders.answered.push(orderId);
      return handle(copy);
    }
    const land = await new Promise<boolean>((decide) => held.push({ orderId, decide }));
    (land ? orders.landed : orders.dropped).push(orderId);
    if (!land) return new Response(null, { status: 503 });
    const done = handle(copy);
    landing.push(done);
    return done;
  };
  return {
    around,
    orders,
    held: () => held.length,
    /** Every other held call reaches the provider now; the rest never do. Resolves once the provider made them. */
    async release() {
      released = true;
      held.forEach(({ decide }, i) => decide(i % 2 === 0));
      await vi.waitFor(() => expect(landing).toHaveLength(Math.ceil(held.length / 2)));
      await Promise.allSettled(landing);
    },
    calls: () => answered,
  };
}

const stores: [string, () => Promise<{ databaseUrl?: string; drop(): Promise<void> }>][] = [
  ['SQLite', async () => ({ drop: async () => undefined })],
  ...(TEST_DATABASE_URL
    ? ([
        [
          'PostgreSQL',
          async () => {
            const db = await createTestDatabase(TEST_DATABASE_URL!);
            return { databaseUrl: db.url, drop: () => db.drop() };
          },
        ],
      ] as [string, () => Promise<{ databaseUrl?: string; drop(): Promise<void> }>][])
    : []),
];

describe.each(stores)('refunds and cash-outs cut by a crash (%s)', (_name, database) => {
  const gate = cashOutGate();
  const adminToken = randomBytes(24).toString('base64url');
  const dataDir = tempDir('money-out-crash-');
  let world: ChildWorld;
  let sandbox: ChildWorld['sandbox'];
  let db: Awaited<ReturnType<(typeof stores)[number][1]>>;
  let env: Record<string, string>;
  let bff: BffChild | undefined;
  let store: Store | undefined;
  let provider: ProviderClient;

  beforeAll(async () => {
    db = await database();
    world = await startChildWorld({
      order: { amountCents: 4_000, description: 'Pedido do teste de queda' },
      sandbox: { around: gate.around },
    });
    ({ sandbox, provider } = world);
    env = {
      ...world.env,
      DATA_DIR: dataDir,
      ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}),
      ADMIN_TOKEN: adminToken,
      APPROVAL_ABOVE: '100000.00',
    };
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await bff?.kill();
    await world?.close();
    await db?.drop();
  });

  /** The BFF started (again) on the same data, port and database, with the reconciler at `tuning`'s pace. */
  const start = async (tuning: Tuning) => {
    bff = await startBffChild(env, { reconcileIntervalMs: 200, staleAfterMs: 1_000, ...tuning });
    return bff;
  };
  const admin = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    jsonClient(bff!.url)(method, `/api/admin${path}`, body, { authorization: `Bearer ${adminToken}`, ...headers });
  const orderIdOf = (kind: 'refund' | 'payout', key: string) => `${kind}-${sha256(key).slice(0, 20)}`;
  /** What the provider holds for an order id: its cash-outs (never more than one, or money left twice). */
  const atProvider = async (orderId: string) => (await world.atProvider(orderId)).filter((item) => item.transaction.type === 'Debit');

  it('settles every one to the provider after a restart, with one event of each kind, and none can be paid twice', async () => {
    await start({ settleAfterMs: 60_000 });
    // 40 payments of R$ 40,00, paid by a named payer.
    const checkouts = await Promise.all(
      Array.from({ length: MOVEMENTS }, async () => {
        const { orderId, orderToken } = world.newOrder('M3');
        const made = await jsonClient(bff!.url)('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
        expect(made.status, made.text).toBe(201);
        await provider.sandbox.pix.complete(made.body.transactionId, PAYER);
        return made.body.id as string;
      }),
    );
    await vi.waitFor(
      async () => {
        for (const id of checkouts) expect((await admin('GET', `/checkouts/${id}`)).body.checkout.state).toBe('Completed');
      },
      { timeout: 15_000, interval: 200 },
    );

    // 40 refunds of R$ 20,00 and 40 cash-outs of R$ 20,00 at once; the BFF dies with most of them on the way.
    const refunds = checkouts.map((checkoutId) => ({ checkoutId, key: randomUUID() }));
    const payouts = Array.from({ length: MOVEMENTS }, () => ({ key: randomUUID() }));
    const payout = (key: string) =>
      admin(
        'POST',
        '/cashouts',
        {
          recipient: { name: 'João Recebedor', cpf: '529.982.247-25' },
          key: { type: 'EMAIL', value: 'joao@example.com' },
          amount: '20.00',
        },
        { 'idempotency-key': key },
      );
    const refund = (checkoutId: string, key: string, amount = '20.00') =>
      admin('POST', `/checkouts/${checkoutId}/refunds`, { amount }, { 'idempotency-key': key });
    const inFlight = Promise.allSettled([
      ...refunds.map(({ checkoutId, key }) => refund(checkoutId, key)),
      ...payouts.map(({ key }) => payout(key)),
    ]);
    await vi.waitFor(() => expect(gate.held()).toBe(2 * MOVEMENTS - ANSWERED), { timeout: 20_000, interval: 20 });
    await bff!.kill();
    await inFlight;
    await gate.release();
    const { answered, landed, dropped } = gate.orders;
    expect([answered.length, landed.length, dropped.length]).toEqual([ANSWERED, 35, 35]);

    // Restarted, still within the settle window: whatever is unknown stays so, and a new refund of it waits.
    await start({ settleAfterMs: 60_000 });
    const unknown = refunds.filter(({ key }) => !answered.includes(orderIdOf('refund', key)));
    for (const { checkoutId } of unknown) {
      const again = await refund(checkoutId, randomUUID());
      expect(again, again.text).toMatchObject({ status: 409, body: { error: { code: 'refund_in_progress' } } });
    }
    expect(gate.calls()).toBe(2 * MOVEMENTS);
    await bff!.kill();

    // Restarted with a short window, nobody asking: the reconciler settles every one to the provider's truth.
    await start({ settleAfterMs: 1_000 });
    store = db.databaseUrl
      ? await openTestStore({ databaseUrl: db.databaseUrl })
      : await openTestStore({ file: join(dataDir, 'checkout.sqlite') });
    const movements = [
      ...refunds.map(({ key }) => ({ key, orderId: orderIdOf('refund', key) })),
      ...payouts.map(({ key }) => ({ key, orderId: orderIdOf('payout', key) })),
    ];
    const settled = async () => {
      for (const { key, orderId } of movements) {
        const [made, ...more] = await atProvider(orderId);
        expect(more, orderId).toEqual([]);
        const stored = await store!.getCashOut(key);
        if (!made) expect(stored, `${orderId}: the provider has none`).toBeUndefined();
        else expect(stored, orderId).toMatchObject({ transactionId: made.transaction.id, state: made.transaction.state });
      }
    };
    await vi.waitFor(settled, { timeout: 20_000, interval: 250 });
    for (const orderId of dropped) expect(await atProvider(orderId)).toEqual([]);

    // One refund.created per refund the provider made; nothing yet of a cash-out still under way.
    const eventsOf = async (key: string) =>
      (await store!.merchantEventsAfter(0, 10_000)).filter((e) => e.data.idempotencyKey === key).map((e) => e.type);
    const made = async (key: string) => store!.getCashOut(key);
    for (const { key } of refunds) expect(await eventsOf(key)).toEqual((await made(key)) ? ['refund.created'] : []);
    for (const { key } of payouts) expect(await eventsOf(key)).toEqual([]);

    // Five of each reach their end at the provider: one final event each, however many passes run.
    const ending = [...refunds.slice(0, 5), ...payouts.slice(0, 5)];
    for (const { key } of ending) {
      const cashOut = await made(key);
      if (!cashOut) continue;
      const answer = await jsonClient(sandbox.url)(
        'POST',
        `/sandbox/admin/cashouts/${cashOut.transactionId}/complete`,
        {},
        {
          [ADMIN_KEY_HEADER]: sandbox.sandbox.adminKey,
        },
      );
      expect(answer.status, answer.text).toBe(200);
    }
    await vi.waitFor(settled, { timeout: 20_000, interval: 250 });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    for (const { key } of ending.slice(0, 5)) {
      if (await made(key)) expect(await eventsOf(key)).toEqual(['refund.created', 'refund.completed']);
    }
    for (const { key } of ending.slice(5)) if (await made(key)) expect(await eventsOf(key)).toEqual(['cashout.completed']);

    // No second payout: each key answers its one cash-out (a released one is sent now, once), and the cap holds.
    for (const { checkoutId, key } of refunds) {
      const kept = await made(key);
      const again = await refund(checkoutId, key);
      expect(again.status, again.text).toBe(kept ? 200 : 201);
      if (kept) expect(again.body.transactionId).toBe(kept.transactionId);
      const more = await refund(checkoutId, randomUUID(), '20.01');
      expect(more, more.text).toMatchObject({ status: 409, body: { error: { code: 'refund_exceeds_paid' } } });
    }
    for (const { key } of payouts) {
      const kept = await made(key);
      const again = await payout(key);
      expect(again.status, again.text).toBe(kept ? 200 : 201);
    }
    for (const { orderId } of movements) expect(await atProvider(orderId)).toHaveLength(1);
  }, 120_000);
});
