/**
 * The sandbox panel's operation whose webhook the emulator could not deliver: the emulator keeps the change and
 * retries the webhook (docs/spec-gaps.md), so the demo answers 202 with the state reached and
 * `webhookDelivered: false`, not a refusal. Here the emulator's webhooks go to PUBLIC_BASE_URL, where nothing listens.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server';

let server: TestServer;
beforeAll(async () => {
  // Port 9 (discard): nothing answers there, so every webhook of the emulator fails to connect.
  server = await startTestServer({ env: { PUBLIC_BASE_URL: 'http://127.0.0.1:9' } });
});
afterAll(() => server?.close());

describe('a sandbox operation whose webhook is not delivered', () => {
  it('answers 202 with the state reached and webhookDelivered false, and the change stands', async () => {
    const order = await server.order();
    const created = await server.json('POST', '/api/checkouts', { ...order, method: 'pix' });
    expect(created.status).toBe(201);
    const transactionId = created.body.transactionId as string;
    const answer = await server.json('POST', `/demo/api/sandbox/pix/cancel/${encodeURIComponent(transactionId)}`);
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ statusCode: 'Done', data: { transactionState: 'Cancelled', webhookDelivered: false } });
    const record = await server.provider.transactions.retrieve(transactionId);
    expect(record.transaction.state).toBe('Cancelled');
  });

  it('still refuses an operation the emulator refuses (409)', async () => {
    const order = await server.order();
    const created = await server.json('POST', '/api/checkouts', { ...order, method: 'pix' });
    const path = `/demo/api/sandbox/pix/cancel/${encodeURIComponent(created.body.transactionId as string)}`;
    await server.json('POST', path);
    const again = await server.json('POST', path);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('sandbox_refused');
  });
});
