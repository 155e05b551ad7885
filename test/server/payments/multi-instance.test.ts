import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../store/pg-test-database';
import { openSse } from '../helpers/sse';
import { startTestServer, type TestServer } from '../helpers/server';

// Two BFF instances share one PostgreSQL database. The second is the standalone BFF: it talks to the first one's
// emulator as its provider and prices orders through the demo's order contract, as it would a merchant's backend.
describe.skipIf(!TEST_DATABASE_URL)('two instances on PostgreSQL', () => {
  let database: TestDatabase;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase(TEST_DATABASE_URL!);
    a = await startTestServer({ env: { DATABASE_URL: database.url } });
    b = await startTestServer({
      env: {
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

  it('create one checkout for concurrent submits spread over both instances', async () => {
    const { orderId, orderToken } = await a.order();
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) => (i % 2 ? a : b).json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.transactionId)).size).toBe(1);
  });

  it('push a change applied by one instance to the streams of both', async () => {
    const { orderId, orderToken } = await a.order();
    const checkout = (await b.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' })).body as {
      id: string;
      transactionId: string;
    };
    const streams = [
      await openSse(`${a.url}/api/checkouts/${checkout.id}/events`),
      await openSse(`${b.url}/api/checkouts/${checkout.id}/events`),
    ];
    for (const s of streams) (await s.next(), await s.next());

    await a.provider.sandbox.pix.complete(checkout.transactionId, { name: 'Maria', taxNumber: '52998224725' });
    for (const s of streams) {
      expect(JSON.parse((await s.next())!.data)).toMatchObject({ id: checkout.id, state: 'Completed' });
      expect(await s.ended()).toBe(true);
    }
  });
});
