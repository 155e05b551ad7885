/**
 * The server rows of `npm run bench`: fan-out to one checkout's streams, 100 completions across many checkouts,
 * memory per open stream, and creation throughput (through the embedded emulator, and the BFF alone with a stub
 * provider). The project's servers run in this process (their memory is this process's), each floor in a process of
 * its own (./lib/floors.ts, its memory read there), clients in a forked process. Beside the
 * node:http floor, the completions and creation rows get the floor with the contract's hops (`startHopsFloor`).
 * Then the merchant webhook rows (./merchant-rows.ts), with the same client process as the merchant's backend.
 */
import type { PricedOrder } from '../server/payments/orders';
import { startTestBff, startTestServer, type TestServer } from '../test/server/helpers/server';
import { startClients, now, type Clients } from './lib/client-process';
import { startHonoFloor, startHopsFloor, startHttpFloor } from './lib/floors';
import { median, settledMemory, sleep } from './lib/stats';
import { merchantRows } from './merchant-rows';
import { startStubProvider } from './lib/stub-provider';

const PAYER = { name: 'Bench', taxNumber: '52998224725' };
const LIMITS = { SSE_MAX_PER_CLIENT: '100000', SSE_MAX_TOTAL: '100000', CHECKOUT_RATE_PER_MINUTE: '0' };
const anyOrder = { resolve: async (): Promise<PricedOrder> => ({ amountCents: 7_980, description: 'Bench order' }) };

export interface ServerRowsOptions {
  streams: number;
  /** Checkouts of the "100 completions" row; streams are spread evenly over them. */
  completions: number;
  reps: number;
  createSeconds: number;
  /** False: skip the creation rows (their figures stay NaN), for a quick run of the stream rows. */
  create?: boolean;
  /** The merchant webhook rows: timed triggers, and paid orders whose events are drained; undefined: skipped. */
  merchant?: { runs: number; events: number; backlog: number } | undefined;
  log: (line: string) => void;
}

async function newCheckout(server: TestServer, orderId: string) {
  const response = await server.json('POST', '/api/checkouts', { orderId, orderToken: server.orderTokenFor(orderId), method: 'pix' });
  if (response.status !== 201) throw new Error(`bench: creation failed: ${response.text}`);
  return response.body as { id: string; transactionId: string };
}

/**
 * Streams open, marker armed, trigger, last delivery: milliseconds from the trigger to the last stream. A trigger
 * that fails (the emulator gives up on a webhook the BFF answers too slowly) is reported, and the streams are still
 * waited for; a row where some stream never got the change is NaN ("not delivered").
 */
async function deliver(clients: Clients, trigger: () => Promise<unknown>, expected: number, log: (line: string) => void) {
  const { delivered } = await clients.arm('Completed');
  const started = now();
  await trigger().catch((error: unknown) => log(`bench: the trigger failed: ${error instanceof Error ? error.message : String(error)}`));
  const result = await delivered;
  if (result.delivered !== expected) {
    log(`bench: ${result.delivered} of ${expected} streams got the change`);
    return Number.NaN;
  }
  return result.last - started;
}

export async function serverRows({ streams, completions, reps, createSeconds, create = true, merchant, log }: ServerRowsOptions) {
  const clients = await startClients();
  const perCheckout = Math.max(1, Math.floor(streams / completions));
  let webhooks: Awaited<ReturnType<typeof merchantRows>> | undefined;
  const rows = {
    fanout: { project: [] as number[], floor: [] as number[] },
    many: { project: [] as number[], floor: [] as number[], hops: [] as number[] },
    memory: { project: 0, floor: 0, hono: 0 },
    create: { project: Number.NaN, bffAlone: Number.NaN, hono: Number.NaN, hops: Number.NaN, projectStatuses: {}, bffStatuses: {} },
  };
  /** A floor's "100 completions": `perCheckout` streams on each of `completions` channels, one trigger per channel. */
  const manyCompletions = async (floor: { port: number; trigger: (channels: string[]) => Promise<void> }, prefix: string) => {
    const channels = Array.from({ length: completions }, (_, i) => `${prefix}${i}`);
    await clients.open(
      floor.port,
      channels.flatMap((c) => Array.from({ length: perCheckout }, () => `/events?c=${c}`)),
      'Registered',
    );
    const last = await deliver(clients, () => Promise.all(channels.map((c) => floor.trigger([c]))), perCheckout * completions, log);
    await clients.close();
    return last;
  };
  try {
    // The floor: node:http.
    const floor = await startHttpFloor();
    try {
      for (let rep = 0; rep < reps; rep++) {
        const before = await floor.memory();
        await clients.open(
          floor.port,
          Array.from({ length: streams }, () => '/events?c=one'),
          'Registered',
        );
        if (rep === 0) rows.memory.floor = ((await floor.memory()) - before) / streams;
        rows.fanout.floor.push(await deliver(clients, () => floor.trigger(['one']), streams, log));
        await clients.close();
        rows.many.floor.push(await manyCompletions(floor, 'c'));
      }
    } finally {
      await floor.close();
    }
    log(
      `floor: fan-out ${rows.fanout.floor.map((x) => x.toFixed(0)).join(', ')} ms; many ${rows.many.floor.map((x) => x.toFixed(0)).join(', ')} ms`,
    );

    // The floor with the contract's hops: 100 triggers, their webhooks and re-reads, then the same writes.
    const hops = await startHopsFloor();
    try {
      for (let rep = 0; rep < reps; rep++) rows.many.hops.push(await manyCompletions(hops, 't'));
      if (create) {
        await sleep(200);
        rows.create.hops = (await createLoad(clients, hops.port, '/checkouts', createSeconds, (i) => ({ orderId: `T-${i}` }))).perSecond;
      }
    } finally {
      await hops.close();
    }
    log(`hops floor: many ${rows.many.hops.map((x) => x.toFixed(0)).join(', ')} ms; ${rows.create.hops.toFixed(0)} creations/s`);

    // Minimal Hono: streamSSE memory.
    const hono = await startHonoFloor();
    try {
      const before = await hono.memory();
      await clients.open(
        hono.port,
        Array.from({ length: streams }, () => '/events'),
        'Registered',
      );
      rows.memory.hono = ((await hono.memory()) - before) / streams;
      await clients.close();
      await sleep(200);
      if (create)
        rows.create.hono = (await createLoad(clients, hono.port, '/checkouts', createSeconds, (i) => ({ orderId: `H-${i}` }))).perSecond;
    } finally {
      await hono.close();
    }
    log(`hono: ${(rows.memory.hono / 1024).toFixed(1)} KB per stream, ${rows.create.hono.toFixed(0)} creations/s`);

    // The project: the demo process (embedded emulator + BFF), orders priced by the bench.
    const server = await startTestServer({ env: LIMITS, start: { orders: anyOrder } });
    try {
      const port = Number(new URL(server.url).port);
      let n = 0;
      for (let rep = 0; rep < reps; rep++) {
        const one = await newCheckout(server, `F-${rep}-${n++}`);
        const before = await settledMemory();
        await clients.open(
          port,
          Array.from({ length: streams }, () => `/api/checkouts/${one.id}/events`),
          'Registered',
        );
        if (rep === 0) rows.memory.project = ((await settledMemory()) - before) / streams;
        rows.fanout.project.push(
          await deliver(clients, () => server.provider.sandbox.pix.complete(one.transactionId, PAYER), streams, log),
        );
        await clients.close();
        const many: { id: string; transactionId: string }[] = [];
        for (let i = 0; i < completions; i++) many.push(await newCheckout(server, `M-${rep}-${n++}`));
        await clients.open(
          port,
          many.flatMap((c) => Array.from({ length: perCheckout }, () => `/api/checkouts/${c.id}/events`)),
          'Registered',
        );
        const trigger = () => Promise.all(many.map((c) => server.provider.sandbox.pix.complete(c.transactionId, PAYER)));
        rows.many.project.push(await deliver(clients, trigger, perCheckout * completions, log));
        await clients.close();
      }
      log(
        `project: fan-out ${rows.fanout.project.map((x) => x.toFixed(0)).join(', ')} ms; many ${rows.many.project.map((x) => x.toFixed(0)).join(', ')} ms`,
      );
      if (create) {
        await sleep(200);
        const created = await createLoad(clients, port, '/api/checkouts', createSeconds, (i) => {
          const orderId = `C-${i}`;
          return { orderId, orderToken: server.orderTokenFor(orderId), method: 'pix' };
        });
        rows.create.project = created.perSecond;
        rows.create.projectStatuses = created.statuses;
        log(`project: ${created.perSecond.toFixed(0)} creations/s ${JSON.stringify(created.statuses)}`);

        // The BFF alone, its provider a stub over HTTP replaying this emulator's answers.
        const stub = await startStubProvider(`${server.url}/sandbox`);
        const bff = await startTestBff({
          env: {
            PROVIDER_BASE_URL: `${stub.url}/v1`,
            PROVIDER_ACCESS_KEY: 'sandbox-access-key',
            PROVIDER_SECRET: 'sandbox-secret',
            ...LIMITS,
          },
          start: { orders: anyOrder },
        });
        try {
          const bffPort = Number(new URL(bff.url).port);
          const alone = await createLoad(clients, bffPort, '/api/checkouts', createSeconds, (i) => {
            const orderId = `S-${i}`;
            return { orderId, orderToken: bff.orderTokenFor(orderId), method: 'pix' };
          });
          rows.create.bffAlone = alone.perSecond;
          rows.create.bffStatuses = alone.statuses;
          log(`bff alone: ${alone.perSecond.toFixed(0)} creations/s ${JSON.stringify(alone.statuses)} (stub replayed ${stub.replayed()})`);
        } finally {
          await bff.close();
          await stub.close();
        }
      }
    } finally {
      await server.close();
    }
    if (merchant) webhooks = await merchantRows({ clients, ...merchant, log });
  } finally {
    await clients.stop();
  }
  return {
    streams,
    completions,
    perCheckout,
    fanout: { project: median(rows.fanout.project), floor: median(rows.fanout.floor), samples: rows.fanout },
    many: { project: median(rows.many.project), floor: median(rows.many.floor), hops: median(rows.many.hops), samples: rows.many },
    memory: rows.memory,
    create: rows.create,
    merchant: webhooks,
  };
}

/** Creations per second from 10 keep-alive connections: a short warm-up, then `seconds` measured. */
async function createLoad(clients: Clients, port: number, path: string, seconds: number, body: (i: number) => object) {
  const count = Math.ceil(seconds * 6_000);
  const bodies = Array.from({ length: count + 500 }, (_, i) => JSON.stringify(body(i)));
  await clients.load(port, path, bodies.slice(0, 500), 10, 0.5);
  return clients.load(port, path, bodies.slice(500), 10, seconds);
}
