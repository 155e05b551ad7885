import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookEvent } from '../../../server/provider/schemas';
import { API, cashOut, client, eventually, initiation, makeSandbox, serveSandbox, startReceiver } from './helpers';

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const state = (sandbox: ReturnType<typeof makeSandbox>['sandbox'], id: string) => sandbox.store.get(id)!.record;

describe('background webhook delivery', () => {
  it('retries a failed Registered event per the schedule until the receiver accepts it', async () => {
    receiver.received.length = 0;
    receiver.answer(503);
    const { sandbox } = makeSandbox({ registerDelayMs: 0, webhookRetry: { delaysMs: [40, 40, 40, 40] } });
    try {
      const api = await client(sandbox);
      const id = (await api('POST', '/accounts/pix/cashout', cashOut(receiver.url))).body.data.transaction.id;
      await eventually(() => receiver.received.length >= 2);
      expect(state(sandbox, id).webhook.deliveryStatus).toBe('Pending');
      receiver.answer(200);
      await eventually(() => state(sandbox, id).webhook.deliveryStatus === 'Success');
      const count = receiver.received.length;
      expect(count).toBeGreaterThanOrEqual(3);
      expect(count).toBeLessThanOrEqual(5);
      for (const hit of receiver.received) expect(webhookEvent.parse(hit.body)).toMatchObject({ id, transactionState: 'Registered' });
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(receiver.received.length).toBe(count);
    } finally {
      sandbox.close();
    }
  });

  it('marks the delivery Failed once the schedule is exhausted', async () => {
    receiver.received.length = 0;
    receiver.answer(500);
    const { sandbox } = makeSandbox({ registerDelayMs: 0, webhookRetry: { delaysMs: [10, 10] } });
    try {
      const api = await client(sandbox);
      const id = (await api('POST', '/accounts/pix/cashout', cashOut(receiver.url))).body.data.transaction.id;
      await eventually(() => state(sandbox, id).webhook.deliveryStatus === 'Failed');
      expect(receiver.received).toHaveLength(3);
      expect(state(sandbox, id).transaction.state).toBe('Registered');
    } finally {
      receiver.answer(200);
      sandbox.close();
    }
  });

  it('stops retrying on close()', async () => {
    receiver.received.length = 0;
    receiver.answer(500);
    const { sandbox } = makeSandbox({ registerDelayMs: 0, webhookRetry: { delaysMs: [30, 30, 30, 30, 30] } });
    const api = await client(sandbox);
    await api('POST', '/accounts/pix/cashout', cashOut(receiver.url));
    await eventually(() => receiver.received.length >= 1);
    sandbox.close();
    const count = receiver.received.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received.length).toBe(count);
    receiver.answer(200);
  });
});

describe('the emulator on a real socket', () => {
  it('serves the partner API under /sandbox and posts the webhook to a real receiver', async () => {
    receiver.received.length = 0;
    const { sandbox } = makeSandbox();
    const served = await serveSandbox(sandbox);
    try {
      const post = (path: string, body: unknown, token?: string) =>
        fetch(`${served.url}${API}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify(body),
        });
      const token = await (await post('/login', { accessKey: 'sandbox-access-key', secret: 'sandbox-secret' })).text();
      const created = await (await post('/accounts/payment-initiation', initiation(receiver.url), token)).json();
      const done = await post(`/sandbox/payment-initiation/complete/${created.data.transactionId}`, {}, token);
      expect(done.status).toBe(200);
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0]!.headers['x-shop-secret']).toBe('s3cret');
      expect(receiver.received[0]!.body).toMatchObject({ id: created.data.transactionId, transactionState: 'Completed' });
    } finally {
      await served.close();
      sandbox.close();
    }
  });
});
