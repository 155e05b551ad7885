/**
 * The backlog rows of `npm run bench` (beside ./merchant-rows.ts, on its server and receiver): `events` merchant
 * events written straight into the store's table at once (one INSERT … SELECT, not the payment path: the backlog an
 * outage of the receiver leaves), the events per second the delivery worker drains them at, and status p50 (the
 * sandbox trigger → the shopper's stream) while it drains, beside status p50 with no backlog. Every receipt is
 * verified afterwards (off the clock).
 *
 * The status samples are spread over the whole drain (in bursts, `BURST` and `PAUSE_MS` below, until the last
 * backlog event has arrived), not bunched at its start, and the samples with no backlog are taken the same way, half
 * just before the drain and half just after, with the same worker started and idle (it delivers each sample's own
 * event): a slow moment of the machine, shared with other work, falls on both sides of the ratio.
 *
 * Drained twice, each time a backlog of its own: first by a delivery worker on the request thread (as it ran before,
 * and still runs for an in-memory store or a test clock), for the log, then by the server's own, in its thread
 * (server/merchant-webhooks/thread.ts), for the rows.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { createDeliveryWorker } from '../server/merchant-webhooks/delivery';
import { systemClock } from '../server/lib/clock';
import { createSealer } from '../server/lib/sealer';
import type { TestServer } from '../test/server/helpers/server';
import { now, type Clients } from './lib/client-process';
import type { Receipt } from './lib/clients';
import { newCheckout, verifyAll } from './lib/merchant';
import { sleep, summarize } from './lib/stats';

const PAYER = { name: 'Bench', taxNumber: '52998224725' };
/**
 * Status is sampled in bursts of `BURST` back to back, `PAUSE_MS` apart, with a backlog or without: spread over the
 * whole drain without loading it much, and each sample, as before, on a server that has just answered one (a pause
 * before every sample made those with no backlog, on a process gone idle, slower than those during the drain, on a
 * process kept busy: 15 ms against 6 on this shared machine).
 */
const BURST = 10;
const PAUSE_MS = 2_000;

export interface BacklogOptions {
  server: TestServer;
  /** The shoppers' streams. */
  clients: Clients;
  /** The merchant's receiver, in a process of its own. */
  receiver: Clients;
  events: number;
  /** Status samples with no backlog (half before the drain, half after); while it drains, as many as fit. */
  runs: number;
  secret: string;
  log: (line: string) => void;
}

/** A worker that drains: the server's (in its thread) or one on the request thread. */
interface Drainer {
  start(): void;
  stop(): Promise<void>;
  runOnce(): Promise<number>;
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

/**
 * Opens the store's file and runs `work`, then copies the write-ahead log back into the database (off the clock): the
 * store's checkpoint thread would do it in the next second, during the samples, and so charge them for the writes
 * before (the seed's, or the drain's just ended).
 */
function withStoreFile<T>(dataDir: string, work: (db: Database.Database) => T): T {
  const db = new Database(join(dataDir, 'checkout.sqlite'));
  try {
    db.pragma('busy_timeout = 10000');
    const result = work(db);
    db.pragma('wal_checkpoint(TRUNCATE)');
    return result;
  } finally {
    db.close();
  }
}

/** Copies the newest merchant event `count` times under the ids `evt_<prefix>_<i>`, in one statement (the SQLite store's file). */
function seedEvents(dataDir: string, count: number, prefix: string) {
  withStoreFile(dataDir, (db) => {
    const seeded = db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO merchant_events (id, type, created_at, data)
         SELECT 'evt_' || ? || '_' || i, t.type, t.created_at, t.data FROM n, (SELECT * FROM merchant_events ORDER BY seq DESC LIMIT 1) t`,
      )
      .run(count, prefix).changes;
    if (seeded !== count) throw new Error(`bench: seeded ${seeded} of ${count} merchant events (none to copy?)`);
  });
}

/** `count` status samples with no backlog, paced as those taken while it drains. */
async function idleSamples({ server, clients }: BacklogOptions, count: number, prefix: string) {
  // What the writes before left in the log is copied back first, as before a drain's samples (`seedEvents`).
  withStoreFile(server.dataDir, () => undefined);
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    if (i > 0 && i % BURST === 0) await sleep(PAUSE_MS);
    samples.push(await timedStatus(server, clients, `${prefix}-${i}`));
  }
  return samples;
}

/**
 * Waits until every backlog event (id `evt_<prefix>_…`) has arrived, and answers their receipts. The receiver also
 * gets the status samples' own events, so its count of distinct ids is only a lower bound of the backlog's.
 */
async function backlogReceipts(receiver: Clients, events: number, prefix: string) {
  const mine = (receipt: Receipt) => receipt.headers['webhook-id']!.startsWith(`evt_${prefix}_`);
  const all: Receipt[] = [];
  const ids = new Set<string>();
  for (;;) {
    const taken = await receiver.receipts();
    all.push(...taken);
    for (const receipt of taken) if (mine(receipt)) ids.add(receipt.headers['webhook-id']!);
    if (ids.size >= events) break;
    const counted = await receiver.count(events - ids.size, 600_000);
    if (counted.distinct < events - ids.size) {
      all.push(...(await receiver.receipts()));
      break;
    }
  }
  return { all, backlog: all.filter(mine), distinct: ids.size };
}

/** What `drainWith` measures of one worker. */
interface Drained {
  perSecond: number;
  copies: number;
  verified: number;
  status: ReturnType<typeof summarize>;
  runs: number;
}

/** Seeds a backlog with `worker` started and idle, wakes it, and samples status until the backlog has arrived. */
async function drainWith(options: BacklogOptions, worker: Drainer, prefix: string): Promise<Drained> {
  const { server, clients, receiver, events, secret, log } = options;
  await worker.runOnce();
  verifyAll(secret, await receiver.receipts());
  seedEvents(server.dataDir, events, prefix);
  const started = now();
  // Woken at once, as a commit's wake-up would (the seed is not the payment path, which wakes it).
  void worker.runOnce().catch((error: unknown) => log(`bench: a delivery pass failed: ${String(error)}`));
  // At least `events` distinct ids have arrived: the backlog's last ones, give or take the samples' own events.
  let drained = false;
  const counted = receiver.count(events, 600_000).then(() => (drained = true));
  const during: number[] = [];
  for (let i = 0; !drained; i++) {
    if (i > 0 && i % BURST === 0) await Promise.race([sleep(PAUSE_MS), counted]);
    if (drained) break;
    const took = await timedStatus(server, clients, `${prefix}-${i}`);
    if (!drained) during.push(took);
  }
  await counted;
  const { all, backlog, distinct } = await backlogReceipts(receiver, events, prefix);
  const verified = verifyAll(secret, all);
  if (distinct < events) log(`bench: ${distinct} of ${events} backlog events arrived in time`);
  const last = Math.max(...backlog.map((receipt) => receipt.at));
  const perSecond = distinct >= events ? distinct / ((last - started) / 1000) : Number.NaN;
  return { perSecond, copies: backlog.length, verified, status: summarize(during), runs: during.length };
}

export async function drainBacklog(options: BacklogOptions) {
  const { server, receiver, events, runs, log } = options;
  // The baseline of the log: a worker on the request thread, the server's stopped meanwhile.
  await server.deliveries.stop();
  const inThread = createDeliveryWorker({
    store: server.store,
    hub: server.hub,
    endpoints: server.deliveries.environment,
    addresses: server.deliveries.addresses,
    sealer: createSealer(server.config.secretsKey, server.config.secretsKeysPrevious),
    clock: systemClock,
    logger: { warn: () => undefined },
  });
  inThread.start();
  const before = await drainWith(options, inThread, 'backlog_in_thread');
  await inThread.stop();

  // The rows: the server's worker in its thread, started (and idle) for the samples with no backlog too.
  server.deliveries.start();
  await server.deliveries.runOnce();
  verifyAll(options.secret, await receiver.receipts());
  const idleBefore = await idleSamples(options, Math.ceil(runs / 2), 'I');
  const after = await drainWith(options, server.deliveries, 'backlog');
  const idleAfter = await idleSamples(options, Math.floor(runs / 2), 'J');
  verifyAll(options.secret, await receiver.receipts());
  const idle = summarize([...idleBefore, ...idleAfter]);
  const sides = { before: summarize(idleBefore), after: summarize(idleAfter) };
  const result = { events, ...after, idle, idleSides: sides, inThread: before };
  const line = (d: Drained) => `${d.perSecond.toFixed(0)}/s, status p50 ${d.status.p50.toFixed(1)} ms (${d.runs} runs)`;
  log(
    `merchant backlog: ${events} events; in its thread ${line(after)}; on the request thread ${line(before)}; ` +
      `status p50 ${idle.p50.toFixed(1)} ms without a backlog (${idle.n} runs: ` +
      `${sides.before.p50.toFixed(1)} before, ${sides.after.p50.toFixed(1)} after)`,
  );
  return result;
}
