/**
 * SIGTERM on the built server (`npm run serve`, issue 37 point 4), as a child process on the emulator: with two status
 * streams open, a create held slow by the merchant's order source and a merchant webhook whose receiver never
 * answers, a SIGTERM makes `/readyz` stop answering ready at once, lets the slow create finish with its normal answer,
 * ends each stream with a `retry:` hint, hands the webhook's lease back unrecorded, and exits 0 (the process exits 1
 * when it overruns SHUTDOWN_TIMEOUT_MS). Every line it wrote is JSON with a request or job id; `LOG_FORMAT=pretty`
 * writes text for people, and `LOG_LEVEL` leaves out the levels below it.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signOrderToken } from '../../../server/bff/order-token';
import { freePort, sendJson, startRecordingServer } from '../helpers/http';
import { ensureServerBuild, plainNodeEnv, ROOT, until } from '../helpers/server-build';
import { jsonClient, startTestServer, tempDir, type TestServer } from '../helpers/server';
import { openSse } from '../helpers/sse';

const ORDERS_TOKEN = 'orders-token-of-the-sigterm-test';
const MERCHANT_SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
/** How long the order source holds the slow order's lookup. */
const SLOW_MS = 1_500;

let provider: TestServer;
let orders: Awaited<ReturnType<typeof startRecordingServer>>;
let merchant: Awaited<ReturnType<typeof startRecordingServer>>;
/** The merchant's receiver holds every delivery unanswered; these are ended at the end. */
const held: ServerResponse[] = [];

beforeAll(async () => {
  ensureServerBuild();
  provider = await startTestServer();
  orders = await startRecordingServer(async (req, res) => {
    if (req.url === '/orders/SLOW-1') await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
    sendJson(res, 200, { amountCents: 2_500, description: `Pedido ${req.url}` });
  });
  merchant = await startRecordingServer((_req, res) => void held.push(res));
}, 60_000);

afterAll(async () => {
  for (const res of held) res.destroy();
  await merchant?.close();
  await orders?.close();
  await provider?.close();
});

/** `npm run serve` (scripts/serve.mjs on the build) with `env`: its stdout lines, its exit, and its address. */
async function serve(env: Record<string, string>) {
  const port = await freePort();
  const dataDir = tempDir();
  const child = spawn(process.execPath, ['scripts/serve.mjs'], {
    cwd: ROOT,
    env: plainNodeEnv({
      PORT: String(port),
      DATA_DIR: dataDir,
      WEBHOOK_SECRET: 'webhook-secret-of-the-sigterm-test-0123456789',
      PROVIDER_BASE_URL: `${provider.url}/sandbox/v1`,
      PROVIDER_ACCESS_KEY: 'sandbox-access-key',
      PROVIDER_SECRET: 'sandbox-secret',
      ORDERS_URL: `${orders.url}/orders`,
      ORDERS_TOKEN,
      ...env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  await until('the built server to be ready', async () => {
    if (child.exitCode !== null) throw new Error(`serve stopped:\n${stdout}${stderr}`);
    const answer = await fetch(`${url}/readyz`).catch(() => undefined);
    return answer?.status === 200 ? true : undefined;
  });
  return { child, exited, url, dataDir, lines: () => stdout.split('\n').filter(Boolean), stderr: () => stderr };
}

const tokenFor = (orderId: string) => signOrderToken(ORDERS_TOKEN, orderId, new Date(Date.now() + 3_600_000));

describe('SIGTERM on the built server', () => {
  let served: Awaited<ReturnType<typeof serve>>;
  let exitCode: number | null;

  it('drains: not ready at once, the slow create answered, the streams told to retry, the lease handed back, exit 0', async () => {
    served = await serve({
      MERCHANT_WEBHOOK_URL: `${merchant.url}/hooks`,
      MERCHANT_WEBHOOK_SECRET: MERCHANT_SECRET,
      SHUTDOWN_TIMEOUT_MS: '8000',
    });
    const json = jsonClient(served.url);
    const paid = await json('POST', '/api/checkouts', { orderId: 'P-1', orderToken: tokenFor('P-1'), method: 'pix' });
    expect(paid.status).toBe(201);
    await provider.provider.sandbox.pix.complete(paid.body.transactionId, { name: 'Maria Pagadora', taxNumber: '52998224725' });
    // The merchant's webhook is in flight, its lease held, its receiver silent.
    await until('the merchant webhook in flight', () => (held.length > 0 ? true : undefined));

    // Two streams of a checkout still waiting for its payer (a paid one's stream ends after its last event).
    const waiting = await json('POST', '/api/checkouts', { orderId: 'P-2', orderToken: tokenFor('P-2'), method: 'pix' });
    const streams = await Promise.all([1, 2].map(() => openSse(`${served.url}/api/checkouts/${waiting.body.id}/events`)));
    for (const stream of streams) await stream.next();
    const slow = json('POST', '/api/checkouts', { orderId: 'SLOW-1', orderToken: tokenFor('SLOW-1'), method: 'pix' });
    await until('the slow lookup at the order source', () => (orders.requests.some((r) => r.url === '/orders/SLOW-1') ? true : undefined));

    served.child.kill('SIGTERM');
    // A load balancer's probe now: refused (the listener no longer accepts) or 503, never ready.
    await until('the drain to begin', () => (served.lines().some((line) => line.includes('SIGTERM: draining')) ? true : undefined));
    const probe = await fetch(`${served.url}/readyz`).then(
      (answer) => answer.status,
      () => 'refused' as const,
    );
    expect([503, 'refused']).toContain(probe);

    expect(await slow).toMatchObject({ status: 201, body: { orderId: 'SLOW-1', state: 'Registered', amount: '25.00' } });
    for (const stream of streams) {
      let hint;
      do hint = await stream.next(5_000);
      while (hint && hint.retry === undefined);
      expect(hint?.retry).toBeGreaterThanOrEqual(1_000);
      expect(await stream.ended(5_000)).toBe(true);
    }
    exitCode = await served.exited;
    expect(exitCode, served.stderr()).toBe(0);

    const db = new Database(join(served.dataDir, 'checkout.sqlite'), { readonly: true });
    try {
      const deliveries = db.prepare('SELECT state, attempts, lease_owner FROM webhook_deliveries').all();
      expect(deliveries).toEqual([{ state: 'pending', attempts: 0, lease_owner: null }]);
    } finally {
      db.close();
    }
  }, 60_000);

  it('wrote every line as JSON with time, level, msg and a request or job id, the start and the stop among them', () => {
    const lines = served.lines().map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const line of lines) {
      expect(line).toMatchObject({ time: expect.any(String), level: expect.any(String), msg: expect.any(String) });
      expect(typeof line.reqId === 'string' || typeof line.job === 'string', JSON.stringify(line)).toBe(true);
    }
    expect(lines.map((line) => line.msg)).toEqual(
      expect.arrayContaining([expect.stringMatching(/listening on/), 'SIGTERM: draining', 'stopped']),
    );
    expect(lines.some((line) => line.path === '/api/checkouts' && line.status === 201 && line.orderId === 'SLOW-1')).toBe(true);
  });
});

describe('the log settings of npm run serve', () => {
  it('writes text for people with LOG_FORMAT=pretty, and only warnings and up with LOG_LEVEL=warn', async () => {
    const pretty = await serve({ LOG_FORMAT: 'pretty' });
    expect((await fetch(`${pretty.url}/healthz`)).status).toBe(200);
    pretty.child.kill('SIGTERM');
    expect(await pretty.exited).toBe(0);
    const text = pretty.lines();
    expect(text.some((line) => /INFO.*listening on/.test(line))).toBe(true);
    expect(text.some((line) => line.startsWith('{'))).toBe(false);

    // A provider that does not answer: the create fails, and its cause is a warning, the one line this run must keep.
    const quiet = await serve({ LOG_LEVEL: 'warn', PROVIDER_BASE_URL: 'http://127.0.0.1:9/sandbox/v1' });
    expect((await fetch(`${quiet.url}/healthz`)).status).toBe(200);
    const failed = await jsonClient(quiet.url)('POST', '/api/checkouts', { orderId: 'P-9', orderToken: tokenFor('P-9'), method: 'pix' });
    expect(failed.status).toBeGreaterThanOrEqual(500);
    quiet.child.kill('SIGTERM');
    expect(await quiet.exited).toBe(0);
    const lines = quiet.lines().map((line) => JSON.parse(line) as { level: string; msg: string });
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((line) => ['warn', 'error', 'fatal'].includes(line.level))).toBe(true);
    // The start line and the request lines are info: gone at this level.
    expect(lines.some((line) => /listening on|POST \/api\/checkouts/.test(line.msg))).toBe(false);
  }, 60_000);
});
