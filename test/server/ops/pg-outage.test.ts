/**
 * Issue 37's point 8 on PostgreSQL: the standalone BFF as a child process on a cluster of this test's own (never the
 * shared TEST_DATABASE_URL, which other suites use: this one stops it), with the emulator in this process as its
 * provider. Checkouts are made, a status stream is open; then PostgreSQL is stopped for 20 s. Meanwhile every answer to
 * a shopper is a 503 `store_unavailable` with `Retry-After` in the error envelope, within a bounded time (never a hang,
 * never a 500), `/readyz` is 503, `/healthz` 200 (the process lives), and payments are made at the emulator (their
 * webhooks refused). PostgreSQL started again, the same process recovers without a restart: `/readyz` 200, new
 * checkouts, a stream resumed with `Last-Event-ID` delivers a later payment, the reconciler brings the payments made
 * during the outage to Completed, the merchant's webhooks are delivered, and each order has one provider transaction.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ProviderClient } from '../../../server/provider';
import { startBffChild, type BffChild } from '../helpers/bff-child';
import { startChildWorld, type ChildWorld } from '../helpers/child-world';
import { sendJson, startRecordingServer } from '../helpers/http';
import { jsonClient, tempDir } from '../helpers/server';
import { openSse, type SseConnection } from '../helpers/sse';

interface Cluster {
  url: string;
  stop(): void;
  halt(): void;
  resume(): Promise<void>;
}
// Plain JavaScript shared with `npm test`; imported by address so TypeScript does not look for its types.
const throwaway = (await import(
  pathToFileURL(fileURLToPath(new URL('../../../scripts/throwaway-postgres.mjs', import.meta.url))).href
)) as {
  findPostgresBin(): string | undefined;
  startThrowawayPostgres(options: { log: (line: string) => void }): Promise<Cluster>;
};

/** As long as the issue says. */
const OUTAGE_MS = 20_000;
/** The longest a shopper's request may take during the outage: far under the create deadline, never a hang. */
const ANSWER_WITHIN_MS = 10_000;
const PAYER = { name: 'Maria Pagadora', taxNumber: '52998224725' };
const MERCHANT_SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

describe.skipIf(!throwaway.findPostgresBin())('PostgreSQL stopped for 20 s under traffic, then started', () => {
  let cluster: Cluster;
  let world: ChildWorld;
  let merchant: Awaited<ReturnType<typeof startRecordingServer>>;
  let provider: ProviderClient;
  let bff: BffChild;
  let api: ReturnType<typeof jsonClient>;

  beforeAll(async () => {
    cluster = await throwaway.startThrowawayPostgres({ log: () => undefined });
    world = await startChildWorld({ order: { amountCents: 2_500, description: 'Pedido do teste de queda do banco' } });
    provider = world.provider;
    merchant = await startRecordingServer((_req, res) => sendJson(res, 200, {}));
    bff = await startBffChild(
      {
        ...world.env,
        DATA_DIR: tempDir('pg-outage-'),
        DATABASE_URL: cluster.url,
        MERCHANT_WEBHOOK_URL: `${merchant.url}/hooks`,
        MERCHANT_WEBHOOK_SECRET: MERCHANT_SECRET,
      },
      { reconcileIntervalMs: 300, staleAfterMs: 1_000, merchantWebhookRetryDelaysMs: [200, 500, 1_000] },
    );
    api = jsonClient(bff.url);
  }, 90_000);
  afterAll(async () => {
    await bff?.stop();
    await merchant?.close();
    await world?.close();
    cluster?.stop();
  });

  const newOrder = () => world.newOrder('PG');
  /** A checkout of the order: 201 when new, 200 when the order has one already (the create is idempotent). */
  const create = async (order = newOrder(), status = 201) => {
    const made = await api('POST', '/api/checkouts', { ...order, method: 'pix' });
    expect(made.status, made.text).toBe(status);
    return { ...order, id: made.body.id as string, transactionId: made.body.transactionId as string };
  };
  const stateOf = async (id: string) => ((await api('GET', `/api/checkouts/${id}`)).body as { state?: string }).state;
  /** The provider's transactions of an order id: one, or a payment was asked twice. */
  const atProvider = (orderId: string) => world.atProvider(orderId);
  /** The next status event of a stream, past its `retry:` hint. */
  const nextStatus = async (stream: SseConnection) => {
    for (;;) {
      const event = await stream.next(15_000);
      if (!event || event.retry === undefined || event.data) return event;
    }
  };
  /** One request during the outage: its status, `Retry-After` and code, or the failure of an answer not in time. */
  const during = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(bff.url + path, {
      method,
      headers: { accept: path.endsWith('/events') ? 'text/event-stream' : 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
    });
    const text = await response.text();
    let code: unknown;
    try {
      code = (JSON.parse(text) as { statusCode?: string; error?: { code?: string } }).error?.code;
    } catch {
      code = text.slice(0, 80);
    }
    return {
      what: `${method} ${path.replace(/[0-9a-f-]{36}/g, ':id')}`,
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      code,
    };
  };

  it('answers 503 with Retry-After meanwhile, then recovers without a restart and loses or doubles nothing', async () => {
    // Before: checkouts made, one paid, a stream open on another.
    const paidBefore = await create();
    await provider.sandbox.pix.complete(paidBefore.transactionId, PAYER);
    await vi.waitFor(async () => expect(await stateOf(paidBefore.id)).toBe('Completed'), { timeout: 15_000, interval: 100 });
    const streamed = await create();
    const toPayDuring = [await create(), await create()];
    let stream: SseConnection = await openSse(`${bff.url}/api/checkouts/${streamed.id}/events`);
    expect(stream.status).toBe(200);
    const first = await nextStatus(stream);
    expect(JSON.parse(first!.data)).toMatchObject({ id: streamed.id, state: 'Registered' });
    const lastEventId = first!.id!;
    expect((await fetch(`${bff.url}/readyz`)).status).toBe(200);

    cluster.halt();
    const outageEnds = Date.now() + OUTAGE_MS;
    // Payments made at the provider while the store is away: their webhooks are refused, the reconciler catches up.
    // (The emulator says the payment is made and its webhook was answered 503: it tries again later.)
    for (const checkout of toPayDuring) {
      const paid = await provider.sandbox.pix.complete(checkout.transactionId, PAYER).then(
        () => 'webhook taken',
        (error: Error) => error.message,
      );
      expect(paid).toMatch(/now Completed, but its webhook could not be delivered \(The webhook address answered HTTP 503\)/);
    }
    const triedDuring: { orderId: string; orderToken: string }[] = [];
    const answers: Awaited<ReturnType<typeof during>>[] = [];
    const readyz: number[] = [];
    const healthz: number[] = [];
    while (Date.now() < outageEnds - 1_500) {
      const order = newOrder();
      triedDuring.push(order);
      answers.push(
        ...(await Promise.all([
          during('POST', '/api/checkouts', { ...order, method: 'pix' }),
          during('GET', `/api/checkouts/${paidBefore.id}`),
          during('GET', `/api/checkouts/${streamed.id}/events`),
        ])),
      );
      readyz.push((await fetch(`${bff.url}/readyz`, { signal: AbortSignal.timeout(ANSWER_WITHIN_MS) })).status);
      healthz.push((await fetch(`${bff.url}/healthz`, { signal: AbortSignal.timeout(ANSWER_WITHIN_MS) })).status);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(answers.length).toBeGreaterThan(6);
    for (const answer of answers) {
      expect(answer, answer.what).toMatchObject({
        status: 503,
        retryAfter: expect.stringMatching(/^[1-9]\d*$/),
        code: 'store_unavailable',
      });
    }
    expect(new Set(readyz)).toEqual(new Set([503]));
    expect(new Set(healthz)).toEqual(new Set([200]));
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, outageEnds - Date.now())));

    await cluster.resume();
    // The same process, on its own: ready again once its pool reconnects.
    await vi.waitFor(async () => expect((await fetch(`${bff.url}/readyz`)).status).toBe(200), { timeout: 20_000, interval: 200 });
    const after = await create();

    // The stream: the one opened before has ended or lives on; the element's next connection resumes after the last
    // event it had, and hears a payment made now.
    stream.close();
    stream = await openSse(`${bff.url}/api/checkouts/${streamed.id}/events`, { 'last-event-id': lastEventId });
    expect(stream.status).toBe(200);
    await provider.sandbox.pix.complete(streamed.transactionId, PAYER);
    const event = await nextStatus(stream);
    expect(JSON.parse(event!.data)).toMatchObject({ id: streamed.id, state: 'Completed' });
    stream.close();

    // The reconciler brings the payments made during the outage to the provider's truth.
    await vi.waitFor(
      async () => {
        for (const checkout of toPayDuring) expect(await stateOf(checkout.id), checkout.id).toBe('Completed');
      },
      { timeout: 30_000, interval: 250 },
    );
    // The orders refused during the outage can be paid now, once each.
    const retried = [];
    for (const order of triedDuring.slice(0, 3)) retried.push(await create(order));
    expect(await create(triedDuring[0], 200)).toMatchObject({ id: retried[0]!.id, transactionId: retried[0]!.transactionId });

    // One provider transaction per order: nothing asked twice, nothing made for a refused create but its retry.
    for (const { orderId } of [paidBefore, streamed, ...toPayDuring, after, ...retried])
      expect(await atProvider(orderId), orderId).toHaveLength(1);
    for (const { orderId } of triedDuring.slice(3)) expect(await atProvider(orderId), orderId).toHaveLength(0);

    // The merchant hears of every payment, the ones of the outage included, once the delivery worker's passes succeed.
    const completedOrders = () =>
      new Set(
        merchant.requests
          .map((request) => JSON.parse(request.body) as { type: string; data: { orderId?: string } })
          .filter((event) => event.type === 'checkout.completed')
          .map((event) => event.data.orderId),
      );
    await vi.waitFor(
      () => {
        const heard = completedOrders();
        for (const { orderId } of [paidBefore, streamed, ...toPayDuring]) expect(heard.has(orderId), orderId).toBe(true);
      },
      { timeout: 30_000, interval: 250 },
    );

    // The process never went down, and said nothing of a crash.
    expect((await fetch(`${bff.url}/healthz`)).status).toBe(200);
    expect(bff.log()).not.toMatch(/unhandled|uncaught/i);
    // Each refusal is one short line in the log, naming the cause.
    expect(bff.log()).toMatch(/store_unavailable: /);
  }, 180_000);
});
