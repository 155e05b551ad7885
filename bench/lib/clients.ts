/**
 * The bench's client process (forked by bench/lib/client-process.ts), so ten thousand client sockets and the load
 * generator live outside the process whose server is measured: its file descriptors, heap and event loop stay the
 * server's own. Loopback only. Times are `performance.timeOrigin + performance.now()`, comparable across processes.
 *
 * Messages in: `open` (raw HTTP/1.1 SSE connections, one per path), `arm` (time the arrival of a marker on every
 * open connection), `close`, `load` (keep-alive POSTs from N connections for a fixed time), `exit`; and the merchant's
 * backend: `receive` (a bare node:http receiver of webhooks, answering 204 at once), `expect` (the first receipt whose
 * body has a string), `count` (the time the receiver has N distinct webhook-ids), `receipts` (what it got, cleared).
 */
import { Agent, createServer, request, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

const now = () => performance.timeOrigin + performance.now();

interface Connection {
  socket: Socket;
  tail: string;
  armed: boolean;
  at: number;
}

let connections: Connection[] = [];
let armedMarker = '';
let waiting = 0;
let onAllDelivered: (() => void) | undefined;

function send(message: unknown) {
  process.send!(message);
}

/** Opens one SSE connection; resolves once `ready` (a first event) has arrived. */
function openOne(port: number, path: string, ready: string): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const connection: Connection = { socket, tail: '', armed: false, at: 0 };
    let opened = false;
    socket.setNoDelay(true);
    socket.setEncoding('latin1');
    socket.on('connect', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`);
    });
    socket.on('data', (chunk: string) => {
      const text = connection.tail + chunk;
      connection.tail = text.slice(-64);
      if (!opened) {
        if (text.includes(ready)) {
          opened = true;
          resolve(connection);
        }
        return;
      }
      if (connection.armed && text.includes(armedMarker)) {
        connection.armed = false;
        connection.at = now();
        if (--waiting === 0) onAllDelivered?.();
      }
    });
    socket.on('error', (error) => {
      if (!opened) reject(error);
    });
  });
}

async function open(port: number, paths: string[], ready: string, parallel = 256) {
  const started = now();
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++]!;
      connections.push(await openOne(port, path, ready));
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, paths.length) }, worker));
  return { count: connections.length, ms: now() - started };
}

function arm(marker: string, timeoutMs: number) {
  armedMarker = marker;
  waiting = connections.length;
  for (const connection of connections) {
    connection.armed = true;
    connection.at = 0;
  }
  return new Promise<{ delivered: number; first: number; last: number }>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      onAllDelivered = undefined;
      const times = connections.filter((c) => c.at > 0).map((c) => c.at);
      resolve({ delivered: times.length, first: Math.min(...times), last: Math.max(...times) });
    };
    const timer = setTimeout(done, timeoutMs);
    onAllDelivered = done;
    send({ type: 'armed' });
  });
}

async function close() {
  for (const connection of connections) connection.socket.destroy();
  connections = [];
}

/** Keep-alive POSTs of `bodies` (one each) from `concurrency` connections; stops after `seconds`. */
async function load(port: number, path: string, bodies: string[], concurrency: number, seconds: number, headers: Record<string, string>) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const post = (body: string) =>
    new Promise<number>((resolve) => {
      const req = request(
        { host: '127.0.0.1', port, path, method: 'POST', agent, headers: { 'content-type': 'application/json', ...headers } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', () => resolve(0));
      req.end(body);
    });
  const started = now();
  const deadline = started + seconds * 1000;
  let next = 0;
  let ok = 0;
  let failed = 0;
  const statuses: Record<string, number> = {};
  const worker = async () => {
    while (now() < deadline && next < bodies.length) {
      const status = await post(bodies[next++]!);
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status === 200 || status === 201) ok++;
      else failed++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (now() - started) / 1000;
  agent.destroy();
  return { ok, failed, seconds: elapsed, perSecond: ok / elapsed, statuses, exhausted: next >= bodies.length };
}

/** One request the receiver got: its arrival (the whole body in), its webhook headers and body, for verifying later. */
export interface Receipt {
  at: number;
  headers: Record<string, string>;
  body: string;
}

let receiver: Server | undefined;
let receipts: Receipt[] = [];
let distinct = new Set<string>();
/** Waiters for a receipt, checked on each arrival. */
let waiters: (() => boolean)[] = [];

async function receive() {
  if (!receiver) {
    receiver = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        const at = now();
        res.writeHead(204).end();
        const headers: Record<string, string> = {};
        for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) headers[name] = String(req.headers[name] ?? '');
        receipts.push({ at, headers, body });
        distinct.add(headers['webhook-id']!);
        waiters = waiters.filter((done) => !done());
      });
    });
    receiver.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
  }
  return { port: (receiver.address() as AddressInfo).port };
}

/** Resolves with what `check` finds (looked for now and on each receipt), or after `timeoutMs` with `timedOut()`. */
function waitForReceipt<T>(check: () => T | undefined, timedOut: () => T, timeoutMs: number): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      waiters = waiters.filter((w) => w !== done);
      resolve(timedOut());
    }, timeoutMs);
    const done = () => {
      const found = check();
      if (found === undefined) return false;
      clearTimeout(timer);
      resolve(found);
      return true;
    };
    if (!done()) waiters.push(done);
  });
}

/** The first receipt whose body includes `includes`: its arrival (NaN when none came in time). */
const expect = (includes: string, timeoutMs: number) =>
  waitForReceipt(
    () => {
      const found = receipts.find((r) => r.body.includes(includes));
      return found ? { at: found.at } : undefined;
    },
    () => ({ at: Number.NaN }),
    timeoutMs,
  );

/** When `count` distinct webhook-ids have arrived: the first and last arrival, and how many came (copies too). */
const count = (wanted: number, timeoutMs: number) => {
  const summary = () => ({
    distinct: distinct.size,
    copies: receipts.length,
    first: Math.min(...receipts.map((r) => r.at)),
    last: Math.max(...receipts.map((r) => r.at)),
  });
  return waitForReceipt(() => (distinct.size >= wanted ? summary() : undefined), summary, timeoutMs);
};

function takeReceipts() {
  const taken = receipts;
  receipts = [];
  distinct = new Set();
  return { receipts: taken };
}

type Message =
  | { type: 'open'; port: number; paths: string[]; ready: string }
  | { type: 'arm'; marker: string; timeoutMs?: number }
  | { type: 'close' }
  | { type: 'load'; port: number; path: string; bodies: string[]; concurrency: number; seconds: number; headers?: Record<string, string> }
  | { type: 'receive' }
  | { type: 'expect'; includes: string; timeoutMs: number }
  | { type: 'count'; count: number; timeoutMs: number }
  | { type: 'receipts' }
  | { type: 'exit' };

async function answer(message: Message): Promise<object> {
  switch (message.type) {
    case 'open':
      return { type: 'opened', ...(await open(message.port, message.paths, message.ready)) };
    case 'arm':
      return { type: 'delivered', ...(await arm(message.marker, message.timeoutMs ?? 30_000)) };
    case 'close':
      await close();
      return { type: 'closed' };
    case 'load':
      return {
        type: 'loaded',
        ...(await load(message.port, message.path, message.bodies, message.concurrency, message.seconds, message.headers ?? {})),
      };
    case 'receive':
      return { type: 'receiving', ...(await receive()) };
    case 'expect':
      return { type: 'expected', ...(await expect(message.includes, message.timeoutMs)) };
    case 'count':
      return { type: 'counted', ...(await count(message.count, message.timeoutMs)) };
    case 'receipts':
      return { type: 'taken', ...takeReceipts() };
    case 'exit':
      process.exit(0);
  }
}

process.on('message', (message: Message) => {
  answer(message).then(send, (error: unknown) => send({ type: 'error', message: error instanceof Error ? error.message : String(error) }));
});
send({ type: 'up' });
