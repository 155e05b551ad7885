/**
 * The backlog rows of `npm run bench` (beside ./merchant-rows.ts, on its server and receiver): status p50 (the
 * sandbox trigger → the shopper's stream) with no backlog, then `events` merchant events written straight into the
 * store's table while the delivery worker is stopped (as an outage of the receiver would leave them; one INSERT …
 * SELECT, not the payment path) and the worker started: the events per second it drains, and status p50 measured
 * the same way while it drains. Every receipt is verified afterwards (off the clock).
 *
 * Drained twice, each time a backlog of its own: first by a delivery worker on the request thread (as it ran before,
 * and still runs for an in-memory store or a test clock), the baseline, then by the server's own, in its thread
 * (server/events/thread.ts).
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { createDeliveryWorker } from '../server/events/delivery';
import { systemClock } from '../server/lib/clock';
import type { TestServer } from '../test/server/helpers/server';
import { now, type Clients } from './lib/client-process';
import { newCheckout, verifyAll } from './lib/merchant';
import { summarize } from './lib/stats';

const PAYER = { name: 'Bench', taxNumber: '52998224725' };

export interface BacklogOptions {
  server: TestServer;
  /** The shoppers' streams. */
  clients: Clients;
  /** The merchant's receiver, in a process of its own. */
  receiver: Clients;
  events: number;
  /** Status triggers timed with no backlog, and at most as many while it drains. */
  runs: number;
  secret: string;
  log: (line: string) => void;
}

/** Trigger → the shopper's stream of a new checkout, in ms (NaN when the stream did not get it). */
async function timedStatus(server: TestServer, clients: Clients, orderId: string) {
  const checkout = await newCheckout(server, orderId);
  await clients.open(Number(new URL(server.url).port), [`/api/checkouts/${checkout.id}/events`], 'Registered');
  const { delivered } = await clients.arm('Completed');
  const started = now();
  await server.provider.sandbox.pix.complete(checkout.transactionId, PAYER);
  const shopper = await delivered;
  await clients.close();
  return shopper.delivered === 1 ? shopper.first - started : Number.NaN;
}

/** Copies the newest merchant event `count` times under new ids, in one statement (the SQLite store's file). */
function seedEvents(dataDir: string, count: number, prefix: string) {
  const db = new Database(join(dataDir, 'checkout.sqlite'));
  try {
    db.pragma('busy_timeout = 10000');
    const seeded = db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO merchant_events (id, type, created_at, data)
         SELECT 'evt_' || ? || '_' || i, t.type, t.created_at, t.data FROM n, (SELECT * FROM merchant_events ORDER BY seq DESC LIMIT 1) t`,
      )
      .run(count, prefix).changes;
    if (seeded !== count) throw new Error(`bench: seeded ${seeded} of ${count} merchant events (none to copy?)`);
  } finally {
    db.close();
  }
}

/** What `drainBacklog` measures of one worker. */
interface Drained {
  perSecond: number;
  copies: number;
  verified: number;
  status: ReturnType<typeof summarize>;
  runs: number;
}

/** Stops the server's worker, seeds a backlog, starts `worker` on it and times status while it drains. */
async function drainWith(
  { server, clients, receiver, events, runs, secret, log }: BacklogOptions,
  worker: { start(): void; stop(): Promise<void> },
  prefix: string,
): Promise<Drained> {
  await server.deliveries.stop();
  seedEvents(server.dataDir, events, prefix);
  const started = now();
  worker.start();
  const counted = receiver.count(events, 600_000);
  let drained = false;
  void counted.then(() => (drained = true));
  const during: number[] = [];
  for (let i = 0; i < runs && !drained; i++) {
    const took = await timedStatus(server, clients, `${prefix}-${i}`);
    if (!drained) during.push(took);
  }
  const done = await counted;
  await worker.stop();
  const verified = verifyAll(secret, await receiver.receipts());
  if (done.distinct < events) log(`bench: ${done.distinct} of ${events} backlog events arrived in time`);
  const perSecond = done.distinct >= events ? done.distinct / ((done.last - started) / 1000) : Number.NaN;
  return { perSecond, copies: done.copies, verified, status: summarize(during), runs: during.length };
}

export async function drainBacklog(options: BacklogOptions) {
  const { server, clients, receiver, events, runs, log } = options;
  const idle: number[] = [];
  for (let i = 0; i < runs; i++) idle.push(await timedStatus(server, clients, `I-${i}`));
  await receiver.receipts();

  const quiet = { warn: () => undefined };
  const environment = server.deliveries.environment;
  const inThread = createDeliveryWorker({
    store: server.store,
    hub: server.hub,
    endpoints: environment,
    clock: systemClock,
    logger: quiet,
  });
  const before = await drainWith(options, inThread, 'backlog_in_thread');
  const after = await drainWith(options, server.deliveries, 'backlog');
  server.deliveries.start();
  const result = { events, ...after, idle: summarize(idle), inThread: before };
  const line = (d: Drained) => `${d.perSecond.toFixed(0)}/s, status p50 ${d.status.p50.toFixed(1)} ms (${d.runs} runs)`;
  log(
    `merchant backlog: ${events} events; in its thread ${line(after)}; on the request thread ${line(before)}; ` +
      `status p50 ${result.idle.p50.toFixed(1)} ms without a backlog`,
  );
  return result;
}
