/**
 * Each webhook endpoint has a lane of its own in the delivery worker (server/merchant-webhooks/delivery.ts, lanes.ts): three
 * endpoints that accept the connection and never answer (each holds its deliveries for the whole 10 s timeout) leave
 * a healthy endpoint's deliveries, and MERCHANT_WEBHOOK_URL's, arriving well inside that timeout, as if the
 * hanging ones were not there; and each hanging endpoint gets no more than its lane's share of connections. The
 * whole product, as `npm start` runs it: the worker in its thread, the endpoints added through the back office.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startRecordingServer } from '../helpers/http';
import { startTestServer, type TestServer } from '../helpers/server';
import { DATABASES, type TestDatabaseEnv } from './databases';

const TOKEN = 'admin-token-for-webhook-lanes-012345';
const PAYER = { name: 'Maria Pagadora', taxNumber: '52998224725' };
/** More than a lane takes at once (16), so each hanging endpoint has a backlog behind its full lane. */
const PAYMENTS = 40;
const LANE = 16;
/** Half the 10 s a delivery attempt may hang: a delivery that came sooner did not wait behind a hanging one. */
const HANG_BOUND_MS = 5_000;

/** A receiver that takes each request and never answers it; it counts how many it held open at once. */
async function hangingReceiver() {
  const sockets = new Set<Socket>();
  let open = 0;
  let mostOpen = 0;
  let received = 0;
  const server: Server = createServer((req: IncomingMessage) => {
    received++;
    mostOpen = Math.max(mostOpen, ++open);
    req.socket.once('close', () => open--);
    req.resume();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    stats: () => ({ received, mostOpen }),
    /** Drops every held request (the worker's attempts then fail at once) and stops. */
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A receiver answering 204 that notes when each verified event arrived. */
async function timedReceiver(secret: string) {
  const arrivals = new Map<string, { at: number; createdAt: string; orderId: string }>();
  const backend = await startRecordingServer((req, res) => {
    const at = Date.now();
    const event = new Webhook(secret).verify(req.body, req.headers as Record<string, string>) as {
      id: string;
      createdAt: string;
      data: { orderId: string };
    };
    arrivals.set(event.id, { at, createdAt: event.createdAt, orderId: event.data.orderId });
    res.writeHead(204).end();
  });
  return { ...backend, arrivals };
}

/** How late each event arrived after it was written, in ms, worst first. */
const lateness = (arrivals: Map<string, { at: number; createdAt: string }>) =>
  [...arrivals.values()].map(({ at, createdAt }) => at - Date.parse(createdAt)).sort((a, b) => b - a);

describe.each(DATABASES)('deliveries beside endpoints that hang (%s)', (_name, database) => {
  let db: TestDatabaseEnv;
  let server: TestServer;
  const envSecret = `whsec_${randomBytes(32).toString('base64')}`;
  let environment: Awaited<ReturnType<typeof timedReceiver>>;
  let hanging: Awaited<ReturnType<typeof hangingReceiver>>[];
  const admin = (method: string, path: string, body?: unknown) =>
    server.json(method, `/api/admin${path}`, body, { authorization: `Bearer ${TOKEN}` });

  beforeAll(async () => {
    db = await database();
    environment = await timedReceiver(envSecret);
    hanging = await Promise.all([hangingReceiver(), hangingReceiver(), hangingReceiver()]);
    server = await startTestServer({
      // No limit on checkouts per minute: the test pays more orders than the default lets one client start.
      env: {
        ADMIN_TOKEN: TOKEN,
        CHECKOUT_RATE_PER_MINUTE: '0',
        MERCHANT_WEBHOOK_URL: environment.url,
        MERCHANT_WEBHOOK_SECRET: envSecret,
        ...db.env,
      },
    });
  });
  afterAll(async () => {
    // The hanging receivers go first: their held attempts then fail at once, and the worker stops without waiting.
    await Promise.all(hanging?.map((receiver) => receiver.close()) ?? []);
    await server?.close();
    await environment?.close();
    await db?.drop();
  });

  it('delivers to a healthy endpoint and MERCHANT_WEBHOOK_URL without waiting behind three others that hang', async () => {
    for (const receiver of hanging) expect((await admin('POST', '/webhook-endpoints', { url: receiver.url })).status).toBe(201);
    const healthySecret = `whsec_${randomBytes(32).toString('base64')}`;
    const healthy = await timedReceiver(healthySecret);
    try {
      const { status } = await admin('POST', '/webhook-endpoints', { url: `${healthy.url}/hooks`, secret: healthySecret });
      expect(status).toBe(201);

      const pay = async () => {
        const { orderId, orderToken } = await server.order();
        const checkout = (await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' })).body;
        await server.provider.sandbox.pix.complete(checkout.transactionId, PAYER);
        return orderId;
      };
      // The delivery thread takes a second or two to load: one order delivered first, so that what is timed is the lanes.
      const first = await pay();
      await vi.waitFor(() => expect([...healthy.arrivals.values()].map((a) => a.orderId)).toContain(first), { timeout: 10_000 });
      healthy.arrivals.clear();
      environment.arrivals.clear();

      const orders: string[] = [];
      for (let i = 0; i < PAYMENTS; i++) orders.push(await pay());
      const arrivedFor = (receiver: Awaited<ReturnType<typeof timedReceiver>>) =>
        new Set([...receiver.arrivals.values()].map((arrival) => arrival.orderId));
      await vi.waitFor(
        () => {
          expect(orders.filter((orderId) => !arrivedFor(healthy).has(orderId))).toEqual([]);
          expect(orders.filter((orderId) => !arrivedFor(environment).has(orderId))).toEqual([]);
        },
        { timeout: 15_000, interval: 50 },
      );

      // The hanging ones did hang: each took a full lane of requests and answered none (the timeout is 10 s).
      for (const receiver of hanging) {
        const { received, mostOpen } = receiver.stats();
        expect(received).toBeGreaterThanOrEqual(LANE);
        // Its own lane's share, never more.
        expect(mostOpen).toBeLessThanOrEqual(LANE);
      }
      // No delivery to the healthy endpoint or to the environment's waited behind a hanging attempt: each came well
      // inside the 10 s an attempt may hang (a bound on the lanes, not on the machine's speed: a loaded CI machine
      // took 1.3 s where a quiet one takes 0.1 s; queued behind the hanging ones, it would be 10 s or more).
      expect(lateness(healthy.arrivals)[0]).toBeLessThan(HANG_BOUND_MS);
      expect(lateness(environment.arrivals)[0]).toBeLessThan(HANG_BOUND_MS);
    } finally {
      await healthy.close();
    }
  }, 60_000);
});
