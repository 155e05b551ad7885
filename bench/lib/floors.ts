/**
 * The baselines every row is measured against in the same run, on 127.0.0.1:
 * - `startHttpFloor`: a bare `node:http` SSE server (the floor): streams grouped by channel, one write per stream
 *   when a channel is triggered, and a page whose EventSource waits for the same Completed message;
 * - `startHonoFloor`: a minimal Hono server (`@hono/node-server`): `streamSSE` streams, and a JSON create route.
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
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

export async function startHttpFloor() {
  const channels = new Map<string, Set<ServerResponse>>();
  let open = 0;
  let opened = 0;
  const publish = (channel: string) => {
    for (const res of channels.get(channel) ?? []) res.write(COMPLETED);
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const channel = url.searchParams.get('c') ?? 'default';
    if (url.pathname === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(`retry: 1000\n\n${REGISTERED}`);
      let set = channels.get(channel);
      if (!set) channels.set(channel, (set = new Set()));
      set.add(res);
      open++;
      opened++;
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
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    open: () => open,
    /** Streams opened since the start (never goes down). */
    opened: () => opened,
    /** What the bench calls "the trigger" on the floor: one loopback POST, then one write per stream of each channel. */
    trigger: async (channelList: string[]) => {
      await fetch(`http://127.0.0.1:${port}/trigger?c=${channelList.join(',')}`, { method: 'POST' }).then((r) => r.text());
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
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
