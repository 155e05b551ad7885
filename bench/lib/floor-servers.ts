/**
 * The floor servers, run inside a floor's own process (./floor-process.ts, forked by ./floors.ts), on 127.0.0.1:
 * - `startHttpFloor`: a bare `node:http` SSE server (the floor): streams grouped by channel, one write per stream
 *   when a channel is triggered, and a page whose EventSource waits for the same Completed message;
 * - `startHopsFloor`: the floor with the contract's hops, in bare `node:http`: a trigger goes to a stand-in provider,
 *   which posts a webhook to the floor, which re-reads the transaction from the provider before it writes to the
 *   streams; and a create route that makes one provider call. What the provider contract alone costs on this
 *   machine, with nothing of ours (no store, no validation, no signatures): the lowest any BFF could go;
 * - `startHonoFloor`: a minimal Hono server (`@hono/node-server`): `streamSSE` streams, and a JSON create route.
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import { randomUUID } from 'node:crypto';
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const REGISTERED = 'event: status\ndata: {"state":"Registered"}\n\n';
export const COMPLETED = 'event: status\ndata: {"state":"Completed"}\n\n';

/** The floor's page: one EventSource, and the time the Completed message is seen (epoch ms, sub-ms precision). */
const FLOOR_PAGE = `<!doctype html><meta charset="utf-8"><title>floor</title><script type="module">
const source = new EventSource('/events?c=' + new URL(location.href).searchParams.get('c'));
window.benchTimes = [];
source.addEventListener('status', (event) => {
  if (JSON.parse(event.data).state === 'Completed') window.benchTimes.push(performance.timeOrigin + performance.now());
});
</script>`;

/** Extra routes of a floor server: true when it answered the request. */
type Routes = (req: IncomingMessage, res: ServerResponse, url: URL) => boolean;

const listen = async (server: ReturnType<typeof createServer>) => {
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

/** Told of each stream opened, with the count since the start (the parent process waits on it). */
export type OnOpened = (opened: number) => void;

export function startHttpFloor(onOpened: OnOpened = () => {}) {
  return httpFloor(onOpened);
}

async function httpFloor(onOpened: OnOpened, routes: Routes = () => false) {
  const channels = new Map<string, Set<ServerResponse>>();
  let open = 0;
  let opened = 0;
  const publish = (channel: string) => {
    for (const res of channels.get(channel) ?? []) res.write(COMPLETED);
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const channel = url.searchParams.get('c') ?? 'default';
    if (routes(req, res, url)) return;
    if (url.pathname === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(`retry: 1000\n\n${REGISTERED}`);
      let set = channels.get(channel);
      if (!set) channels.set(channel, (set = new Set()));
      set.add(res);
      open++;
      opened++;
      onOpened(opened);
      res.on('close', () => {
        set.delete(res);
        open--;
        if (set.size === 0) channels.delete(channel);
      });
    } else if (url.pathname === '/trigger' && req.method === 'POST') {
      for (const name of channel.split(',')) publish(name);
      res.end('ok');
    } else if (url.pathname === '/page') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(FLOOR_PAGE);
    } else {
      res.writeHead(404).end();
    }
  });
  const port = await listen(server);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    /** Where the bench POSTs "the trigger" (`?c=<channels>`): one loopback POST, then one write per stream of each. */
    triggerUrl: `http://127.0.0.1:${port}/trigger`,
    publish,
    open: () => open,
    /** Streams opened since the start (never goes down). */
    opened: () => opened,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Reads a request's (or a response's) whole body as text. */
const bodyOf = (message: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let text = '';
    message.setEncoding('utf8');
    message.on('data', (chunk: string) => (text += chunk));
    message.on('end', () => resolve(text));
    message.on('error', reject);
  });

/** One loopback call over a keep-alive agent (as the project's own HTTP client does); resolves with the body. */
function call(agent: Agent, port: number, method: string, path: string, body?: string) {
  return new Promise<string>((resolve, reject) => {
    const headers = body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    const req = request({ agent, host: '127.0.0.1', port, method, path, headers }, (res) => void bodyOf(res).then(resolve, reject));
    req.on('error', reject);
    req.end(body);
  });
}

export async function startHopsFloor(onOpened: OnOpened = () => {}) {
  const agent = new Agent({ keepAlive: true, scheduling: 'lifo' });
  let floorPort = 0;
  // The stand-in provider: a trigger completes transactions and posts one webhook each, answered before the trigger
  // is (as the emulator does); a read answers the transaction's state; a create answers a new transaction.
  const provider = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/trigger' && req.method === 'POST') {
      const ids = (url.searchParams.get('c') ?? '').split(',');
      const webhooks = ids.map((id) =>
        call(agent, floorPort, 'POST', '/webhook', JSON.stringify({ transactionId: id, state: 'Completed' })),
      );
      void Promise.all(webhooks).then(() => res.end('ok'));
    } else if (url.pathname.startsWith('/transactions/') && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ transactionId: url.pathname.slice('/transactions/'.length), state: 'Completed' }));
    } else if (url.pathname === '/transactions' && req.method === 'POST') {
      void bodyOf(req).then((text) => {
        const { orderId } = JSON.parse(text) as { orderId: string };
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ transactionId: randomUUID(), orderId, state: 'Registered', amount: '79.80' }));
      });
    } else res.writeHead(404).end();
  });
  const providerPort = await listen(provider);
  // The floor with two more routes: the webhook (re-read, then write to the streams) and the create (one provider call).
  const floor = await httpFloor(onOpened, (req, res, url) => {
    if (url.pathname === '/webhook' && req.method === 'POST') {
      void bodyOf(req).then(async (text) => {
        const { transactionId } = JSON.parse(text) as { transactionId: string };
        const truth = JSON.parse(await call(agent, providerPort, 'GET', `/transactions/${transactionId}`)) as { state: string };
        if (truth.state === 'Completed') floor.publish(transactionId);
        res.writeHead(204).end();
      });
      return true;
    }
    if (url.pathname === '/checkouts' && req.method === 'POST') {
      void bodyOf(req).then(async (text) => {
        const { orderId } = JSON.parse(text) as { orderId: string };
        const created = await call(agent, providerPort, 'POST', '/transactions', JSON.stringify({ orderId }));
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(created);
      });
      return true;
    }
    return false;
  });
  floorPort = floor.port;
  return {
    ...floor,
    /** The contract's path: one loopback POST to the provider, its webhooks, their re-reads, the stream writes. */
    triggerUrl: `http://127.0.0.1:${providerPort}/trigger`,
    close: async () => {
      await floor.close();
      provider.closeAllConnections();
      await new Promise<void>((resolve) => provider.close(() => resolve()));
      agent.destroy();
    },
  };
}

export async function startHonoFloor() {
  const streams = new Set<SSEStreamingApi>();
  const app = new Hono()
    .get('/events', (c) =>
      streamSSE(c, async (stream) => {
        streams.add(stream);
        await stream.writeSSE({ event: 'status', data: '{"state":"Registered"}' });
        await new Promise<void>((resolve) => stream.onAbort(resolve));
        streams.delete(stream);
      }),
    )
    .post('/checkouts', async (c) => {
      const body = await c.req.json<{ orderId?: unknown }>();
      if (typeof body.orderId !== 'string') return c.json({ error: 'orderId' }, 400);
      return c.json({ id: randomUUID(), orderId: body.orderId, state: 'Registered', amount: '79.80' }, 201);
    });
  const server: ReturnType<typeof serve> = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    open: () => streams.size,
    close: () =>
      new Promise<void>((resolve) => {
        (server as unknown as { closeAllConnections(): void }).closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
