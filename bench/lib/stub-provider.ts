/**
 * A stub provider over HTTP for "the BFF alone": the first answer of each route is fetched from a real emulator and
 * recorded; from then on the stub replays it at once, each cash-in under a fresh transaction id. So the BFF speaks
 * to an HTTP provider that costs next to nothing, with answers in the provider's exact shape.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Recorded {
  status: number;
  contentType: string;
  body: string;
  /** The transaction id inside `body`, replaced by a fresh one on every replay. */
  transactionId?: string;
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

/** `target` is where the provider's paths live, such as http://127.0.0.1:3000/sandbox. */
export async function startStubProvider(target: string) {
  const recorded = new Map<string, Recorded>();
  let replayed = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const key = `${req.method} ${req.url}`;
        let answer = recorded.get(key);
        if (answer) {
          replayed++;
          const body = answer.transactionId ? answer.body.split(answer.transactionId).join(randomUUID()) : answer.body;
          res.writeHead(answer.status, { 'content-type': answer.contentType, 'content-length': Buffer.byteLength(body) });
          return res.end(body);
        }
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string' && name !== 'host') headers[name] = value;
        const upstream = await fetch(target + req.url, {
          method: req.method ?? 'GET',
          headers,
          ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
        });
        const body = await upstream.text();
        let parsed: unknown;
        try {
          parsed = JSON.parse(body);
        } catch {
          parsed = undefined;
        }
        const transactionId = findTransactionId(parsed);
        answer = { status: upstream.status, contentType: upstream.headers.get('content-type') ?? 'application/json', body };
        if (transactionId) answer.transactionId = transactionId;
        if (upstream.ok) recorded.set(key, answer);
        res.writeHead(upstream.status, { 'content-type': answer.contentType });
        res.end(body);
      })().catch((error: unknown) => {
        res.writeHead(502).end(String(error));
      });
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    replayed: () => replayed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
