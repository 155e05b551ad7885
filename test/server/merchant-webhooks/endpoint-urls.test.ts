/**
 * What the back office lets a webhook endpoint be, and what it tells of one. The standalone BFF (`npm run serve`, a
 * real provider) refuses every endpoint URL that is not https to a public address, with 400
 * `webhook_endpoint_url_not_allowed`, before any connection (a listener on the loopback address the URLs name counts
 * none). On the emulator (`npm start`) a receiver on the loopback address is taken; a failed test event or attempt
 * says "no answer", never what the socket said; and a viewer sees each endpoint's host, never its path.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../../server/lib/clock';
import { SANDBOX_ACCESS_KEY, SANDBOX_SECRET } from '../../../server/sandbox/defaults';
import { consoleClient } from '../backoffice/auth-helpers';
import { startRecordingServer } from '../helpers/http';
import { startSandbox } from '../helpers/sandbox';
import { startTestBff, startTestServer, type TestServer } from '../helpers/server';

const TOKEN = 'admin-token-for-the-endpoint-urls-0123';
const auth = { authorization: `Bearer ${TOKEN}` };
const secret = () => randomBytes(24).toString('base64url');

/** A TCP listener on 127.0.0.1 that counts connections, and drops each one at once (a "socket hang up"). */
async function countingListener() {
  let connections = 0;
  const server = createServer((socket: Socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { port, connections: () => connections, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('endpoint URLs under the standalone BFF (npm run serve)', () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let bff: Awaited<ReturnType<typeof startTestBff>>;
  let listener: Awaited<ReturnType<typeof countingListener>>;
  beforeAll(async () => {
    sandbox = await startSandbox();
    listener = await countingListener();
    bff = await startTestBff({
      env: {
        PROVIDER_BASE_URL: `${sandbox.url}/sandbox/v1`,
        PROVIDER_ACCESS_KEY: SANDBOX_ACCESS_KEY,
        PROVIDER_SECRET: SANDBOX_SECRET,
        WEBHOOK_SECRET: secret(),
        ADMIN_TOKEN: TOKEN,
      },
    });
  });
  afterAll(async () => {
    await bff?.close();
    await listener?.close();
    await sandbox?.close();
  });

  it('refuses loopback, private, link-local and metadata addresses and plain http, with the envelope, connecting nowhere', async () => {
    const port = listener.port;
    for (const url of [
      'http://127.1',
      'http://0x7f000001',
      'http://[::1]',
      'http://10.0.0.1',
      'http://169.254.169.254',
      `http://127.0.0.1:${port}/hooks`,
      `https://127.1:${port}/hooks`,
      `https://2130706433:${port}/hooks`,
      `https://[::ffff:7f00:1]:${port}/hooks`,
      `https://localhost:${port}/hooks`,
      'https://127.0.0.1:5432/',
      'https://192.168.0.10/hooks',
      'https://[fd00::1]/hooks',
      'http://hooks.example.com/in',
    ]) {
      const answer = await bff.json('POST', '/api/admin/webhook-endpoints', { url }, auth);
      expect(answer.status, url).toBe(400);
      expect(answer.body, url).toMatchObject({ statusCode: 'Error', error: { code: 'webhook_endpoint_url_not_allowed' } });
    }
    expect(listener.connections()).toBe(0);
    const listed = await bff.json('GET', '/api/admin/webhook-endpoints', undefined, auth);
    expect(listed.body.items).toEqual([]);
  });

  it('takes one on the loopback address when the BFF is told to (tests of a receiver on this machine)', async () => {
    const told = await startTestBff({
      env: {
        PROVIDER_BASE_URL: `${sandbox.url}/sandbox/v1`,
        PROVIDER_ACCESS_KEY: SANDBOX_ACCESS_KEY,
        PROVIDER_SECRET: SANDBOX_SECRET,
        ADMIN_TOKEN: TOKEN,
      },
      start: { endpointAddresses: { loopback: true } },
    });
    try {
      const answer = await told.json('POST', '/api/admin/webhook-endpoints', { url: `http://127.0.0.1:${listener.port}/hooks` }, auth);
      expect(answer.status).toBe(201);
    } finally {
      await told.close();
    }
  });
});

describe('endpoints on the emulator (npm start)', () => {
  let server: TestServer;
  let client: ReturnType<typeof consoleClient>;
  const admin = (method: string, path: string, body?: unknown) => server.json(method, `/api/admin${path}`, body, auth);
  beforeAll(async () => {
    server = await startTestServer({
      env: { ADMIN_TOKEN: TOKEN, TRUST_PROXY: '1' },
      start: { tuning: { merchantWebhookRetryDelaysMs: [60_000] } },
    });
    client = consoleClient(server, systemClock);
  });
  afterAll(() => server?.close());

  it('answers a failed test event and attempt with "no answer", the same for a refused port and a hang-up', async () => {
    const hangUp = await countingListener();
    const closed = await countingListener();
    await closed.close();
    try {
      const reasons: unknown[] = [];
      for (const port of [hangUp.port, closed.port]) {
        const { id } = (await admin('POST', '/webhook-endpoints', { url: `http://127.0.0.1:${port}/hooks` })).body as { id: string };
        const tested = await admin('POST', `/webhook-endpoints/${id}/test`);
        expect(tested.status).toBe(200);
        reasons.push({ delivered: tested.body.delivered, status: tested.body.status, error: tested.body.error });
      }
      expect(reasons).toEqual([
        { delivered: false, status: null, error: 'no answer' },
        { delivered: false, status: null, error: 'no answer' },
      ]);
      expect(hangUp.connections()).toBeGreaterThan(0);

      // A paid order's attempts to both: each "no answer" in the event's log.
      const { orderId, orderToken } = await server.order();
      const checkout = (await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' })).body;
      await server.provider.sandbox.pix.complete(checkout.transactionId, { name: 'Maria Pagadora', taxNumber: '52998224725' });
      const event = await vi.waitFor(async () => {
        const items = (await admin('GET', '/webhook-events?limit=500')).body.items as { id: string; data: { orderId: string } }[];
        const found = items.find((item) => item.data.orderId === orderId);
        expect(found).toBeDefined();
        return found!;
      });
      await vi.waitFor(
        async () => {
          const attempts = (await admin('GET', `/webhook-events/${event.id}/attempts`)).body.items as {
            endpointId: string;
            error: string;
          }[];
          const failed = attempts.filter((attempt) => attempt.endpointId !== 'env');
          expect(failed.map((attempt) => attempt.error)).toEqual(['no answer', 'no answer']);
        },
        { timeout: 5_000 },
      );

      // An attempt recorded before the reasons were all a row kept (the socket's error) shows as "no answer" too.
      const now = new Date().toISOString();
      await server.store.redeliverMerchantEvent(event.id, ['we_before'], now);
      await server.store.claimDeliveries({ we_before: 1 }, now, 'an-older-worker', new Date(Date.now() + 60_000).toISOString());
      const raw = { at: now, status: null, durationMs: 3, error: 'connect ECONNREFUSED 10.0.0.7:5432' };
      expect(await server.store.recordAttempt(event.id, 'we_before', 'an-older-worker', raw, { retryAt: now })).toBe(true);
      const log = (await admin('GET', `/webhook-events/${event.id}/attempts`)).body.items as { endpointId: string; error: string }[];
      expect(log.find((attempt) => attempt.endpointId === 'we_before')).toMatchObject({ error: 'no answer', status: null });
      expect(JSON.stringify(log)).not.toContain('ECONNREFUSED');
    } finally {
      await hangUp.close();
    }
  });

  it('shows a viewer the host of each endpoint, never its path; an operator and an owner the whole URL', async () => {
    const backend = await startRecordingServer((_req, res) => void res.writeHead(204).end());
    try {
      const url = `${backend.url}/hooks/catch/9931/tok_${secret()}`;
      const { id } = (await admin('POST', '/webhook-endpoints', { url })).body as { id: string };
      const urlOf = async (cookie: string) => {
        const items = (await client.withCookie(cookie, 'GET', '/webhook-endpoints')).body.items as { id: string; url: string }[];
        return items.find((item) => item.id === id)!.url;
      };
      const viewer = await client.session((await client.user('viewer')).email);
      expect(await urlOf(viewer)).toBe(`${backend.url}/…`);
      const viewersList = (await client.withCookie(viewer, 'GET', '/webhook-endpoints')).text;
      expect(viewersList).not.toContain('/hooks');
      expect(await urlOf(await client.session((await client.user('operator')).email))).toBe(url);
      expect(await urlOf(await client.session((await client.user('owner')).email))).toBe(url);
      // The audit trail, which every role reads, keeps its host only.
      const audit = (await client.withCookie(viewer, 'GET', '/audit')).text;
      expect(audit).toContain(id);
      expect(audit).not.toContain('tok_');
    } finally {
      await backend.close();
    }
  });
});
