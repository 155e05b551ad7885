/**
 * `GET /readyz` and the drain SIGTERM starts (server/shutdown.ts), on a running server (a real socket: the listener's
 * drain is the behaviour), on the store the suites pick (SQLite, or PostgreSQL with TEST_DATABASE_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server';
import { openSse } from './helpers/sse';

const DATABASE_URL = process.env.TEST_DATABASE_URL ?? '';

describe(`GET /readyz and the drain (${DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { DATABASE_URL } });
  });
  afterAll(() => server?.close());

  it('answers 200 with a reachable, migrated store, and names every answer with an X-Request-Id', async () => {
    const answer = await fetch(`${server.url}/readyz`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ status: 'ready' });
    expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('ends every status stream with a retry: hint, then closes it, and answers 503 draining meanwhile', async () => {
    const { orderId, orderToken } = await server.order();
    const created = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    expect(created.status).toBe(201);
    const stream = await openSse(`${server.url}/api/checkouts/${created.body.id}/events`);
    expect((await stream.next())?.retry).toBeDefined();
    await stream.next();
    const drained = server.drain(5_000);
    const notReady = await server.app.request('/readyz');
    expect(notReady.status).toBe(503);
    expect(((await notReady.json()) as { error: { code: string } }).error.code).toBe('draining');
    const hint = await stream.next(3_000);
    expect(hint?.retry).toBeGreaterThanOrEqual(1_000);
    expect(await stream.next(3_000)).toBeUndefined();
    await drained;
  });
});
