/**
 * The merchant's own webhook endpoints, added through the back office (`/api/admin/webhook-endpoints`) beside the
 * environment's: each gets the events of its type filter, signed with its secrets (two while rotating), none while
 * disabled; a test event on demand; each event's deliveries and attempts in the feed, and a redelivery with the same
 * `webhook-id`. Every delivery is verified with the Standard Webhooks library from npm, never with our own signer.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startRecordingServer, type RecordedRequest } from '../helpers/http';
import { startTestServer, type TestServer } from '../helpers/server';
import { DATABASES, type TestDatabaseEnv } from './databases';

const TOKEN = 'admin-token-for-webhook-endpoints-0123';
const PAYER = { name: 'Maria Pagadora', taxNumber: '52998224725' };
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
const open: { close(): Promise<void> }[] = [];
let server: TestServer;

const admin = (method: string, path: string, body?: unknown) =>
  server.json(method, `/api/admin${path}`, body, { authorization: `Bearer ${TOKEN}` });

/** A receiver answering `statuses` in turn (then 204), recording what it got. */
async function receiver(statuses: number[] = []) {
  const answers = [...statuses];
  const backend = await startRecordingServer((_req, res) => void res.writeHead(answers.shift() ?? 204).end());
  open.push(backend);
  return backend;
}

/** An endpoint added through the API, with the secret it answered once. */
async function addEndpoint(url: string, extra: Record<string, unknown> = {}) {
  const added = await admin('POST', '/webhook-endpoints', { url, ...extra });
  expect(added.status, added.text).toBe(201);
  return added.body as { id: string; secret: string };
}

async function payAnOrder() {
  const { orderId, orderToken, amount } = await server.order();
  const checkout = (await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' })).body;
  await server.provider.sandbox.pix.complete(checkout.transactionId, PAYER);
  return { orderId, amount, checkout };
}

async function failAnOrder() {
  const { orderId, orderToken } = await server.order();
  const checkout = (await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' })).body;
  await server.provider.sandbox.pix.error(checkout.transactionId);
  return { orderId };
}

/** Verifies a delivery with the Standard Webhooks library; returns the event it carries. */
const verified = (secret: string, request: RecordedRequest) =>
  new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as { id: string; type: string; data: any };
const arrived = (backend: { requests: RecordedRequest[] }, count: number) =>
  vi.waitFor(() => expect(backend.requests.length).toBeGreaterThanOrEqual(count), { timeout: 5_000 });
const settle = () => new Promise((resolve) => setTimeout(resolve, 400));

describe.each(DATABASES)("the merchant's webhook endpoints (%s)", (_name, database) => {
  let db: TestDatabaseEnv;
  beforeAll(async () => {
    db = await database();
    const tuning = { merchantWebhookRetryDelaysMs: [50, 50, 50] };
    server = await startTestServer({ env: { ADMIN_TOKEN: TOKEN, ...db.env }, start: { tuning } });
  });
  afterAll(async () => {
    while (open.length) await open.pop()!.close();
    await server?.close();
    await db?.drop();
  });

  it('adds an endpoint whose secret is answered once, and delivers a paid order to it, verified', async () => {
    const backend = await receiver();
    const { id, secret } = await addEndpoint(`${backend.url}/hooks`);
    expect(id).toMatch(/^we_[A-Za-z0-9_-]+$/);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);

    const list = await admin('GET', '/webhook-endpoints');
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(secret.slice(6, 20));
    const item = list.body.items.find((e: { id: string }) => e.id === id);
    expect(item).toEqual({
      id,
      url: `${backend.url}/hooks`,
      types: [],
      source: 'store',
      enabled: true,
      disabled: null,
      secretHints: [`whsec_…${secret.slice(-4)}`],
      rotatingUntil: null,
      createdAt: expect.any(String),
    });
    // The environment's endpoint (the demo's own receiver here) is listed too, and stays as it is.
    expect(list.body.items[0]).toMatchObject({ id: 'env', source: 'environment', enabled: true });

    const { orderId, amount, checkout } = await payAnOrder();
    await arrived(backend, 1);
    const [request] = backend.requests;
    expect(request).toMatchObject({ method: 'POST', url: '/hooks' });
    const event = verified(secret, request!);
    expect(event).toMatchObject({ type: 'checkout.completed', data: { orderId, amount, checkoutId: checkout.id } });
    expect(request!.headers['webhook-id']).toBe(event.id);
    await settle();
    expect(backend.requests).toHaveLength(1);
  });

  it('uses a secret it is given, and sends an endpoint only the types of its filter', async () => {
    const [failures, everything] = [await receiver(), await receiver()];
    const secret = newSecret();
    const filtered = await addEndpoint(failures.url, { secret, types: ['checkout.failed'] });
    expect(filtered.secret).toBe(secret);
    const all = await addEndpoint(everything.url);
    await payAnOrder();
    const { orderId } = await failAnOrder();
    await arrived(everything, 2);
    await arrived(failures, 1);
    await settle();
    expect(everything.requests.map((r) => verified(all.secret, r).type)).toEqual(['checkout.completed', 'checkout.failed']);
    expect(failures.requests.map((r) => verified(secret, r))).toMatchObject([{ type: 'checkout.failed', data: { orderId } }]);
    const listed = (await admin('GET', '/webhook-endpoints')).body.items.find((e: { id: string }) => e.id === filtered.id);
    expect(listed.types).toEqual(['checkout.failed']);
  });

  it('stops delivering to a disabled endpoint, and sends it the events written once it is enabled again', async () => {
    const [paused, witness] = [await receiver(), await receiver()];
    const endpoint = await addEndpoint(paused.url);
    await addEndpoint(witness.url);
    const disabled = await admin('POST', `/webhook-endpoints/${endpoint.id}/disable`);
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ id: endpoint.id, enabled: false, disabled: { reason: 'owner', since: expect.any(String) } });
    await payAnOrder();
    await arrived(witness, 1);
    await settle();
    expect(paused.requests).toHaveLength(0);

    expect((await admin('POST', `/webhook-endpoints/${endpoint.id}/enable`)).body).toMatchObject({ enabled: true, disabled: null });
    const { orderId } = await payAnOrder();
    await arrived(paused, 1);
    await settle();
    expect(paused.requests.map((r) => verified(endpoint.secret, r).data.orderId)).toEqual([orderId]);
  });

  it('signs with the old and the new secret while one is rotated, and with the new one alone once it is finished', async () => {
    const backend = await receiver();
    const { id, secret: old } = await addEndpoint(backend.url);
    const rotated = await admin('POST', `/webhook-endpoints/${id}/rotate`);
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(old);
    expect(rotated.body).toMatchObject({ secretHints: [`whsec_…${fresh.slice(-4)}`, `whsec_…${old.slice(-4)}`] });
    expect(Date.parse(rotated.body.rotatingUntil) - Date.now()).toBeGreaterThan(23 * 3_600_000);

    await payAnOrder();
    await arrived(backend, 1);
    expect(verified(old, backend.requests[0]!).type).toBe('checkout.completed');
    expect(verified(fresh, backend.requests[0]!).type).toBe('checkout.completed');

    const finished = await admin('POST', `/webhook-endpoints/${id}/rotate/finish`);
    expect(finished.body).toMatchObject({ secretHints: [`whsec_…${fresh.slice(-4)}`], rotatingUntil: null });
    await payAnOrder();
    await arrived(backend, 2);
    expect(verified(fresh, backend.requests[1]!).type).toBe('checkout.completed');
    expect(() => verified(old, backend.requests[1]!)).toThrow();
  });

  it("sends a signed test event on demand and answers with the receiver's status", async () => {
    const backend = await receiver([204, 500]);
    const { id, secret } = await addEndpoint(backend.url);
    const sent = await admin('POST', `/webhook-endpoints/${id}/test`);
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ eventId: expect.stringMatching(/^evt_/), delivered: true, status: 204, error: null });
    const event = verified(secret, backend.requests[0]!);
    expect(event).toMatchObject({ id: sent.body.eventId, type: 'webhook.test', data: { endpointId: id } });
    expect((await admin('POST', `/webhook-endpoints/${id}/test`)).body).toMatchObject({ delivered: false, status: 500, error: 'HTTP 500' });
    // The environment's endpoint can be tested too.
    expect((await admin('POST', '/webhook-endpoints/env/test')).body).toMatchObject({ delivered: true });
  });

  it('lists each event with its deliveries and attempts, and redelivers it with the same webhook-id', async () => {
    const backend = await receiver([500]);
    const { id, secret } = await addEndpoint(backend.url);
    const { orderId } = await payAnOrder();
    await arrived(backend, 2);
    const event = verified(secret, backend.requests[1]!);
    expect(event.data.orderId).toBe(orderId);

    const feed = (await admin('GET', '/webhook-events?limit=500')).body.items as { id: string; deliveries: any[] }[];
    const listed = feed.find((item) => item.id === event.id)!;
    await vi.waitFor(async () => {
      const items = (await admin('GET', '/webhook-events?limit=500')).body.items as { id: string; deliveries: any[] }[];
      expect(items.find((item) => item.id === event.id)!.deliveries).toContainEqual({
        endpointId: id,
        state: 'delivered',
        attempts: 2,
        lastStatus: 204,
        nextAt: null,
        deliveredAt: expect.any(String),
      });
    });
    expect(listed.deliveries.map((d) => d.endpointId)).toContain('env');

    const attempts = await admin('GET', `/webhook-events/${event.id}/attempts`);
    expect(attempts.status).toBe(200);
    const mine = attempts.body.items.filter((a: { endpointId: string }) => a.endpointId === id);
    expect(mine).toEqual([
      { at: expect.any(String), endpointId: id, status: 500, durationMs: expect.any(Number), error: 'HTTP 500' },
      { at: expect.any(String), endpointId: id, status: 204, durationMs: expect.any(Number), error: null },
    ]);

    const again = await admin('POST', `/webhook-events/${event.id}/redeliver?endpoint=${id}`);
    expect(again.status).toBe(202);
    expect(again.body).toEqual({
      deliveries: [
        { endpointId: id, state: 'pending', attempts: 0, lastStatus: 204, nextAt: expect.any(String), deliveredAt: expect.any(String) },
      ],
    });
    await arrived(backend, 3);
    const repeat = verified(secret, backend.requests[2]!);
    expect(repeat.id).toBe(event.id);
    expect(backend.requests[2]!.headers['webhook-id']).toBe(event.id);
    await vi.waitFor(async () =>
      expect((await admin('GET', `/webhook-events/${event.id}/attempts`)).body.items.filter((a: any) => a.endpointId === id)).toHaveLength(
        3,
      ),
    );

    // Without `endpoint`: to every enabled endpoint whose filter takes it, the environment's too.
    const everywhere = await admin('POST', `/webhook-events/${event.id}/redeliver`);
    expect(everywhere.status).toBe(202);
    expect(everywhere.body.deliveries.map((d: { endpointId: string }) => d.endpointId)).toEqual(expect.arrayContaining(['env', id]));
  });

  it('deletes an endpoint, which then gets nothing', async () => {
    const backend = await receiver();
    const { id } = await addEndpoint(backend.url);
    expect((await admin('DELETE', `/webhook-endpoints/${id}`)).body).toEqual({ id, deleted: true });
    expect((await admin('GET', '/webhook-endpoints')).body.items.map((e: { id: string }) => e.id)).not.toContain(id);
    await payAnOrder();
    await settle();
    expect(backend.requests).toHaveLength(0);
    expect((await admin('DELETE', `/webhook-endpoints/${id}`)).status).toBe(404);
  });

  it('refuses what it cannot do, with the envelope and a code', async () => {
    const code = async (method: string, path: string, body?: unknown) => {
      const answer = await admin(method, path, body);
      expect(answer.body.statusCode, `${method} ${path}`).toBe('Error');
      return [answer.status, answer.body.error.code];
    };
    for (const body of [
      { url: 'ftp://shop.example/hooks' },
      { url: 'not a url' },
      { url: 'javascript:alert(1)' },
      { url: 'https://shop.example/hooks', types: ['checkout.paid'] },
      { url: 'https://shop.example/hooks', secret: 'whsec_short' },
      { url: 'https://shop.example/hooks', secret: 'not-a-secret' },
      {},
    ]) {
      expect(await code('POST', '/webhook-endpoints', body), JSON.stringify(body)).toEqual([400, 'invalid_request']);
    }
    // The emulator takes a receiver on the loopback address, never one in the server's network.
    for (const url of ['http://10.0.0.1/hooks', 'https://169.254.169.254/latest', 'http://shop.example/hooks']) {
      expect(await code('POST', '/webhook-endpoints', { url }), url).toEqual([400, 'webhook_endpoint_url_not_allowed']);
    }
    for (const path of ['/disable', '/enable', '/rotate', '/rotate/finish', '/test']) {
      expect(await code('POST', `/webhook-endpoints/we_nope${path}`)).toEqual([404, 'webhook_endpoint_not_found']);
    }
    expect(await code('DELETE', '/webhook-endpoints/we_nope')).toEqual([404, 'webhook_endpoint_not_found']);
    for (const path of ['/disable', '/enable', '/rotate', '/rotate/finish']) {
      expect(await code('POST', `/webhook-endpoints/env${path}`)).toEqual([409, 'webhook_endpoint_from_environment']);
    }
    expect(await code('DELETE', '/webhook-endpoints/env')).toEqual([409, 'webhook_endpoint_from_environment']);
    expect(await code('GET', '/webhook-events/evt_nope/attempts')).toEqual([404, 'webhook_event_not_found']);
    expect(await code('POST', '/webhook-events/evt_nope/redeliver')).toEqual([404, 'webhook_event_not_found']);
    const event = (await admin('GET', '/webhook-events?limit=1')).body.items[0];
    expect(await code('POST', `/webhook-events/${event.id}/redeliver?endpoint=we_nope`)).toEqual([404, 'webhook_endpoint_not_found']);
    const backend = await receiver();
    const { id } = await addEndpoint(backend.url);
    await admin('POST', `/webhook-endpoints/${id}/disable`);
    expect(await code('POST', `/webhook-events/${event.id}/redeliver?endpoint=${id}`)).toEqual([409, 'webhook_endpoint_disabled']);
    expect((await server.json('GET', '/api/admin/webhook-endpoints')).status).toBe(401);
  });
});
