/**
 * The delivery worker in its own thread (server/merchant-webhooks/thread.ts), as `npm run serve` and `npm start` run it: a
 * backlog of merchant events is drained to a real receiver, every delivery verified with the Standard Webhooks
 * library, while the request thread's store never claims or records a delivery (none of the worker's passes run
 * there). Stopping it mid-drain loses nothing: the pass in progress records its attempts, and a new start delivers
 * the rest. On Linux it runs below the request thread's CPU priority (server/merchant-webhooks/thread-priority.ts).
 */
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BACKGROUND_NICE, DELIVERY_THREAD_NAME } from '../../../server/merchant-webhooks/thread-priority';
import { startRecordingServer } from '../helpers/http';
import { startTestServer, type TestServer } from '../helpers/server';

const PAYER = { name: 'Maria Pagadora', taxNumber: '52998224725' };
const BACKLOG = 300;
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  while (open.length) await open.pop()!.close();
});

/** A shop whose merchant webhook goes to a receiver that answers 204 and keeps the verified event ids. */
async function shopWithReceiver() {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const received: string[] = [];
  const backend = await startRecordingServer((req, res) => {
    const event = new Webhook(secret).verify(req.body, req.headers as Record<string, string>) as { id: string };
    received.push(event.id);
    res.writeHead(204).end();
  });
  open.push(backend);
  const server = await startTestServer({ env: { MERCHANT_WEBHOOK_URL: backend.url, MERCHANT_WEBHOOK_SECRET: secret } });
  open.push(server);
  return { server, received, backend };
}

async function payAnOrder(server: TestServer) {
  const { orderId, orderToken } = await server.order();
  const checkout = (await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' })).body;
  await server.provider.sandbox.pix.complete(checkout.transactionId, PAYER);
}

/** `count` copies of the newest merchant event under new ids, written straight into the store's file (a backlog). */
function seedBacklog(dataDir: string, count: number) {
  const db = new Database(join(dataDir, 'checkout.sqlite'));
  try {
    db.pragma('busy_timeout = 10000');
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO merchant_events (id, type, created_at, data)
       SELECT 'evt_backlog_' || i, t.type, t.created_at, t.data FROM n, (SELECT * FROM merchant_events ORDER BY seq DESC LIMIT 1) t`,
    ).run(count);
  } finally {
    db.close();
  }
}

/** A thread of this process as /proc tells it: its name and nice value (Linux). */
function threadInfo(tid: string) {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
  // The fields after the name (which may hold spaces) start at the third, the state; the nice value is the 19th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { name: readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim(), nice: Number(fields[16]) };
}
const threadsOfThisProcess = () => readdirSync('/proc/self/task').map(threadInfo);
/** The thread this test runs on, which is the server's request thread. */
const thisThread = () => threadInfo(readlinkSync('/proc/thread-self').split('/').at(-1)!);

describe('the delivery worker in its own thread', () => {
  it('drains a backlog to a real receiver, verified, with no claim or record of a delivery on the request thread', async () => {
    const { server, received } = await shopWithReceiver();
    await payAnOrder(server);
    await vi.waitFor(() => expect(received).toHaveLength(1), { timeout: 10_000 });
    // Every pass's store work, were it on this thread, goes through these two.
    const claims = vi.spyOn(server.store, 'claimDeliveries');
    const records = vi.spyOn(server.store, 'recordAttempts');
    await server.deliveries.stop();
    seedBacklog(server.dataDir, BACKLOG);
    server.deliveries.start();
    await vi.waitFor(() => expect(new Set(received).size).toBe(BACKLOG + 1), { timeout: 30_000 });
    expect(received).toHaveLength(BACKLOG + 1);
    expect(claims).not.toHaveBeenCalled();
    expect(records).not.toHaveBeenCalled();
  }, 60_000);

  it('loses nothing when stopped mid-drain: the next start delivers every event left', async () => {
    const { server, received } = await shopWithReceiver();
    await payAnOrder(server);
    await vi.waitFor(() => expect(received).toHaveLength(1), { timeout: 10_000 });
    await server.deliveries.stop();
    seedBacklog(server.dataDir, 2_000);
    server.deliveries.start();
    await vi.waitFor(() => expect(received.length).toBeGreaterThan(10), { timeout: 30_000 });
    await server.deliveries.stop();
    const atStop = new Set(received).size;
    server.deliveries.start();
    // Leases are 30 s: an attempt left leased at the stop would not be sent again within this wait.
    await vi.waitFor(() => expect(new Set(received).size).toBe(2_001), { timeout: 20_000 });
    // It did stop mid-drain (else the test shows nothing).
    expect(atStop).toBeLessThan(2_001);
  }, 60_000);

  it.skipIf(process.platform !== 'linux')(
    "runs below the request thread's CPU priority (a higher nice value)",
    async () => {
      const { server, received } = await shopWithReceiver();
      await payAnOrder(server);
      await vi.waitFor(() => expect(received).toHaveLength(1), { timeout: 10_000 });
      const delivery = threadsOfThisProcess().filter((thread) => thread.name === DELIVERY_THREAD_NAME);
      expect(delivery).toHaveLength(1);
      // Lowered to BACKGROUND_NICE, never raised back: a test run already below that priority keeps its own.
      expect(delivery[0]!.nice).toBe(Math.max(BACKGROUND_NICE, thisThread().nice));
    },
    30_000,
  );
});
