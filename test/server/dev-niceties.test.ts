/**
 * Development niceties: `localhost` and `127.0.0.1` are one storefront when ALLOWED_ORIGINS is unset, a taken port
 * is one line naming PORT (and exit 1) for both entries, and every request and webhook is one log line.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { webhookLine } from '../../server/bff/webhook-receiver';
import { loadConfig } from '../../server/config';
import { defaultAllowedOrigins } from '../../server/http/origins';
import { loggedPath } from '../../server/http/request-log';
import { listen } from '../../server/server';
import { quietLog, startTestServer, tempDir, type TestServer } from './helpers/server';
import { ensureServerBuild } from './helpers/server-build';

describe('default storefront origins (ALLOWED_ORIGINS unset)', () => {
  it('are both loopback spellings of the public address, on its scheme and port, its own first', () => {
    expect(defaultAllowedOrigins('http://127.0.0.1:3000')).toEqual(['http://127.0.0.1:3000', 'http://localhost:3000']);
    expect(defaultAllowedOrigins('http://localhost:8080/base')).toEqual(['http://localhost:8080', 'http://127.0.0.1:8080']);
    expect(defaultAllowedOrigins('https://localhost')).toEqual(['https://localhost', 'https://127.0.0.1']);
  });

  it('are the public origin alone anywhere else', () => {
    expect(defaultAllowedOrigins('https://pay.shop.example')).toEqual(['https://pay.shop.example']);
    expect(defaultAllowedOrigins('http://10.0.0.5:3000')).toEqual(['http://10.0.0.5:3000']);
  });

  describe('on a running server', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer();
    });
    afterAll(() => server.close());

    const preflight = (origin: string) =>
      fetch(`${server.url}/api/checkouts`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });

    it('lets a page on http://localhost:<port> create checkouts, as one on 127.0.0.1 does, and not another port', async () => {
      const port = new URL(server.url).port;
      for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`]) {
        expect((await preflight(origin)).headers.get('access-control-allow-origin'), origin).toBe(origin);
      }
      const otherPort = `http://localhost:${Number(port) === 65535 ? 1 : Number(port) + 1}`;
      expect((await preflight(otherPort)).headers.get('access-control-allow-origin')).toBeNull();
      expect(server.allowedOrigins).toEqual([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
    });

    it('takes ALLOWED_ORIGINS as given when it is set', async () => {
      const listener = await listen(loadConfig({ PORT: '0', DATA_DIR: tempDir(), ALLOWED_ORIGINS: 'https://shop.example' }), quietLog);
      try {
        expect(listener.allowedOrigins).toEqual(['https://shop.example']);
      } finally {
        await listener.close();
      }
    });
  });
});

describe('a taken port', () => {
  let taken: Server;
  let port: number;
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    port = (taken.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

  const message = () => `Port ${port} is in use: set PORT to another port.`;

  it('makes listen fail with one line naming PORT', async () => {
    await expect(listen(loadConfig({ PORT: String(port), DATA_DIR: tempDir() }), quietLog)).rejects.toThrow(message());
  });

  /** Runs a command with PORT set to the taken port; resolves with its exit code and everything it printed. */
  function run(command: string, args: string[], env: Record<string, string> = {}) {
    const child = spawn(command, args, {
      env: { ...process.env, PORT: String(port), DATA_DIR: tempDir(), PROVIDER_BASE_URL: '', ORDERS_URL: '', DATABASE_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    return new Promise<{ code: number | null; output: string }>((resolve) => child.on('exit', (code) => resolve({ code, output })));
  }

  it('stops `npm run serve` with that line and exit code 1', async () => {
    // The server's build (dist/server), made first when missing or stale: its start prints the port's line alone.
    ensureServerBuild();
    const { code, output } = await run('npm', ['run', '--silent', '--ignore-scripts', 'serve'], {
      PROVIDER_BASE_URL: 'http://127.0.0.1:9/v1',
      PROVIDER_ACCESS_KEY: 'k',
      PROVIDER_SECRET: 's',
      ORDERS_URL: 'http://127.0.0.1:9/orders',
      ORDERS_TOKEN: 'orders-token-of-the-port-test',
    });
    expect(code).toBe(1);
    // `npm run serve` logs JSON lines: the one line, at level error.
    const lines = output.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'error', msg: message() });
  }, 30_000);

  it('stops the demo (`npm start` after its build) with that line and exit code 1', async () => {
    // `npm start` is `npm run build` (prestart), then this.
    const { code, output } = await run(process.execPath, ['--import', 'tsx', 'demo/main.ts']);
    expect(code).toBe(1);
    expect(output.trim().split('\n')).toEqual([message()]);
  }, 30_000);
});

describe('request log', () => {
  let server: TestServer;
  /** Each line as the log got it: its message, and its fields when it has them. */
  const lines: { msg: string; fields: Record<string, unknown> }[] = [];
  const keep = (first: unknown, msg?: unknown) =>
    lines.push(typeof first === 'string' ? { msg: first, fields: {} } : { msg: String(msg), fields: first as Record<string, unknown> });
  beforeAll(async () => {
    server = await startTestServer({ start: { log: { ...quietLog, log: keep } } });
  });
  afterAll(() => server.close());

  const lineFor = (pattern: RegExp) => expect.poll(() => lines.find((line) => pattern.test(line.msg)), { timeout: 10_000 });

  it('writes one line per request: method, path, status and time, never the query string', async () => {
    await fetch(`${server.url}/healthz`);
    await fetch(`${server.url}/demo/api/webhooks?after=0&token=secret-in-a-query`);
    await fetch(`${server.url}/api/checkouts/co_nope`);
    await lineFor(/^GET \/healthz 200$/).toBeDefined();
    await lineFor(/^GET \/demo\/api\/webhooks\?… 200$/).toBeDefined();
    await lineFor(/^GET \/api\/checkouts\/co_nope 404$/).toBeDefined();
    expect(lines.find((line) => line.msg === 'GET /api/checkouts/co_nope 404')?.fields).toEqual({
      method: 'GET',
      path: '/api/checkouts/co_nope',
      status: 404,
      ms: expect.any(Number),
    });
    expect(JSON.stringify(lines)).not.toContain('secret-in-a-query');
  });

  it('writes one line per webhook with its outcome and ids, besides the request line', async () => {
    const { orderId, orderToken } = await server.order();
    const created = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    expect(created.status).toBe(201);
    await lineFor(/^POST \/api\/checkouts 201$/).toBeDefined();
    await server.provider.sandbox.pix.complete(created.body.transactionId, { name: 'Maria Pagadora', taxNumber: '52998224725' });
    await lineFor(new RegExp(`^webhook ${created.body.transactionId} Completed: applied to ${created.body.id}$`)).toBeDefined();
    const webhook = lines.find((line) => line.msg.startsWith(`webhook ${created.body.transactionId}`));
    expect(webhook?.fields).toMatchObject({ transactionId: created.body.transactionId, checkoutId: created.body.id, outcome: 'applied' });
    await lineFor(/^POST \/api\/webhooks\/provider 200$/).toBeDefined();
    expect(JSON.stringify(lines)).not.toContain('52998224725');
  });
});

describe('request log in tests', () => {
  it('stays quiet: the test helpers start servers with a quiet log, and the log goes only there', async () => {
    const spies = (['log', 'info', 'warn', 'error'] as const).map((method) => vi.spyOn(console, method));
    const server = await startTestServer();
    try {
      await fetch(`${server.url}/healthz`);
      await fetch(`${server.url}/api/checkouts/co_nope`);
    } finally {
      await server.close();
    }
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    for (const spy of spies) spy.mockRestore();
  });
});

describe('loggedPath and webhookLine', () => {
  it('keep the path and drop the query', () => {
    expect(loggedPath('http://h/api/checkouts/co_1/events')).toBe('/api/checkouts/co_1/events');
    expect(loggedPath('http://h/a?token=x')).toBe('/a?…');
  });

  it('say what a webhook did, or that it matched nothing', () => {
    const receipt = {
      receivedAt: '',
      transactionId: 'tx_1',
      checkoutId: 'co_1',
      state: 'Completed',
      outcome: 'applied' as const,
      payload: {},
    };
    expect(webhookLine(receipt)).toBe('webhook tx_1 Completed: applied to co_1');
    expect(webhookLine({ ...receipt, transactionId: null, checkoutId: null, state: null, outcome: 'invalid' })).toBe(
      'webhook - -: invalid',
    );
  });
});
