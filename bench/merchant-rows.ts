/**
 * The merchant webhook rows of `npm run bench` (signed webhooks to MERCHANT_WEBHOOK_URL, server/merchant-webhooks/delivery.ts),
 * on the demo process (embedded emulator + BFF, SQLite) with the merchant's backend a bare node:http receiver in a
 * forked process of its own (bench/lib/clients.ts), which answers 204 at once:
 * - the sandbox trigger → the merchant's first receipt of `checkout.completed`, p50 and p99, beside the shopper's
 *   status for the same trigger (an SSE stream of the same checkout, in the bench's client process): the same change,
 *   told to the shopper and to the merchant;
 * - N paid orders' events (the delivery worker stopped while they are paid, then started) drained to the receiver, in
 *   events per second, beside a bare node:http POST loop of the same signed requests to the same receiver, as many
 *   at a time as the worker sends, over keep-alive connections, from this process as the worker is;
 * - a backlog of 100,000 events and status while it drains (./merchant-backlog.ts).
 * Every receipt is verified with `standardwebhooks` afterwards (off the clock); one that does not verify fails the run.
 */
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import type { PricedOrder } from '../server/payments/orders';
import { startTestServer } from '../test/server/helpers/server';
import { newCheckout, verifyAll } from './lib/merchant';
import { now, startClients, type Clients } from './lib/client-process';
import type { Receipt } from './lib/clients';
import { summarize } from './lib/stats';
import { drainBacklog } from './merchant-backlog';

const PAYER = { name: 'Bench', taxNumber: '52998224725' };
const anyOrder = { resolve: async (): Promise<PricedOrder> => ({ amountCents: 7_980, description: 'Bench order' }) };
/** The worker's requests in flight (server/merchant-webhooks/delivery.ts): the POST loop sends as many at once. */
const CONCURRENCY = 16;

export interface MerchantRowsOptions {
  clients: Clients;
  /** Triggers timed for the latency rows (after a few of warm-up). */
  runs: number;
  /** Paid orders whose events are drained for the throughput row. */
  events: number;
  /** Merchant events of the backlog row (./merchant-backlog.ts); 0: skipped. */
  backlog: number;
  log: (line: string) => void;
}

/** POSTs each request to the receiver, `concurrency` at a time over keep-alive connections (node:http alone). */
async function postLoop(port: number, requests: Receipt[], concurrency: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const post = (receipt: Receipt) =>
    new Promise<void>((resolve, reject) => {
      const headers = { ...receipt.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(receipt.body) };
      const req = request({ agent, host: '127.0.0.1', port, method: 'POST', path: '/hooks', headers }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 204 ? resolve() : reject(new Error(`bench: the receiver answered ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end(receipt.body);
    });
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < requests.length) await post(requests[next++]!);
      }),
    );
  } finally {
    agent.destroy();
  }
}

export async function merchantRows({ clients, runs, events, backlog: backlogSize, log }: MerchantRowsOptions) {
  // The merchant's receiver in a process of its own: thousands of webhooks a second must not slow the shoppers'
  // streams, which are read in `clients`, and so inflate the status figures measured beside them.
  const receiver = await startClients();
  try {
    return await measure({ clients, receiver, runs, events, backlog: backlogSize, log });
  } finally {
    await receiver.stop();
  }
}

async function measure({ clients, receiver, runs, events, backlog: backlogSize, log }: MerchantRowsOptions & { receiver: Clients }) {
  const { port } = await receiver.receive();
  await receiver.receipts();
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const server = await startTestServer({
    env: { MERCHANT_WEBHOOK_URL: `http://127.0.0.1:${port}/hooks`, MERCHANT_WEBHOOK_SECRET: secret, CHECKOUT_RATE_PER_MINUTE: '0' },
    start: { orders: anyOrder },
  });
  const merchant: number[] = [];
  const status: number[] = [];
  let verified = 0;
  let drain: { project: number; floor: number; events: number; copies: number; concurrency: number };
  let backlog: Awaited<ReturnType<typeof drainBacklog>> | undefined;
  try {
    const serverPort = Number(new URL(server.url).port);
    // The trigger → the shopper's stream and the merchant's receiver, both timed in the client process.
    const warmUp = 5;
    for (let i = 0; i < warmUp + runs; i++) {
      const checkout = await newCheckout(server, `W-${i}`);
      await clients.open(serverPort, [`/api/checkouts/${checkout.id}/events`], 'Registered');
      const { delivered } = await clients.arm('Completed');
      const received = receiver.expect(checkout.id);
      const started = now();
      await server.provider.sandbox.pix.complete(checkout.transactionId, PAYER);
      const [shopper, backend] = await Promise.all([delivered, received]);
      await clients.close();
      if (i < warmUp) continue;
      if (shopper.delivered !== 1 || !Number.isFinite(backend.at)) {
        log(`bench: run ${i}: ${shopper.delivered ? '' : 'no status on the stream; '}${Number.isFinite(backend.at) ? '' : 'no webhook'}`);
        continue;
      }
      status.push(shopper.first - started);
      merchant.push(backend.at - started);
    }
    verified += verifyAll(secret, await receiver.receipts());
    const m = summarize(merchant);
    const s = summarize(status);
    log(
      `merchant: trigger → webhook p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms; → shopper's stream p50 ${s.p50.toFixed(1)} ms`,
    );

    // A backlog: the worker stopped while `events` orders are paid, then started and timed until all have arrived.
    await server.deliveries.stop();
    for (let i = 0; i < events; i += 10) {
      const batch = await Promise.all(Array.from({ length: Math.min(10, events - i) }, (_, k) => newCheckout(server, `D-${i + k}`)));
      await Promise.all(batch.map((c) => server.provider.sandbox.pix.complete(c.transactionId, PAYER)));
    }
    const started = now();
    server.deliveries.start();
    const done = await receiver.count(events);
    const receipts = await receiver.receipts();
    verified += verifyAll(secret, receipts);
    if (done.distinct < events) log(`bench: ${done.distinct} of ${events} merchant webhooks arrived in time`);
    const project = done.distinct >= events ? events / ((done.last - started) / 1000) : Number.NaN;

    // The baseline: the same signed requests (the first copy of each), POSTed by node:http alone.
    const seen = new Set<string>();
    const firsts = receipts.filter((r) => !seen.has(r.headers['webhook-id']!) && seen.add(r.headers['webhook-id']!));
    const floorStarted = now();
    await postLoop(port, firsts, CONCURRENCY);
    const floorDone = await receiver.count(firsts.length);
    await receiver.receipts();
    const floor = firsts.length / ((floorDone.last - floorStarted) / 1000);
    drain = { project, floor, events, copies: done.copies, concurrency: CONCURRENCY };
    log(
      `merchant: ${events} events drained at ${project.toFixed(0)}/s (${done.copies} requests); node:http POST loop ${floor.toFixed(0)}/s`,
    );
    if (backlogSize > 0) backlog = await drainBacklog({ server, clients, receiver, events: backlogSize, runs, secret, log });
  } finally {
    await server.close();
  }
  return {
    runs: merchant.length,
    verified,
    latency: { merchant: summarize(merchant), status: summarize(status), samples: { merchant, status } },
    drain,
    backlog,
  };
}
