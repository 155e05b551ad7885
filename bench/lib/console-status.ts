/**
 * The shoppers' status while the back office works (issue 27, goal 2): a checkout's status (`GET
 * /api/checkouts/:id`, what the element's poll reads) through the real shoppers' app on a socket, read one request
 * after another by a poller in its own process (./status-poller.ts), first with nothing else running (the
 * baseline), then while the console's heaviest list is asked for again and again, then while the CSV export of the
 * whole history streams, both through the back office's routes in the server's process, as the console asks them.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createCheckoutApp, type CheckoutAppStore } from '../../server/bff/app';
import type { PricedOrder } from '../../server/payments/orders';
import type { ProviderClient } from '../../server/provider';
import { createLocalHub } from '../../server/store';
import { median } from './stats';

const SECRET = 'bench-console-status-secret-0123456789abcdef';
const anyOrder = { resolve: async (): Promise<PricedOrder> => ({ amountCents: 7_980, description: 'Bench order' }) };

export interface StatusFigures {
  /** Status p50 in milliseconds: alone, while the heaviest list runs, while the export runs. */
  idle: number;
  duringList: number;
  duringExport: number;
  /** Status reads in each phase, and the lists and export rows served meanwhile. */
  reads: { idle: number; duringList: number; duringExport: number };
  lists: number;
  exportRows: number;
}

function startPoller() {
  const child = fork(fileURLToPath(new URL('./status-poller.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = (type: string) =>
    new Promise<{ samples?: number[] }>((resolve, reject) => {
      const onMessage = (message: { type: string; samples?: number[]; message?: string }) => {
        if (message.type === 'failed') reject(new Error(message.message));
        else if (message.type === type) resolve(message);
        else return;
        child.off('message', onMessage);
      };
      child.on('message', onMessage);
    });
  const ready = next('ready');
  return {
    ready,
    /** Polls `url` while `during` runs; the milliseconds of each read. */
    async while(url: string, during: () => Promise<void>) {
      const started = next('started');
      child.send({ type: 'start', url });
      await started;
      await during();
      const stopped = next('samples');
      child.send({ type: 'stop' });
      return (await stopped).samples!;
    },
    exit: () => child.send({ type: 'exit' }),
  };
}

/** The shoppers' app on `store`, as the server mounts it under `/api`, on a socket of 127.0.0.1; resolves its port. */
export async function serveShoppers(store: CheckoutAppStore) {
  const { app } = createCheckoutApp({
    provider: undefined as unknown as ProviderClient,
    store,
    hub: createLocalHub(),
    orders: anyOrder,
    apiBaseUrl: 'http://127.0.0.1/api',
    webhookSecret: SECRET,
    orderTokenSecret: SECRET,
    allowedOrigins: [],
    logger: { log: () => undefined, error: () => undefined, warn: () => undefined },
  });
  const server = serve({ fetch: new Hono().route('/api', app).fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return { port: (server.address() as { port: number }).port, close: () => new Promise((resolve) => server.close(resolve)) };
}

/**
 * Status p50 of one of `store`'s paid checkouts while `backOffice` (an app with the console's list and export routes)
 * answers nothing, then `listPath` over and over for `phaseMs`, then the export of everything.
 */
export async function measureStatusUnderLoad(
  store: CheckoutAppStore,
  backOffice: Hono,
  listPath: string,
  phaseMs = 3_000,
): Promise<StatusFigures> {
  const [paid] = await store.listCheckouts({ states: ['Completed'] }, 1);
  if (!paid) throw new Error('bench: the history has no paid checkout to poll');
  const server = await serveShoppers(store);
  const url = `http://127.0.0.1:${server.port}/api/checkouts/${paid.id}`;
  const poller = startPoller();
  try {
    await poller.ready;
    const idle = await poller.while(url, () => new Promise((resolve) => setTimeout(resolve, phaseMs)));
    let lists = 0;
    const duringList = await poller.while(url, async () => {
      const until = performance.now() + phaseMs;
      while (performance.now() < until) {
        const response = await backOffice.request(listPath);
        if (response.status !== 200) throw new Error(`bench: ${listPath} answered ${response.status}`);
        await response.arrayBuffer();
        lists++;
        // The next list arrives as a request from a console would: through the event loop, after what came meanwhile.
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
    let newlines = 0;
    const duringExport = await poller.while(url, async () => {
      const reader = (await backOffice.request('/checkouts/export.csv')).body!.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (let at = value.indexOf(10); at !== -1; at = value.indexOf(10, at + 1)) newlines++;
      }
    });
    return {
      idle: median(idle),
      duringList: median(duringList),
      duringExport: median(duringExport),
      reads: { idle: idle.length, duringList: duringList.length, duringExport: duringExport.length },
      lists,
      exportRows: newlines - 1,
    };
  } finally {
    poller.exit();
    await server.close();
  }
}
