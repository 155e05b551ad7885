/**
 * A stand-in provider over HTTP for "the BFF alone": bare `node:http` that answers in the provider's exact shape at
 * next to no cost, as the hops floor's stand-in provider does (./floor-servers.ts), so a row of the BFF alone is read
 * against that floor like with like. The first answer of each route is fetched from a real emulator (`target`) and
 * recorded; from then on the stub replays it at once:
 * - a cash-in under a fresh transaction id, its webhook address and header kept from the create request;
 * - a transaction's record, as recorded in the state the stub holds for it (Registered, then Completed);
 * - `POST /trigger?c=<ids>` completes those transactions and posts each one's webhook (the recorded body, its id
 *   swapped), answering once every webhook is answered, as the emulator's sandbox trigger does.
 * The record of a Completed transaction and its webhook are recorded by `recordCompletion`: the emulator completes
 * a transaction created through the stub, whose webhook the stub relays to the BFF (and keeps), and whose re-read
 * it forwards (and keeps).
 */
import { randomUUID } from 'node:crypto';
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Recorded {
  status: number;
  contentType: string;
  body: string;
  /** The transaction id inside `body`, swapped on every replay. */
  transactionId?: string;
  /** `body` cut at that id once, so a replay only joins the parts (as cheap as the hops floor's answer). */
  parts?: string[];
}

/** A transaction the stub made: its state and where its webhook goes. */
interface Stubbed {
  state: string;
  webhook: { url: string; headers: Record<string, string> } | undefined;
}

function findTransactionId(value: unknown): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  const transaction = record.transaction as Record<string, unknown> | undefined;
  if (transaction && typeof transaction.id === 'string') return transaction.id;
  for (const child of Object.values(record)) {
    const found = findTransactionId(child);
    if (found) return found;
  }
  return undefined;
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** The webhook a create request asks for: its address and its custom header. */
function webhookOf(body: unknown): Stubbed['webhook'] {
  const webhook = (body as { webhook?: { url?: unknown; customHeaderName?: unknown; customHeaderValue?: unknown } } | undefined)?.webhook;
  if (typeof webhook?.url !== 'string') return undefined;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (typeof webhook.customHeaderName === 'string')
    headers[webhook.customHeaderName.toLowerCase()] = typeof webhook.customHeaderValue === 'string' ? webhook.customHeaderValue : '';
  return { url: webhook.url, headers };
}

const bodyOf = (message: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    message.on('data', (chunk: Buffer) => chunks.push(chunk));
    message.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    message.on('error', reject);
  });

/** One POST over a keep-alive agent (as the hops floor's stand-in provider posts its webhooks); resolves with the status. */
function post(agent: Agent, url: string, headers: Record<string, string>, body: string) {
  return new Promise<number>((resolve, reject) => {
    const { hostname, port, pathname, search } = new URL(url);
    const req = request(
      {
        agent,
        host: hostname,
        port,
        method: 'POST',
        path: pathname + search,
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** `target` is where the provider's paths live, such as http://127.0.0.1:3000/sandbox. */
export async function startStubProvider(target: string) {
  const agent = new Agent({ keepAlive: true, scheduling: 'lifo' });
  const recorded = new Map<string, Recorded>();
  /** Transactions the emulator made (through the stub): every call about them is forwarded. */
  const emulated = new Set<string>();
  const stubbed = new Map<string, Stubbed>();
  /** The recorded Completed webhook, cut at its transaction id once (a trigger joins the parts with its own id). */
  let webhookBody: { parts: string[] } | undefined;
  let replayed = 0;
  let url = '';

  /** The route of a request, with the id of a transaction it names made generic; and that id. */
  const routeOf = (method: string, path: string) => {
    const match = /\/transactions\/pix\/([^/?]+)/.exec(path);
    const id = match ? decodeURIComponent(match[1]!) : undefined;
    return { id, key: `${method} ${id ? path.replace(match![1]!, ':id') : path}` };
  };
  const replay = (res: ServerResponse, answer: Recorded, id: string) => {
    replayed++;
    if (answer.transactionId && !answer.parts) answer.parts = answer.body.split(answer.transactionId);
    const body = answer.parts ? answer.parts.join(id) : answer.body;
    res.writeHead(answer.status, { 'content-type': answer.contentType, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };

  async function forward(req: IncomingMessage, res: ServerResponse, text: string, key: string) {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string' && name !== 'host' && name !== 'content-length') headers[name] = value;
    let sent = text;
    const asked = parse(text);
    const webhook = webhookOf(asked);
    // The emulator's webhook of a transaction made through the stub comes through the stub, which keeps it.
    if (webhook)
      sent = JSON.stringify({
        ...(asked as object),
        webhook: { ...(asked as { webhook: object }).webhook, url: `${url}/relay?to=${encodeURIComponent(webhook.url)}` },
      });
    const upstream = await fetch(target + (req.url ?? ''), { method: req.method ?? 'GET', headers, ...(sent ? { body: sent } : {}) });
    const body = await upstream.text();
    const transactionId = findTransactionId(parse(body));
    if (transactionId && webhook) emulated.add(transactionId);
    const answer: Recorded = { status: upstream.status, contentType: upstream.headers.get('content-type') ?? 'application/json', body };
    if (transactionId) answer.transactionId = transactionId;
    const state = /"state":"(\w+)"/.exec(body)?.[1];
    if (upstream.ok) recorded.set(state && key.includes(':id') ? `${key} ${state}` : key, answer);
    res.writeHead(upstream.status, { 'content-type': answer.contentType });
    res.end(body);
  }

  async function trigger(ids: string[], res: ServerResponse) {
    if (!webhookBody) return res.writeHead(409).end('no webhook recorded: run recordCompletion first');
    const sent = ids.map((id) => {
      const transaction = stubbed.get(id);
      if (!transaction?.webhook) return Promise.resolve(404);
      transaction.state = 'Completed';
      const body = webhookBody!.parts.join(id);
      return post(agent, transaction.webhook.url, transaction.webhook.headers, body);
    });
    const statuses = await Promise.all(sent);
    res.writeHead(statuses.every((s) => s >= 200 && s < 300) ? 200 : 502).end(statuses.join(','));
  }

  async function relay(req: IncomingMessage, res: ServerResponse, text: string, to: string) {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string' && name !== 'host' && name !== 'content-length') headers[name] = value;
    const id = (parse(text) as { id?: unknown } | undefined)?.id;
    if (typeof id === 'string' && /"transactionState":"Completed"/.test(text)) webhookBody = { parts: text.split(id) };
    const status = await post(agent, to, headers, text);
    res.writeHead(status).end();
  }

  async function answer(req: IncomingMessage, res: ServerResponse, text: string) {
    const path = req.url ?? '/';
    if (path.startsWith('/trigger') && req.method === 'POST')
      return trigger((new URL(path, 'http://stub').searchParams.get('c') ?? '').split(','), res);
    if (path.startsWith('/relay') && req.method === 'POST')
      return relay(req, res, text, new URL(path, 'http://stub').searchParams.get('to')!);
    const { id, key } = routeOf(req.method ?? 'GET', path);
    if (id && emulated.has(id)) return forward(req, res, text, key);
    const transaction = id ? stubbed.get(id) : undefined;
    const answer = recorded.get(transaction ? `${key} ${transaction.state}` : key);
    if (!answer) return forward(req, res, text, key);
    if (id) return replay(res, answer, id);
    // A new transaction: a fresh id, and the webhook it asked for.
    const fresh = answer.transactionId ? randomUUID() : undefined;
    if (fresh) stubbed.set(fresh, { state: 'Registered', webhook: webhookOf(parse(text)) });
    return replay(res, answer, fresh ?? '');
  }

  const server = createServer((req, res) => {
    const failed = (error: unknown) => {
      if (!res.headersSent) res.writeHead(502);
      res.end(String(error));
    };
    // A request without a body (a read, a trigger) is answered at once, as the hops floor's provider answers them,
    // rather than after its empty body's end: a turn of the event loop in the BFF alone's process, on the status path.
    if (!req.headers['transfer-encoding'] && (req.headers['content-length'] ?? '0') === '0') {
      req.resume();
      void answer(req, res, '').catch(failed);
      return;
    }
    void bodyOf(req)
      .then((text) => answer(req, res, text))
      .catch(failed);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    /** Where the bench POSTs "the trigger" (`?c=<transaction ids>`), as it does to the hops floor's provider. */
    triggerUrl: `${url}/trigger`,
    replayed: () => replayed,
    /** A transaction the emulator made through the stub (the first create is forwarded), if any. */
    emulatedTransaction: (): string | undefined => emulated.values().next().value,
    /** True once a Completed webhook and record are recorded, so triggers can complete the stub's transactions. */
    canComplete: () => webhookBody !== undefined && [...recorded.keys()].some((key) => key.endsWith(' Completed')),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        agent.destroy();
      }),
  };
}
