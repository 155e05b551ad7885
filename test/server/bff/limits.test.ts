/**
 * The limit settings: how they are read and checked, who counts as one client, the stream and rate counters, and
 * (over real sockets) the total stream limit and TRUST_PROXY.
 */
import { describe, expect, it } from 'vitest';
import { defaultSseMaxTotal, loadConfig } from '../../../server/config';
import { clientAddress, clientKey, createRateLimiter, createStreamLimiter, openFileLimit } from '../../../server/lib/limits';
import { openSse, type SseConnection } from '../helpers/sse';
import { startTestServer, tempDir, type TestServer } from '../helpers/server';

const configError = (env: Record<string, string>) => {
  try {
    loadConfig({ DATA_DIR: tempDir(), ...env });
    return '';
  } catch (error) {
    return (error as Error).message;
  }
};

describe('limit settings', () => {
  it('default to limits a shop never meets and an attacker does', () => {
    const { limits } = loadConfig({ DATA_DIR: tempDir() });
    expect(limits).toEqual({
      trustProxy: 0,
      sseMaxPerClient: 256,
      sseMaxTotal: defaultSseMaxTotal(),
      checkoutRatePerMinute: 30,
      requestTimeoutMs: 60_000,
      bodyTimeoutMs: 10_000,
    });
    expect(limits.sseMaxTotal).toBeLessThanOrEqual(4096);
  });

  it('read every variable, empty meaning the default', () => {
    const { limits } = loadConfig({
      DATA_DIR: tempDir(),
      TRUST_PROXY: '2',
      SSE_MAX_PER_CLIENT: '8',
      SSE_MAX_TOTAL: '100',
      CHECKOUT_RATE_PER_MINUTE: '0',
      REQUEST_TIMEOUT_MS: '30000',
      BODY_TIMEOUT_MS: '',
    });
    expect(limits).toEqual({
      trustProxy: 2,
      sseMaxPerClient: 8,
      sseMaxTotal: 100,
      checkoutRatePerMinute: 0,
      requestTimeoutMs: 30_000,
      bodyTimeoutMs: 10_000,
    });
  });

  it('refuse bad values, naming each', () => {
    const message = configError({
      TRUST_PROXY: 'yes',
      SSE_MAX_PER_CLIENT: '0',
      SSE_MAX_TOTAL: '-1',
      CHECKOUT_RATE_PER_MINUTE: '1.5',
      REQUEST_TIMEOUT_MS: '5',
    });
    for (const name of ['TRUST_PROXY', 'SSE_MAX_PER_CLIENT', 'SSE_MAX_TOTAL', 'CHECKOUT_RATE_PER_MINUTE', 'REQUEST_TIMEOUT_MS']) {
      expect(message).toContain(`  ${name}: `);
    }
    expect(configError({ TRUST_PROXY: '11' })).toContain('TRUST_PROXY');
    expect(configError({ REQUEST_TIMEOUT_MS: '5000', BODY_TIMEOUT_MS: '6000' })).toMatch(
      /BODY_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS/,
    );
  });

  it('keep the total of streams to half the open-file limit when that is lower than 4096', () => {
    expect(defaultSseMaxTotal(undefined)).toBe(4096);
    expect(defaultSseMaxTotal(1_048_576)).toBe(4096);
    expect(defaultSseMaxTotal(1024)).toBe(512);
    expect(defaultSseMaxTotal(20)).toBe(64);
    if (process.platform === 'linux') expect(openFileLimit()).toBeGreaterThan(0);
  });
});

describe('who counts as one client', () => {
  it('is an IPv4 address as is, and an IPv6 address by its /64', () => {
    expect(clientKey('203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('2001:db8:1:2::1')).toBe(clientKey('2001:db8:1:2:ffff:0:0:7'));
    expect(clientKey('2001:db8:1:2::1')).not.toBe(clientKey('2001:db8:1:3::1'));
    expect(clientKey('2001:0db8:0001:0002:0000:0000:0000:0001')).toBe('2001:db8:1:2::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey(undefined)).toBe('unknown');
  });

  it('believes X-Forwarded-For only as far as TRUST_PROXY proxies go', () => {
    const chain = '198.51.100.1, 203.0.113.5, 192.0.2.10';
    expect(clientAddress('10.0.0.1', chain, 0)).toBe('10.0.0.1');
    expect(clientAddress('10.0.0.1', chain, 1)).toBe('192.0.2.10');
    expect(clientAddress('10.0.0.1', chain, 2)).toBe('203.0.113.5');
    expect(clientAddress('10.0.0.1', chain, 5)).toBe('198.51.100.1');
    expect(clientAddress('10.0.0.1', 'not-an-ip', 1)).toBe('10.0.0.1');
    expect(clientAddress('10.0.0.1', undefined, 1)).toBe('10.0.0.1');
  });
});

describe('counters', () => {
  it('count streams per client and in all, and a release frees exactly one slot however often it is called', () => {
    const limiter = createStreamLimiter({ perClient: 2, total: 3 });
    const a1 = limiter.acquire('a');
    const a2 = limiter.acquire('a');
    expect(limiter.acquire('a')).toEqual({ refused: 'client' });
    const b1 = limiter.acquire('b');
    expect(limiter.acquire('c')).toEqual({ refused: 'total' });
    if (!('release' in a1) || !('release' in a2) || !('release' in b1)) throw new Error('expected slots');
    a1.release();
    a1.release();
    expect(limiter.total).toBe(2);
    expect(limiter.count('a')).toBe(1);
    expect('release' in limiter.acquire('c')).toBe(true);
    expect(limiter.acquire('c')).toEqual({ refused: 'total' });
  });

  it('let a burst of perMinute through, then one per 60/perMinute seconds, saying how long to wait', () => {
    let now = 0;
    const limiter = createRateLimiter({ perMinute: 6, now: () => now });
    for (let i = 0; i < 6; i++) expect(limiter.take('a')).toEqual({ ok: true });
    const refused = limiter.take('a');
    expect(refused).toEqual({ ok: false, retryAfterMs: 10_000 });
    expect(limiter.take('b')).toEqual({ ok: true });
    now += 9_000;
    expect(limiter.take('a').ok).toBe(false);
    now += 1_000;
    expect(limiter.take('a')).toEqual({ ok: true });
    expect(limiter.take('a').ok).toBe(false);
  });

  it('forget clients whose bucket has refilled, so memory is bounded by recent clients', () => {
    let now = 0;
    const limiter = createRateLimiter({ perMinute: 60, now: () => now, maxClients: 100 });
    for (let i = 0; i < 100; i++) limiter.take(`old-${i}`);
    now += 60_000;
    for (let i = 0; i < 100; i++) limiter.take(`new-${i}`);
    expect(limiter.size).toBeLessThanOrEqual(100);
    for (let i = 0; i < 1_000; i++) limiter.take(`burst-${i}`);
    expect(limiter.size).toBeLessThanOrEqual(101);
  });
});

describe('over real sockets', () => {
  async function liveCheckout(server: TestServer) {
    const placed = (await server.order()) as { orderId: string; orderToken?: string };
    const res = await server.json('POST', '/api/checkouts', { ...placed, method: 'pix' });
    expect(res.status).toBe(201);
    return `${server.url}/api/checkouts/${res.body.id as string}/events`;
  }

  it('answer 503 with Retry-After once SSE_MAX_TOTAL streams are open, whoever asks (clients told apart by TRUST_PROXY)', async () => {
    const server = await startTestServer({ env: { TRUST_PROXY: '1', SSE_MAX_PER_CLIENT: '3', SSE_MAX_TOTAL: '5' } });
    const open: SseConnection[] = [];
    try {
      const url = await liveCheckout(server);
      const from = (address: string) => openSse(url, { 'x-forwarded-for': `10.9.8.7, ${address}` });
      for (let i = 0; i < 3; i++) open.push(await from('203.0.113.1'));
      const fourth = await from('203.0.113.1');
      expect(fourth.status).toBe(429);
      fourth.close();
      for (let i = 0; i < 2; i++) open.push(await from('203.0.113.2'));
      expect(open.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);

      const busy = await fetch(url, { headers: { 'x-forwarded-for': '203.0.113.3' } });
      expect(busy.status).toBe(503);
      expect(Number(busy.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await busy.json()).error.code).toBe('server_busy');
      expect((await server.json('GET', '/healthz')).status).toBe(200);

      open.shift()!.close();
      await expect
        .poll(async () => (await from('203.0.113.3').then((s) => (open.push(s), s.status))) === 200, { timeout: 5_000 })
        .toBe(true);
    } finally {
      open.forEach((s) => s.close());
      await server.close();
    }
  });

  it('count each forwarded client apart with TRUST_PROXY, for checkout creation too', async () => {
    const server = await startTestServer({ env: { TRUST_PROXY: '1', CHECKOUT_RATE_PER_MINUTE: '2' } });
    try {
      const create = async (address: string) => {
        const placed = (await server.order()) as { orderId: string; orderToken?: string };
        return (await server.json('POST', '/api/checkouts', { ...placed, method: 'pix' }, { 'x-forwarded-for': address })).status;
      };
      expect([await create('198.51.100.1'), await create('198.51.100.1'), await create('198.51.100.1')]).toEqual([201, 201, 429]);
      expect(await create('198.51.100.2')).toBe(201);
      // One IPv6 subscriber is one client, whatever address of its /64 it takes.
      expect([await create('2001:db8::1'), await create('2001:db8::2'), await create('2001:db8::3')]).toEqual([201, 201, 429]);
    } finally {
      await server.close();
    }
  });

  it('turn checkout creation limits off with CHECKOUT_RATE_PER_MINUTE=0', async () => {
    const server = await startTestServer({ env: { CHECKOUT_RATE_PER_MINUTE: '0' } });
    try {
      const statuses = [];
      for (let i = 0; i < 40; i++) {
        const placed = (await server.order()) as { orderId: string; orderToken?: string };
        statuses.push((await server.json('POST', '/api/checkouts', { ...placed, method: 'pix' })).status);
      }
      expect(new Set(statuses)).toEqual(new Set([201]));
    } finally {
      await server.close();
    }
  });
});
