/**
 * The two fault-injecting HTTP proxies of `npm run soak`.
 *
 * Provider proxy (BFF → emulator), at `/<instance>/sandbox/v1/...`, so it knows which BFF is calling: 5xx bursts,
 * single 5xx before the provider acts, 5xx after it acted (the answer is lost), delays past the BFF's provider
 * timeout (the transaction is still made, late), and `kill -9` of the child BFF while its creation or cash-out (a
 * refund is one) is in flight here (it then reaches the provider: the BFF died after reserving and before hearing the
 * answer).
 *
 * Webhook proxy (emulator → BFFs), the BFFs' public address: each webhook is forwarded to a live instance, or
 * acknowledged and dropped, or delivered twice, or held for a while first.
 *
 * The merchant's receiver (./merchant.ts) counts its faults here too.
 */
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { between, chance } from './odds';

export const FAULT_KINDS = [
  'provider 5xx burst (requests refused)',
  'provider 5xx before acting',
  'provider 5xx after acting (answer lost)',
  'provider delay past the BFF timeout',
  'kill -9 of a BFF mid-creation',
  'kill -9 of a BFF mid-cash-out or refund',
  'provider 5xx after a cash-out or refund (answer lost)',
  'webhook dropped (acknowledged, never delivered)',
  'webhook duplicated',
  'webhook delayed',
  'merchant 5xx',
  'merchant timeout (answered after 11 s)',
  'merchant connection dropped before the body',
  'merchant connection dropped after the body',
  'merchant slow answer (0.5–3 s)',
  'kill -9 of a BFF mid-delivery',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** What the proxies may do, and how often they did each thing. Turn `enabled` off to let the system settle. */
export class Faults {
  enabled = true;
  readonly counts = new Map<FaultKind, number>();
  /** Until when every provider call gets a 503 (a burst). */
  burstUntil = 0;
  bursts = 0;
  add(kind: FaultKind): void {
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** One request to `base + path`, buffered both ways. */
export function forward(base: string, method: string, path: string, headers: IncomingHttpHeaders, body: Buffer): Promise<Answer> {
  const url = new URL(path, base);
  const outgoing = { ...headers };
  delete outgoing.host;
  delete outgoing.connection;
  outgoing['content-length'] = String(body.length);
  return new Promise<Answer>((resolve, reject) => {
    const req = request(url, { method, headers: outgoing }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error('upstream timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

function reply(res: ServerResponse, answer: Answer): void {
  if (res.destroyed || res.headersSent) return;
  const headers = { ...answer.headers };
  delete headers['transfer-encoding'];
  delete headers.connection;
  headers['content-length'] = String(answer.body.length);
  res.writeHead(answer.status, headers);
  res.end(answer.body);
}

function replyError(res: ServerResponse, status: number, name: string): void {
  const body = Buffer.from(JSON.stringify({ statusCode: 'Error', error: { name, message: 'Injected by the soak proxy', code: name } }));
  reply(res, { status, headers: { 'content-type': 'application/json' }, body });
}

async function listenOn(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closer(server: Server) {
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

export interface ProviderProxyOptions {
  /** The emulator's origin; requests go to `<emulator>/sandbox/v1/...`. */
  emulator: string;
  faults: Faults;
  /** The BFFs' provider timeout: a delayed answer is held longer than this. */
  providerTimeoutMs: number;
  /** Kills the named instance now (when it is the child); false when it can't be killed at the moment. */
  kill(instance: string): boolean;
  /** Probability that a creation by a killable instance has it killed. */
  killChance: number;
}

export async function startProviderProxy(options: ProviderProxyOptions) {
  const { faults } = options;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    const match = /^\/([a-z])(\/sandbox\/v1\/.*)$/.exec(req.url ?? '');
    if (!match) return replyError(res, 404, 'NotFound');
    const [, instance, path] = match as unknown as [string, string, string];
    const method = req.method ?? 'GET';
    const pass = () => forward(options.emulator, method, path, req.headers, body);
    const isLogin = path.endsWith('/login');
    const isCreation = method === 'POST' && /\/accounts\/(pix\/cashin|payment-initiation)$/.test(path.split('?')[0]!);
    // A cash-out (a refund is one): money out, which the same faults hit and the soak counts apart.
    const isMoneyOut = method === 'POST' && /\/accounts\/pix\/cashout$/.test(path.split('?')[0]!);

    if (!faults.enabled || isLogin) return reply(res, await pass());
    if (Date.now() < faults.burstUntil) {
      faults.add('provider 5xx burst (requests refused)');
      return replyError(res, 503, 'ServiceUnavailable');
    }
    if ((isCreation || isMoneyOut) && chance(isMoneyOut ? 3 * options.killChance : options.killChance) && options.kill(instance)) {
      faults.add(isMoneyOut ? 'kill -9 of a BFF mid-cash-out or refund' : 'kill -9 of a BFF mid-creation');
      // The caller is gone; the provider still makes the transaction, as it would have.
      await sleep(between(50, 400));
      await pass().catch(() => undefined);
      return;
    }
    if ((isCreation || isMoneyOut) && chance(0.05)) {
      faults.add(isMoneyOut ? 'provider 5xx after a cash-out or refund (answer lost)' : 'provider 5xx after acting (answer lost)');
      await pass();
      return replyError(res, 502, 'BadGateway');
    }
    if (chance(isCreation || isMoneyOut ? 0.05 : 0.02)) {
      faults.add('provider delay past the BFF timeout');
      await sleep(options.providerTimeoutMs + between(200, 900));
      return reply(res, await pass());
    }
    if (chance(0.03)) {
      faults.add('provider 5xx before acting');
      return replyError(res, chance(0.5) ? 500 : 503, 'InternalServerError');
    }
    return reply(res, await pass());
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => replyError(res, 502, 'BadGateway'));
  });
  return { url: await listenOn(server), close: closer(server) };
}

export interface WebhookProxyOptions {
  faults: Faults;
  /** The BFF instances' loopback addresses, in preference order; an instance that is down is skipped. */
  targets(): string[];
}

export async function startWebhookProxy(options: WebhookProxyOptions) {
  const { faults } = options;
  /** Delivers to a random live instance, falling back to the others; undefined when none answered. */
  const deliver = async (req: IncomingMessage, body: Buffer): Promise<Answer | undefined> => {
    const targets = [...options.targets()].sort(() => Math.random() - 0.5);
    for (const target of targets) {
      try {
        return await forward(target, req.method ?? 'POST', req.url ?? '/', req.headers, body);
      } catch {
        // That instance is down (being restarted): try the next.
      }
    }
    return undefined;
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    if (faults.enabled && chance(0.08)) {
      faults.add('webhook dropped (acknowledged, never delivered)');
      return reply(res, { status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"statusCode":"Done"}') });
    }
    if (faults.enabled && chance(0.08)) {
      faults.add('webhook duplicated');
      setTimeout(() => void deliver(req, body), between(200, 3_000));
    } else if (faults.enabled && chance(0.07)) {
      faults.add('webhook delayed');
      // Under the emulator's 5 s webhook timeout, so the delivery still counts.
      await sleep(between(300, 3_500));
    }
    const answer = await deliver(req, body);
    if (answer) reply(res, answer);
    else replyError(res, 502, 'BadGateway');
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => replyError(res, 502, 'BadGateway'));
  });
  return { url: await listenOn(server), close: closer(server) };
}
