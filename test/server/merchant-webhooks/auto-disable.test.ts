/**
 * An endpoint whose every attempt failed for five days (no 2xx since) is disabled by itself, and the list says so and
 * since when; its delivery is given up, and the event and its attempts are kept. Time is a clock the test moves, so
 * five days pass in a second.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../server/lib/clock';
import { startRecordingServer } from '../helpers/http';
import { startTestServer, type TestServer } from '../helpers/server';
import { DATABASES, type TestDatabaseEnv } from './databases';

const TOKEN = 'admin-token-for-auto-disable-0123456';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
let server: TestServer;
let clock: ManualClock;
let failing: Awaited<ReturnType<typeof startRecordingServer>>;

const admin = (method: string, path: string, body?: unknown) =>
  server.json(method, `/api/admin${path}`, body, { authorization: `Bearer ${TOKEN}` });

describe.each(DATABASES)('the automatic disable (%s)', (_name, database) => {
  let db: TestDatabaseEnv;
  beforeAll(async () => {
    db = await database();
    failing = await startRecordingServer((_req, res) => void res.writeHead(503).end());
    clock = new ManualClock(new Date());
    const tuning = { merchantWebhookRetryDelaysMs: [50, 50, 50] };
    server = await startTestServer({ env: { ADMIN_TOKEN: TOKEN, ...db.env }, start: { clock, tuning } });
  });
  afterAll(async () => {
    await server?.close();
    await failing?.close();
    await db?.drop();
  });

  it('disables an endpoint that failed every attempt for five days, and says why and since when', async () => {
    const added = (await admin('POST', '/webhook-endpoints', { url: failing.url })).body as { id: string };
    const { orderId, orderToken } = await server.order();
    const checkout = (await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' })).body;
    await server.provider.sandbox.pix.complete(checkout.transactionId, { name: 'Maria Pagadora', taxNumber: '52998224725' });
    await vi.waitFor(() => expect(failing.requests).toHaveLength(1), { timeout: 5_000 });
    const started = clock.now().getTime();

    // Each move of the clock makes the next attempt due; every one fails.
    const listed = async () => (await admin('GET', '/webhook-endpoints')).body.items.find((e: { id: string }) => e.id === added.id);
    for (const step of [HOUR, HOUR, HOUR, DAY, DAY, DAY, DAY]) {
      const before = failing.requests.length;
      clock.advance(step);
      await vi.waitFor(() => expect(failing.requests.length).toBeGreaterThan(before), { timeout: 5_000 });
      expect((await listed()).enabled).toBe(true);
    }
    expect(clock.now().getTime() - started).toBeLessThan(5 * DAY);

    clock.advance(DAY);
    const attempts = failing.requests.length;
    await vi.waitFor(() => expect(failing.requests.length).toBe(attempts + 1), { timeout: 5_000 });
    await vi.waitFor(async () =>
      expect(await listed()).toMatchObject({ enabled: false, disabled: { reason: 'failing', since: clock.now().toISOString() } }),
    );
    const event = (await admin('GET', '/webhook-events?limit=500')).body.items.find(
      (e: { data: { orderId: string } }) => e.data.orderId === orderId,
    );
    expect(event.deliveries.find((d: { endpointId: string }) => d.endpointId === added.id)).toMatchObject({ state: 'failed' });

    // Disabled: nothing more is sent to it, however long. The event and its attempts are kept (30 days at least).
    clock.advance(30 * DAY);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(failing.requests).toHaveLength(attempts + 1);
    const log = (await admin('GET', `/webhook-events/${event.id}/attempts`)).body.items;
    expect(log.filter((a: { endpointId: string }) => a.endpointId === added.id)).toHaveLength(attempts + 1);
  });
});
