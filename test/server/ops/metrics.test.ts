/**
 * `GET /metrics` (server/metrics): after one paid Pix order on the emulator it shows the transition and every family,
 * `promtool check metrics` accepts it, a real Prometheus scrapes it with the bearer token and finds the payment through
 * its HTTP API; the token is checked; each instance has a registry of its own; and without METRICS_TOKEN production
 * answers 404 while the demo answers the loopback address. On SQLite, and on PostgreSQL too with TEST_DATABASE_URL.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../server/lib/clock';
import { EVENT_LOOP_LAG_P99, METRIC_FAMILIES } from '../../../server/metrics/families';
import { prometheusBin, startPrometheus, type RunningPrometheus } from '../helpers/prometheus';
import { startSandbox } from '../helpers/sandbox';
import { startTestBff, startTestServer, type TestServer } from '../helpers/server';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../store/pg-test-database';

const TOKEN = 'metrics-token-for-the-test-0123456789';
const PAID = 'pixcheckout_checkout_transitions_total{method="pix",to="Completed"} 1';

const scrape = (server: { url: string }, authorization?: string) =>
  fetch(`${server.url}/metrics`, { headers: authorization === undefined ? {} : { authorization } });

/** Places an order, pays it by Pix on the emulator, and waits until the checkout is Completed. */
async function payOnePixOrder(server: TestServer) {
  const { orderId, orderToken } = await server.order();
  const created = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
  expect(created.status).toBe(201);
  await server.provider.sandbox.pix.complete(created.body.transactionId, { name: 'Maria Pagadora', taxNumber: '52998224725' });
  await vi.waitFor(async () => expect((await server.json('GET', `/api/checkouts/${created.body.id}`)).body.state).toBe('Completed'));
  return created.body as { id: string; orderId: string; transactionId: string };
}

const databases = [{ name: 'SQLite', base: undefined }, ...(TEST_DATABASE_URL ? [{ name: 'PostgreSQL', base: TEST_DATABASE_URL }] : [])];

describe.each(databases)('GET /metrics ($name)', ({ base }) => {
  let database: TestDatabase | undefined;
  let server: TestServer;
  let paid: { id: string; orderId: string; transactionId: string };
  let text: string;
  beforeAll(async () => {
    database = base ? await createTestDatabase(base) : undefined;
    server = await startTestServer({ env: { METRICS_TOKEN: TOKEN, DATABASE_URL: database?.url ?? '' } });
    paid = await payOnePixOrder(server);
    // A second checkout left waiting for its payer: the live gauge counts it.
    const waiting = await server.order();
    expect(
      (await server.json('POST', '/api/checkouts', { orderId: waiting.orderId, orderToken: waiting.orderToken, method: 'pix' })).status,
    ).toBe(201);
    await server.checkout.reconciler.runOnce();
    const answer = await scrape(server, `Bearer ${TOKEN}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    text = await answer.text();
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('shows the paid order as one transition to Completed, and every family', () => {
    expect(text).toContain(PAID);
    expect(text).toContain('pixcheckout_checkout_transitions_total{method="pix",to="Registered"} 2');
    expect(text).toMatch(/^pixcheckout_checkouts_live\{method="pix"\} 1$/m);
    expect(text).toMatch(/^pixcheckout_checkouts_live\{method="openfinance"\} 0$/m);
    for (const name of [...Object.values(METRIC_FAMILIES), EVENT_LOOP_LAG_P99, 'process_cpu_seconds_total']) {
      expect(text, name).toMatch(new RegExp(`^# TYPE ${name} `, 'm'));
    }
    expect(text).toMatch(/^pixcheckout_provider_webhooks_total\{outcome="applied"\} [1-9]/m);
    expect(text).toMatch(/^pixcheckout_provider_request_duration_seconds_count\{operation="pix.createCashIn",outcome="ok"\} 2$/m);
    expect(text).toMatch(/^pixcheckout_reconciler_passes_total [1-9]/m);
    expect(text).toMatch(/^pixcheckout_db_query_duration_seconds_count\{store="(sqlite|postgres)",kind="write"\} [1-9]/m);
    expect(text).toMatch(/^pixcheckout_merchant_backlog_events \d+$/m);
  });

  it('labels requests by route pattern, never by an id', () => {
    expect(text).toContain('route="/api/checkouts/:id"');
    for (const id of [paid.id, paid.orderId, paid.transactionId]) expect(text).not.toContain(id);
  });

  it('passes promtool check metrics', () => {
    const checked = spawnSync(prometheusBin('promtool'), ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.status).toBe(0);
  });

  it('answers 401 in the error envelope without the token or with a wrong one', async () => {
    for (const authorization of [undefined, '', `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, TOKEN]) {
      const answer = await scrape(server, authorization);
      expect(answer.status, String(authorization)).toBe(401);
      expect(await answer.json()).toMatchObject({ statusCode: 'Error', error: { code: 'metrics_unauthorized' } });
    }
  });
});

describe('GET /metrics scraped by a real Prometheus', () => {
  let server: TestServer;
  let prometheus: RunningPrometheus;
  beforeAll(async () => {
    server = await startTestServer({ env: { METRICS_TOKEN: TOKEN } });
    prometheus = await startPrometheus({ target: new URL(server.url).host, token: TOKEN });
  }, 60_000);
  afterAll(async () => {
    await prometheus?.stop();
    await server?.close();
  });

  it('finds the payment through its HTTP API', async () => {
    await payOnePixOrder(server);
    await vi.waitFor(
      async () => {
        const [sample] = await prometheus.query('pixcheckout_checkout_transitions_total{method="pix",to="Completed"}');
        expect(sample?.value[1]).toBe('1');
      },
      { timeout: 30_000, interval: 500 },
    );
    const [up] = await prometheus.query('up{job="pix-checkout"}');
    expect(up?.value[1]).toBe('1');
  }, 60_000);
});

describe('GET /metrics of several instances and without METRICS_TOKEN', () => {
  it('gives each instance in one process its own families', async () => {
    const [first, second] = await Promise.all([
      startTestServer({ env: { METRICS_TOKEN: TOKEN } }),
      startTestServer({ env: { METRICS_TOKEN: TOKEN } }),
    ]);
    try {
      await payOnePixOrder(first);
      expect(await (await scrape(first, `Bearer ${TOKEN}`)).text()).toContain(PAID);
      // Every method and state starts at 0, so a rate over them is defined from the first scrape.
      expect(await (await scrape(second, `Bearer ${TOKEN}`)).text()).toContain(PAID.replace(/ 1$/, ' 0'));
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('counts a live checkout past its payment window until the reconciler expires it', async () => {
    const clock = new ManualClock(new Date());
    const server = await startTestServer({ env: { METRICS_TOKEN: TOKEN }, start: { clock } });
    const pastWindow = async () =>
      /^pixcheckout_checkouts_past_window\{method="pix"\} (\d+)$/m.exec(await (await scrape(server, `Bearer ${TOKEN}`)).text())?.[1];
    try {
      const { orderId, orderToken } = await server.order();
      expect((await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' })).status).toBe(201);
      expect(await pastWindow()).toBe('0');
      // The default window is 30 minutes: a minute after it, the checkout is still live until a reconciler pass.
      clock.advance(31 * 60_000);
      expect(await pastWindow()).toBe('1');
      await server.checkout.reconciler.runOnce();
      expect(await pastWindow()).toBe('0');
    } finally {
      await server.close();
    }
  });

  it('answers the loopback address in the demo on the emulator', async () => {
    const demo = await startTestServer();
    try {
      const answer = await scrape(demo);
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain('# TYPE pixcheckout_checkout_transitions_total counter');
    } finally {
      await demo.close();
    }
  });

  it('answers 404 under npm run serve (a real provider)', async () => {
    const provider = await startSandbox();
    const orders = 'http://127.0.0.1:9/orders';
    const bff = await startTestBff({
      env: {
        PROVIDER_BASE_URL: `${provider.url}/sandbox/v1`,
        PROVIDER_ACCESS_KEY: 'key',
        PROVIDER_SECRET: 'secret',
        ORDERS_URL: orders,
        ORDERS_TOKEN: 'orders-token-0123456789',
      },
    });
    try {
      const answer = await scrape(bff, `Bearer ${TOKEN}`);
      expect(answer.status).toBe(404);
      expect(await answer.json()).toMatchObject({ statusCode: 'Error', error: { code: 'not_found' } });
    } finally {
      await bff.close();
      await provider.close();
    }
  });
});
