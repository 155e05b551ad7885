/** Builders for emulator tests: a sandbox on a manual clock, a logged-in caller, and a real webhook receiver. */
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { ManualClock } from '../../../server/lib/clock';
import { createSandbox, IN_MEMORY, type Sandbox, type SandboxOptions } from '../../../server/sandbox';

export const BASE = 'http://127.0.0.1:3000';
export const API = '/v1/partners-int';
export const VALID_CPF = '52998224725';
export const OTHER_VALID_CPF = '11144477735';
/** The admin key of every sandbox `makeSandbox` builds. */
export const ADMIN_KEY = 'test-sandbox-admin-key-0123456789';

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'sandbox-test-'));
}

/** A sandbox on a manual clock; cash-outs stay Created unless the test shortens `registerDelayMs`. */
export function makeSandbox(options: Partial<SandboxOptions> = {}) {
  const clock = new ManualClock('2026-01-15T12:00:00.000Z');
  const sandbox = createSandbox({
    dataDir: IN_MEMORY,
    publicBaseUrl: BASE,
    clock,
    registerDelayMs: 3_600_000,
    webhookRetry: { delaysMs: [] },
    adminKey: ADMIN_KEY,
    ...options,
  });
  return { sandbox, clock };
}

export type Reply = { status: number; body: any; text: string; headers: Headers };

/** Calls the emulator in-process with `app.request()` and parses JSON when there is some. */
export async function call(
  sandbox: Sandbox,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const response = await sandbox.app.request(path, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: the token, a page or an image; the text is the body.
  }
  return { status: response.status, body: parsed, text, headers: response.headers };
}

export async function login(sandbox: Sandbox): Promise<string> {
  const reply = await call(sandbox, 'POST', `${API}/login`, { accessKey: 'sandbox-access-key', secret: 'sandbox-secret' });
  if (reply.status !== 201) throw new Error(`login failed: ${reply.text}`);
  return reply.text;
}

/** A caller holding a token: `api('POST', '/accounts/pix/cashin', body)`. */
export async function client(sandbox: Sandbox) {
  const token = await login(sandbox);
  return (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    call(sandbox, method, API + path, body, { authorization: `Bearer ${token}`, ...headers });
}

export type Api = Awaited<ReturnType<typeof client>>;

export const cashIn = (webhookUrl: string, extra: { payment?: object; transaction?: object } = {}) => ({
  payment: { payer: { cpf: VALID_CPF, name: 'Maria Silva' }, value: { original: '10.50' }, ...extra.payment },
  transaction: { orderId: 'order-1', orderDescription: 'Pedido 1', ...extra.transaction },
  webhook: { url: webhookUrl, customHeaderName: 'x-shop-secret', customHeaderValue: 's3cret' },
});

export const cashOut = (webhookUrl: string, payment: object = {}) => ({
  payment: {
    recipient: { name: 'João Souza', cpf: VALID_CPF },
    key: { type: 'EMAIL', value: 'joao@example.com' },
    value: '25.00',
    ...payment,
  },
  transaction: { orderId: 'payout-1' },
  webhook: { url: webhookUrl, customHeaderName: 'x-shop-secret', customHeaderValue: 's3cret' },
});

export const initiation = (webhookUrl: string, redirectUrl = 'http://shop.example/return?order=1') => ({
  payment: { payer: { taxNumber: VALID_CPF }, value: { original: '1234.56' }, redirectUrl },
  transaction: { orderId: 'of-1', orderDescription: 'Pedido OF' },
  webhook: { url: webhookUrl, customHeaderName: 'x-shop-secret', customHeaderValue: 's3cret' },
});

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  text: string;
  body: any;
}

/** A real HTTP server that records every webhook; `answer` sets the status of the next replies. */
export async function startReceiver() {
  const received: Received[] = [];
  const state = { status: 200, delayMs: 0 };
  const server = createServer((req, res) => {
    // The answer is fixed when the request arrives, so a test changing it mid-request gets a predictable outcome.
    const { status, delayMs } = state;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, text, body });
      setTimeout(() => res.writeHead(status).end(), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/provider`,
    received,
    answer(status: number, delayMs = 0) {
      state.status = status;
      state.delayMs = delayMs;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Serves a sandbox on a real socket, the way the main server mounts it. */
export async function serveSandbox(sandbox: Sandbox) {
  const root = new Hono().route('/sandbox', sandbox.app);
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: root.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/sandbox`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Waits until `check` holds, polling; for background work driven by real timers. */
export async function eventually(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A webhook address nobody listens on. */
export const DEAD_URL = 'http://127.0.0.1:9/hooks';
