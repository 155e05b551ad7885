/**
 * `npm start` with a real provider configured: nothing of the demo or the emulator is reachable, no demo user is
 * made, and the product's console is served at /admin all the same.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS_FILE } from '../../demo/demo-users';
import { CONSOLE_CSP } from '../../server/console';
import { startTestServer, type TestServer } from './helpers/server';

describe('the demo entry with PROVIDER_BASE_URL set', () => {
  let provider: TestServer;
  let server: TestServer;
  beforeAll(async () => {
    provider = await startTestServer();
    server = await startTestServer({
      env: {
        PROVIDER_BASE_URL: `${provider.url}/sandbox/v1`,
        PROVIDER_ACCESS_KEY: 'sandbox-access-key',
        PROVIDER_SECRET: 'sandbox-secret',
        ORDERS_URL: `${provider.url}/demo/api/priced-orders`,
        ORDERS_TOKEN: provider.ordersToken!,
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await provider?.close();
  });

  it('answers 404 on /demo/api/* and /sandbox/*, and still serves the BFF', async () => {
    expect(server.sandbox).toBeUndefined();
    const paths = [
      ['GET', '/demo/api/webhooks'],
      ['GET', '/demo/api/products'],
      ['POST', '/demo/api/orders'],
      ['POST', '/demo/api/sandbox/pix/complete/tx-1'],
      ['GET', '/demo/api/priced-orders/A-1'],
      ['POST', '/sandbox/v1/partners-int/login'],
      ['GET', '/sandbox/admin/company-webhook'],
      ['GET', '/sandbox/v1/system/checkout/tx-1'],
      ['GET', '/sandbox-portal.html'],
      ['GET', '/assets/sandbox-portal.js'],
      ['GET', '/demo/api/sandbox-admin/company-webhook'],
      ['POST', '/demo/api/sandbox-admin/cashouts/tx-1/complete'],
      ['GET', '/backoffice.html'],
    ] as const;
    for (const [method, path] of paths) expect((await server.json(method, path)).status, `${method} ${path}`).toBe(404);
    expect((await server.json('GET', '/healthz')).body).toEqual({ status: 'ok', provider: 'remote' });
    // Orders still price through the order contract (here the provider-side demo answers it).
    const { orderId, orderToken } = await provider.order();
    const created = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    expect(created).toMatchObject({ status: 201, body: { orderId, amount: '79.80' } });
  });

  it('serves the console at /admin (its page, or the 503 that says to build it) under its own CSP', async () => {
    const page = await fetch(`${server.url}/admin`);
    expect([200, 503]).toContain(page.status);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    expect(await page.text()).toContain(page.status === 200 ? '<bo-app>' : 'npm run build');
  });

  it('makes no demo user', async () => {
    expect(server.demoUsers).toBeUndefined();
    expect(await server.store.countUsers()).toBe(0);
    expect(existsSync(join(server.dataDir, DEMO_USERS_FILE))).toBe(false);
  });
});
