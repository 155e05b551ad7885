/**
 * The provider's webhook answered by Node before the app (server/bff/webhook-node.ts): the same answers, headers and
 * log line as the app's route, the plain case only (anything else reaches the app), the body's deadline, and a
 * failure of the receiver answered in the envelope.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_HEADER } from '../../../server/bff/app';
import { nodeWebhookRoute } from '../../../server/node/webhook-route';
import { ApiError } from '../../../server/payments/errors';
import { errorBody } from '../../../server/http/error-envelope';
import type { WebhookCall, WebhookReceive } from '../../../server/bff/webhook-receiver';
import { listenOnLoopback } from '../helpers/http';
import { startTestServer, type TestServer } from '../helpers/server';

const PATH = '/api/webhooks/provider';

/** Headers that differ between any two answers, or that Node adds on its own. */
const VARYING = new Set(['x-request-id', 'date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
const stableHeaders = (headers: Headers) => Object.fromEntries([...headers].filter(([name]) => !VARYING.has(name)));

describe('the provider webhook answered before the app', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers as the app route does: same status, body and headers, for a refusal, a bad body and an unknown transaction', async () => {
    const secret = server.config.webhookSecret;
    const cases: { headers: Record<string, string>; body: string }[] = [
      { headers: { [WEBHOOK_HEADER]: 'wrong' }, body: '{}' },
      { headers: { [WEBHOOK_HEADER]: secret }, body: '{not json' },
      { headers: { [WEBHOOK_HEADER]: secret }, body: JSON.stringify({ id: 'x', transactionState: 'Sideways' }) },
      { headers: { [WEBHOOK_HEADER]: secret }, body: JSON.stringify({ id: 'nobody-has-this-one', transactionState: 'Completed' }) },
    ];
    for (const { headers, body } of cases) {
      // Over the socket (Node's route: a plain POST with a Content-Length) and through the app alone (app.request).
      const viaNode = await fetch(`${server.url}${PATH}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body,
      });
      const viaApp = await server.app.request(PATH, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
      expect(viaNode.status).toBe(viaApp.status);
      expect(stableHeaders(viaNode.headers)).toEqual(stableHeaders(viaApp.headers));
      // The listener names every answer's request (server/node/listen.ts); `app.request` has no listener.
      expect(viaNode.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(await viaNode.json()).toEqual(await viaApp.json());
    }
  });

  it('completes a paid checkout, as the app route does', async () => {
    const { orderId, orderToken } = await server.order();
    const created = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    await server.provider.sandbox.pix.complete(created.body.transactionId, { name: 'Fulana', taxNumber: '52998224725' });
    const stored = await server.store.getCheckout(created.body.id);
    expect(stored?.state).toBe('Completed');
  });
});

/** A bare Node server whose requests go to `route` first; what it does not take is answered 599 by the "app". */
async function serveRoute(receive: WebhookReceive, lines: string[], errors: unknown[], bodyTimeoutMs = 5_000) {
  const route = nodeWebhookRoute({
    receive,
    path: PATH,
    maxBytes: 1_024,
    bodyTimeoutMs,
    https: true,
    log: { log: (_fields: unknown, line: string) => lines.push(line), error: (...args: unknown[]) => errors.push(args) },
  });
  return listenOnLoopback(
    createServer((req: IncomingMessage, res: ServerResponse) => {
      if (!route(req, res)) res.writeHead(599).end('app');
    }),
  );
}

/** One request by hand, so a body can be chunked, partial or longer than announced. */
function send(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string | number>; body?: string; hold?: boolean },
) {
  return new Promise<{ status: number; headers: IncomingMessage['headers']; text: string }>((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: options.method ?? 'POST', path: options.path ?? PATH, headers: options.headers },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    if (options.hold) req.write(options.body ?? '');
    else req.end(options.body);
  });
}

describe('nodeWebhookRoute', () => {
  const calls: { secret: string | undefined; body: string }[] = [];
  const lines: string[] = [];
  const errors: unknown[] = [];
  const receive: WebhookReceive = async (call: WebhookCall) => {
    let body: string;
    try {
      body = await call.text();
    } catch (error) {
      // As the receiver does: a refusal of the body reader is answered in the envelope with its status.
      if (!(error instanceof ApiError)) throw error;
      return { status: error.status, body: errorBody(error.name, error.code, error.message) };
    }
    calls.push({ secret: call.header('X-Checkout-Webhook-Secret'), body });
    if (body === 'throw') throw new Error('receiver broke');
    return { status: 200, body: { statusCode: 'Done', data: { outcome: 'applied' } } };
  };
  let running: Awaited<ReturnType<typeof serveRoute>>;
  beforeAll(async () => {
    running = await serveRoute(receive, lines, errors, 300);
  });
  afterAll(() => running.close());

  it('takes a plain POST: the receiver gets its headers and body, the answer has the JSON headers and a log line', async () => {
    const body = JSON.stringify({ id: 'tx_1', transactionState: 'Completed' });
    const answer = await send(running.port, {
      headers: { 'content-length': Buffer.byteLength(body), 'x-checkout-webhook-secret': 's3' },
      body,
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ statusCode: 'Done', data: { outcome: 'applied' } });
    expect(calls.at(-1)).toEqual({ secret: 's3', body });
    expect(answer.headers).toMatchObject({
      'content-type': 'application/json',
      'content-security-policy': expect.stringContaining("default-src 'none'"),
      'cross-origin-resource-policy': 'same-origin',
      'strict-transport-security': 'max-age=15552000',
      'x-content-type-options': 'nosniff',
    });
    expect(lines.at(-1)).toBe('POST /api/webhooks/provider 200');
  });

  it('leaves everything but the plain case to the app', async () => {
    const before = calls.length;
    const others: Parameters<typeof send>[1][] = [
      { method: 'GET', headers: {} },
      { path: `${PATH}?x=1`, headers: { 'content-length': 2 }, body: '{}' },
      { path: '/api/webhooks/provider/', headers: { 'content-length': 2 }, body: '{}' },
      { headers: { 'transfer-encoding': 'chunked' }, body: '{}' },
      { headers: { 'content-length': 0 }, body: '' },
      { headers: { 'content-length': 2_000 }, body: 'x'.repeat(2_000) },
    ];
    for (const other of others) expect((await send(running.port, other)).status).toBe(599);
    expect(calls.length).toBe(before);
  });

  it('answers a body that does not arrive in time with 408 body_timeout and closes the connection', async () => {
    const answer = await send(running.port, { headers: { 'content-length': 100 }, body: '{"id":', hold: true });
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.text)).toMatchObject({ statusCode: 'Error', error: { code: 'body_timeout' } });
    expect(answer.headers.connection).toBe('close');
  });

  it('answers a failure of the receiver with a 500 in the envelope, and tells the log why', async () => {
    const answer = await send(running.port, { headers: { 'content-length': 5 }, body: 'throw' });
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.text)).toMatchObject({ statusCode: 'Error', error: { code: 'internal_error' } });
    expect(answer.text).not.toContain('receiver broke');
    expect(String((errors.at(-1) as unknown[])[1])).toContain('receiver broke');
  });
});
