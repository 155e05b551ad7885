/**
 * The backlog rows of `npm run bench` (beside ./merchant-rows.ts, on its server and receiver): status p50 (the
 * sandbox trigger → the shopper's stream) with no backlog, then `events` merchant events written straight into the
 * store's table while the delivery worker is stopped (as an outage of the receiver would leave them; one INSERT …
 * SELECT, not the payment path) and the worker started: the events per second it drains, and status p50 measured
 * the same way while it drains. Every receipt is verified afterwards (off the clock).
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
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
function seedEvents(dataDir: string, count: number) {
  const db = new Database(join(dataDir, 'checkout.sqlite'));
  try {
    db.pragma('busy_timeout = 10000');
    const seeded = db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO merchant_events (id, type, created_at, data)
         SELECT 'evt_backlog_' || i, t.type, t.created_at, t.data FROM n, (SELECT * FROM merchant_events ORDER BY seq DESC LIMIT 1) t`,
      )
      .run(count).changes;
    if (seeded !== count) throw new Error(`bench: seeded ${seeded} of ${count} merchant events (none to copy?)`);
  } finally {
    db.close();
  }
}

export async function drainBacklog({ server, clients, receiver, events, runs, secret, log }: BacklogOptions) {
  const idle: number[] = [];
  for (let i = 0; i < runs; i++) idle.push(await timedStatus(server, clients, `I-${i}`));
  await receiver.receipts();

  await server.deliveries.stop();
  seedEvents(server.dataDir, events);
  const started = now();
  server.deliveries.start();
  const counted = receiver.count(events, 600_000);
  let drained = false;
  void counted.then(() => (drained = true));
  const during: number[] = [];
  for (let i = 0; i < runs && !drained; i++) {
    const took = await timedStatus(server, clients, `G-${i}`);
    if (!drained) during.push(took);
  }
  const done = await counted;
  const receipts = await receiver.receipts();
  const verified = verifyAll(secret, receipts);
  if (done.distinct < events) log(`bench: ${done.distinct} of ${events} backlog events arrived in time`);
  const perSecond = done.distinct >= events ? done.distinct / ((done.last - started) / 1000) : Number.NaN;
  const result = { events, perSecond, copies: done.copies, verified, idle: summarize(idle), status: summarize(during) };
  log(
    `merchant backlog: ${events} events at ${perSecond.toFixed(0)}/s; status p50 ${result.status.p50.toFixed(1)} ms while draining ` +
      `(${during.length} runs), ${result.idle.p50.toFixed(1)} ms without`,
  );
  return result;
}
