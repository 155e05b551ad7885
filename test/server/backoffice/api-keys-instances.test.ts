/**
 * A revoked API key is refused at once by every instance: two servers on one PostgreSQL database, a key made and used
 * on both, revoked on one, gets 401 on both with the very next request (each request reads the store: no cache).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../store/pg-test-database';
import { startTestServer, type TestServer } from '../helpers/server';
import { ADMIN_TOKEN } from './auth-helpers';

describe.skipIf(!TEST_DATABASE_URL)('an API key on two instances on PostgreSQL', () => {
  let database: TestDatabase;
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    database = await createTestDatabase(TEST_DATABASE_URL!);
    a = await startTestServer({ env: { ADMIN_TOKEN, DATABASE_URL: database.url } });
    b = await startTestServer({
      env: {
        ADMIN_TOKEN,
        DATABASE_URL: database.url,
        PROVIDER_BASE_URL: `${a.url}/sandbox/v1`,
        PROVIDER_ACCESS_KEY: 'sandbox-access-key',
        PROVIDER_SECRET: 'sandbox-secret',
        WEBHOOK_SECRET: a.config.webhookSecret,
        ORDERS_URL: `${a.url}/demo/api/priced-orders`,
        ORDERS_TOKEN: a.ordersToken!,
      },
    });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await database?.drop();
  });

  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

  it('gets 401 on both instances as soon as one revokes it', async () => {
    const created = await a.json('POST', '/api/admin/api-keys', { name: 'nightly-export', role: 'viewer' }, bearer(ADMIN_TOKEN));
    expect(created.status).toBe(201);
    const { id, key } = created.body as { id: string; key: string };
    for (const server of [a, b]) expect((await server.json('GET', '/api/admin/checkouts', undefined, bearer(key))).status).toBe(200);

    expect((await b.json('DELETE', `/api/admin/api-keys/${id}`, undefined, bearer(ADMIN_TOKEN))).status).toBe(200);
    const after = await Promise.all([a, b].map((server) => server.json('GET', '/api/admin/checkouts', undefined, bearer(key))));
    expect(after.map((r) => [r.status, r.body.error?.code])).toEqual([
      [401, 'admin_unauthorized'],
      [401, 'admin_unauthorized'],
    ]);
  });
});
