/**
 * What a demo reachable by anyone shows and refuses: its webhook log (`GET /demo/api/webhooks`) names no payer (no
 * name, no full CPF, no bank account); a write from another site (a form posted by a foreign page) is refused on the
 * demo API and the emulator, while the demo's own pages (same origin) still work; and a JSON body for the demo API or
 * the emulator must arrive within BODY_TIMEOUT_MS, as for the BFF, not within the whole request's minute.
 */
import Database from 'better-sqlite3';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server';

const ADMIN_TOKEN = 'admin-token-for-demo-exposure-0123456';
const CPF = '52998224725';
const PAYER = { name: 'Joana Pagadora de Teste', taxNumber: CPF };

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { ADMIN_TOKEN, BODY_TIMEOUT_MS: '400', REQUEST_TIMEOUT_MS: '3000' } });
});
afterAll(() => server?.close());

async function pixCheckout() {
  const order = await server.order();
  const created = await server.json('POST', '/api/checkouts', { ...order, method: 'pix' });
  expect(created.status).toBe(201);
  return { id: created.body.id as string, transactionId: created.body.transactionId as string };
}

const stateOf = async (id: string) => (await server.store.getCheckout(id))!.state;

describe('the demo webhook log', () => {
  it("shows no payer's name, CPF or bank account", async () => {
    const checkout = await pixCheckout();
    await server.provider.sandbox.pix.complete(checkout.transactionId, PAYER);
    const log = async () => (await server.json('GET', '/demo/api/webhooks')).body.items as { transactionId: string; payload: any }[];
    await vi.waitFor(async () => expect((await log()).some((e) => e.transactionId === checkout.transactionId)).toBe(true));
    const entry = (await log()).find((e) => e.transactionId === checkout.transactionId)!;
    // What the panel needs is still there, and the CPF shows as banks show it.
    expect(entry.payload).toMatchObject({
      id: checkout.transactionId,
      transactionState: 'Completed',
      payer: { taxNumber: '***.982.247-**' },
    });
    const text = JSON.stringify(entry);
    for (const secret of [CPF, '529.982.247-25', PAYER.name, 'Joana', 'accountNumber', 'accountAgency', 'accountDigit', 'e-receipt']) {
      expect(text, secret).not.toContain(secret);
    }
    expect(entry.payload.payer).toEqual({ taxNumber: '***.982.247-**' });
    expect(entry.payload.recipient).toEqual({ taxNumber: '***' });
  });

  it('masks an entry written before the log was redacted, when it is read', async () => {
    const raw = new Database(join(server.dataDir, 'demo.sqlite'));
    const payload = {
      id: 'tx-old',
      transactionState: 'Completed',
      transactionAmount: '1.00',
      payer: { ...PAYER, accountNumber: '12345-6' },
    };
    raw
      .prepare(`INSERT INTO demo_webhook_log (received_at, transaction_id, checkout_id, state, outcome, payload) VALUES (?, ?, ?, ?, ?, ?)`)
      .run(new Date().toISOString(), 'tx-old', null, 'Completed', 'ignored', JSON.stringify(payload));
    raw.close();
    const items = (await server.json('GET', '/demo/api/webhooks')).body.items as { transactionId: string; payload: unknown }[];
    const old = items.find((e) => e.transactionId === 'tx-old')!;
    expect(old.payload).toEqual({
      id: 'tx-old',
      transactionState: 'Completed',
      transactionAmount: '1.00',
      payer: { taxNumber: '***.982.247-**' },
    });
  });
});

describe('writes from another site', () => {
  const form = (origin: string, extra: Record<string, string> = {}) => ({
    'content-type': 'application/x-www-form-urlencoded',
    origin,
    ...extra,
  });

  it('are refused on the demo API: a form posted by a foreign page cancels nothing', async () => {
    const checkout = await pixCheckout();
    const cancel = `/demo/api/sandbox/pix/cancel/${encodeURIComponent(checkout.transactionId)}`;
    const refusals: Record<string, string>[] = [
      form('https://evil.example'),
      form('https://evil.example', { 'sec-fetch-site': 'cross-site' }),
      form('null'),
      { 'content-type': 'text/plain', 'sec-fetch-site': 'cross-site' },
      { 'content-type': 'text/plain', 'sec-fetch-site': 'same-site', origin: 'https://other.example' },
      // A foreign page whose Origin copies ours cannot also forge Sec-Fetch-Site: the browser sets it.
      form(server.url, { 'sec-fetch-site': 'cross-site' }),
    ];
    for (const headers of refusals) {
      const res = await server.json('POST', cancel, 'x=1', headers);
      expect({ headers, status: res.status, code: res.body?.error?.code }).toEqual({ headers, status: 403, code: 'cross_site_refused' });
    }
    expect(await stateOf(checkout.id)).toBe('Registered');
    const order = await server.json('POST', '/demo/api/orders', 'items=1', form('https://evil.example'));
    expect(order.status).toBe(403);
    const proxied = await server.json('DELETE', '/demo/api/sandbox-admin/company-webhook', undefined, {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      origin: 'https://evil.example',
    });
    expect(proxied.status).toBe(403);
  });

  it("are refused on the emulator's bank page too", async () => {
    const res = await server.json('POST', '/sandbox/v1/system/checkout/init/x/y', 'decision=approve', form('https://evil.example'));
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('cross_site_refused');
  });

  it("still work from the demo's own pages (same origin) and from scripts that send no Origin", async () => {
    const checkout = await pixCheckout();
    const cancel = `/demo/api/sandbox/pix/cancel/${encodeURIComponent(checkout.transactionId)}`;
    // What a browser sends with the sandbox panel's fetch.
    const res = await server.json('POST', cancel, undefined, { origin: server.url, 'sec-fetch-site': 'same-origin' });
    expect(res.status).toBe(200);
    await vi.waitFor(async () => expect(await stateOf(checkout.id)).toBe('Cancelled'));
    // An older browser without Sec-Fetch-Site, on the same origin: its Origin is ours.
    expect(
      (await server.json('POST', '/demo/api/orders', { items: [{ sku: 'cafe-especial', quantity: 1 }] }, { origin: server.url })).status,
    ).toBe(201);
    // The same origin spelt another loopback way (the shop opened at localhost).
    const localhost = server.url.replace('127.0.0.1', 'localhost');
    expect(
      (await server.json('POST', '/demo/api/orders', { items: [{ sku: 'cafe-especial', quantity: 1 }] }, { origin: localhost })).status,
    ).toBe(201);
    // Reading is never refused.
    expect(
      (await server.json('GET', '/demo/api/products', undefined, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }))
        .status,
    ).toBe(200);
  });
});

/** A call to the demo's own socket with the `Host` header a browser would send for a page at `host`. */
function asHost(host: string, method: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; code: string | undefined }>((resolve, reject) => {
    const req = request(`${server.url}${path}`, { method, headers: { ...headers, host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, code: (JSON.parse(body) as { error?: { code?: string } }).error?.code }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a page on another name pointed at the demo (DNS rebinding)', () => {
  it('is refused on the demo API and the emulator, reads too, though its Origin and Sec-Fetch-Site vouch for it', async () => {
    const checkout = await pixCheckout();
    const { port } = new URL(server.url);
    const rebound = `rebound.example:${port}`;
    // What a browser sends from a page at http://rebound.example:<port>, whose name now resolves to the demo.
    const vouched = { origin: `http://${rebound}`, 'sec-fetch-site': 'same-origin' };
    const cancel = `/demo/api/sandbox/pix/cancel/${encodeURIComponent(checkout.transactionId)}`;
    for (const [method, path] of [
      ['POST', cancel],
      ['GET', '/demo/api/webhooks'],
      ['GET', `/sandbox/v1/system/e-receipt/${encodeURIComponent(checkout.transactionId)}/receipt.pdf`],
    ] as const) {
      expect({ method, path, ...(await asHost(rebound, method, path, vouched)) }).toEqual({
        method,
        path,
        status: 403,
        code: 'host_not_allowed',
      });
    }
    expect(await stateOf(checkout.id)).toBe('Registered');
    // The demo's own names pass, on any port (a container's mapped one).
    expect((await asHost('localhost:8080', 'GET', '/demo/api/products')).status).toBe(200);
    expect((await asHost(`127.0.0.1:${port}`, 'POST', cancel, { origin: server.url, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
  });
});

interface RawAnswer {
  status: number;
  body: string;
  closed: boolean;
}

/** Writes `request` (possibly incomplete) on a fresh connection and reads the answer until the server closes. */
function rawRequest(request: string, waitMs: number): Promise<RawAnswer> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let data = '';
    let closed = false;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const split = data.indexOf('\r\n\r\n');
      if (split < 0) return reject(new Error(`no answer (closed: ${closed})`));
      resolve({ status: Number(data.split(' ')[1]), body: data.slice(split + 4), closed });
    };
    const timer = setTimeout(finish, waitMs);
    socket.on('data', (chunk) => (data += chunk.toString('utf8')));
    socket.on('close', () => ((closed = true), finish()));
    socket.on('error', () => undefined);
    socket.on('connect', () => socket.write(request));
  });
}

describe('a slow JSON body', () => {
  const slow = (path: string) =>
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":`;
  const trickle = (path: string) =>
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{\r\n`;

  it.each([
    ['the demo API', '/demo/api/orders', 'body_timeout'],
    ['the emulator', '/sandbox/v1/partners-int/login', 'RequestTimeoutError'],
  ])('gets BODY_TIMEOUT_MS on %s, then 408 and the connection closed', async (_, path, code) => {
    for (const request of [slow(path), trickle(path)]) {
      const started = Date.now();
      const answer = await rawRequest(request, 5_000);
      const elapsed = Date.now() - started;
      expect({ status: answer.status, closed: answer.closed }).toEqual({ status: 408, closed: true });
      expect(JSON.parse(answer.body.replace(/^[0-9a-f]+\r\n/, '').replace(/\r\n0\r\n\r\n$/, ''))).toMatchObject({
        statusCode: 'Error',
        error: { code },
      });
      // Well before REQUEST_TIMEOUT_MS (3 s), which used to be the only bound.
      expect(elapsed).toBeLessThan(2_000);
    }
  });
});

describe("the demo's pages", () => {
  it('answer GET and HEAD with the file, and any other method at once with a 404 envelope (an OPTIONS once hung)', async () => {
    for (const path of ['/', '/checkout.html']) {
      const page = await fetch(`${server.url}${path}`);
      expect(page.status, path).toBe(200);
      await page.body?.cancel();
      expect((await fetch(`${server.url}${path}`, { method: 'HEAD' })).status, path).toBe(200);
      for (const method of ['OPTIONS', 'POST', 'DELETE']) {
        const answer = await fetch(`${server.url}${path}`, { method, signal: AbortSignal.timeout(2_000) });
        expect([answer.status, (await answer.json()).error.code], `${method} ${path}`).toEqual([404, 'not_found']);
      }
    }
  });
});
