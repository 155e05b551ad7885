/**
 * The standalone BFF (`npm run serve`) as a real process: a real provider (here the emulator of a demo process, as a
 * merchant's provider would be), orders from a stub order service over HTTP, and nothing of the demo or emulator of
 * its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signOrderToken } from '../../server/bff/order-token';
import { CONSOLE_CSP } from '../../server/console';
import { freePort, sendJson, startRecordingServer } from './helpers/http';
import { ensureServerBuild } from './helpers/server-build';
import { jsonClient, startTestServer, tempDir, type TestServer } from './helpers/server';
import { openSse } from './helpers/sse';

const ORDERS_TOKEN = 'orders-token-for-the-serve-test';
/** What the merchant's backend gives the page for an order: signed with ORDERS_TOKEN, valid for an hour. */
const orderToken = (orderId: string) => signOrderToken(ORDERS_TOKEN, orderId, new Date(Date.now() + 3_600_000));

/** The console is built by `npm run build` (npm test and test:e2e build it; test:server alone may run without). */
const consoleBuilt = existsSync(fileURLToPath(new URL('../../dist/console/manifest.json', import.meta.url)));

/**
 * Runs `npm run serve` (the server's build, dist/server: built first when missing or stale) with `env`; resolves with
 * its output and exit code once it exits. The element and the console are served from dist/ as `npm test` built them.
 */
function serve(env: Record<string, string>) {
  const child = spawn('npm', ['run', '--silent', '--ignore-scripts', 'serve'], {
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

function stop(child: ChildProcess) {
  // npm starts a shell and node; the whole group goes.
  if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
}

describe('npm run serve', () => {
  beforeAll(ensureServerBuild, 60_000);

  it('refuses to start without a provider and an order source, saying what to set', async () => {
    const run = serve({ PORT: '0', DATA_DIR: tempDir(), PROVIDER_BASE_URL: '', ORDERS_URL: '' });
    expect(await run.exited).toBe(1);
    expect(run.output()).toMatch(/PROVIDER_BASE_URL.*ORDERS_URL/s);
  });

  describe('with a provider and ORDERS_URL', () => {
    let provider: TestServer;
    let orders: Awaited<ReturnType<typeof startRecordingServer>>;
    let bff: ReturnType<typeof serve>;
    let url: string;

    beforeAll(async () => {
      provider = await startTestServer();
      orders = await startRecordingServer((req, res) => {
        if (req.headers.authorization !== `Bearer ${ORDERS_TOKEN}`) return sendJson(res, 401, { error: 'no' });
        if (req.url === '/orders/A-100') return sendJson(res, 200, { amountCents: 7_980, description: 'Pedido A-100', extra: 'ignored' });
        if (req.url === '/orders/BROKEN') return sendJson(res, 500, { error: 'database down' });
        sendJson(res, 404, { error: 'not found' });
      });
      const port = await freePort();
      url = `http://127.0.0.1:${port}`;
      bff = serve({
        PORT: String(port),
        DATA_DIR: tempDir(),
        PROVIDER_BASE_URL: `${provider.url}/sandbox/v1`,
        PROVIDER_ACCESS_KEY: 'sandbox-access-key',
        PROVIDER_SECRET: 'sandbox-secret',
        ORDERS_URL: `${orders.url}/orders`,
        ORDERS_TOKEN,
        DATABASE_URL: '',
      });
      const deadline = Date.now() + 30_000;
      // The last of the start lines: the others may arrive in earlier chunks, this one marks the whole banner.
      while (!/console\s+http:\/\/\S+\/admin"/.test(bff.output())) {
        if (bff.child.exitCode !== null || Date.now() > deadline) throw new Error(`serve did not start:\n${bff.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }, 40_000);
    afterAll(async () => {
      if (bff) {
        stop(bff.child);
        await bff.exited;
      }
      await orders?.close();
      await provider?.close();
    });

    it('says, on a first start with no console user, how to add one, and where the console is', () => {
      expect(bff.output()).toContain('No console user yet: add the first owner with `npm run admin -- user add');
      expect(bff.output()).toMatch(/console\s+http:\/\/\S+\/admin/);
    });

    it('completes a PIX checkout end to end, priced by the order service', async () => {
      const json = jsonClient(url);
      const created = await json('POST', '/api/checkouts', { orderId: 'A-100', orderToken: orderToken('A-100'), method: 'pix' });
      expect(created).toMatchObject({
        status: 201,
        body: { orderId: 'A-100', amount: '79.80', description: 'Pedido A-100', state: 'Registered' },
      });
      expect(created.body.qrCode).toMatch(/^000201/);
      expect(orders.requests.at(-1)).toMatchObject({ method: 'GET', url: '/orders/A-100' });

      const stream = await openSse(`${url}/api/checkouts/${created.body.id}/events`);
      const first = await stream.next();
      const initial = first?.retry !== undefined ? await stream.next() : first;
      expect(JSON.parse(initial!.data)).toMatchObject({ state: 'Registered' });

      await provider.provider.sandbox.pix.complete(created.body.transactionId, { name: 'Maria Pagadora', taxNumber: '52998224725' });
      const completed = await stream.next(10_000);
      expect(JSON.parse(completed!.data)).toMatchObject({ state: 'Completed' });
      stream.close();
      expect((await json('GET', `/api/checkouts/${created.body.id}`)).body.state).toBe('Completed');
    });

    it('maps the order service answers to clear errors', async () => {
      const json = jsonClient(url);
      expect(await json('POST', '/api/checkouts', { orderId: 'NOPE', orderToken: orderToken('NOPE'), method: 'pix' })).toMatchObject({
        status: 404,
        body: { statusCode: 'Error', error: { code: 'order_not_found' } },
      });
      const broken = await json('POST', '/api/checkouts', { orderId: 'BROKEN', orderToken: orderToken('BROKEN'), method: 'pix' });
      expect(broken).toMatchObject({ status: 502, body: { statusCode: 'Error', error: { code: 'orders_unavailable' } } });
      expect(broken.text).not.toContain('database down');
    });

    it('mounts nothing of the demo or the emulator', async () => {
      const json = jsonClient(url);
      expect((await json('GET', '/healthz')).body).toEqual({ status: 'ok', provider: 'remote' });
      for (const path of [
        '/demo/api/webhooks',
        '/demo/api/products',
        '/sandbox/v1/partners-int/login',
        '/sandbox/admin/company-webhook',
        '/',
        '/backoffice.html',
        '/sandbox-portal.html',
        '/assets/sandbox-portal.js',
        '/demo/api/sandbox-admin/company-webhook',
      ]) {
        expect((await json('GET', path)).status, path).toBe(404);
      }
      expect((await json('POST', '/demo/api/sandbox/pix/complete/tx-1')).status).toBe(404);
    });

    it.skipIf(!consoleBuilt)('serves the console at /admin under its own CSP, its script from our origin with its SRI hash', async () => {
      const page = await fetch(`${url}/admin`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
      expect(page.headers.get('cache-control')).toBe('no-store');
      const html = await page.text();
      const script = /<script type="module" src="(\/admin\/assets\/console\.[0-9a-f]{16}\.js)" integrity="sha384-[\w+/=]+"><\/script>/.exec(
        html,
      );
      expect(script, html).not.toBeNull();
      // No inline script: every script tag is that one, empty.
      expect(html.match(/<script\b/g)).toHaveLength(1);
      const asset = await fetch(url + script![1]!);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toMatch(/^text\/javascript/);
      // Nothing of the demo's: its portal's proxy is not there.
      expect((await fetch(`${url}/demo/api/sandbox-admin`)).status).toBe(404);
    });
  });
});
