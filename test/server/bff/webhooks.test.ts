import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WEBHOOK_HEADER } from '../../../server/bff/app';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function checkoutWithRecord() {
  const { orderId, orderToken } = await server.order();
  const res = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
  const record = await server.provider.transactions.retrieve(res.body.transactionId);
  return { checkout: res.body as { id: string; transactionId: string }, record };
}

/** A webhook body shaped like the provider's, for the given transaction and state. */
function payload(transactionId: string, state: string) {
  return {
    id: transactionId,
    transactionState: state,
    transactionDate: '2026-01-15T12:00:00.000Z',
    transactionAmount: '79.800000',
    transactionType: 'Credit',
    transactionPaymentType: 'PIX',
  };
}

const post = (body: unknown, secret?: string) =>
  server.json('POST', '/api/webhooks/provider', body, secret === undefined ? {} : { [WEBHOOK_HEADER]: secret });

describe('POST /api/webhooks/provider', () => {
  it('refuses a missing or wrong header with 401 and changes nothing', async () => {
    const { checkout } = await checkoutWithRecord();
    // The provider really completes, but a forged webhook must not be what moves us.
    for (const secret of [undefined, '', 'wrong', server.config.webhookSecret + 'x']) {
      const res = await post(payload(checkout.transactionId, 'Completed'), secret);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ statusCode: 'Error', error: { code: 'webhook_unauthorized' } });
    }
    expect((await server.json('GET', `/api/checkouts/${checkout.id}`)).body.state).toBe('Registered');
    expect((await server.store.eventsAfter(checkout.id, 0)).map((e) => e.state)).toEqual(['Registered']);
  });

  it('uses the secret from configuration, at least 192 bits, generated into the data directory', () => {
    expect(Buffer.from(server.config.webhookSecret, 'base64url').length).toBeGreaterThanOrEqual(24);
  });

  it('treats the payload as a hint: a forged Completed with the right header does not move a Registered transaction', async () => {
    const { checkout } = await checkoutWithRecord();
    const res = await post(payload(checkout.transactionId, 'Completed'), server.config.webhookSecret);
    expect(res.status).toBe(200);
    expect(res.body.data.outcome).toBe('ignored');
    expect((await server.json('GET', `/api/checkouts/${checkout.id}`)).body.state).toBe('Registered');
  });

  it('ignores duplicates, replays and late out-of-order deliveries with a 2xx', async () => {
    const { checkout } = await checkoutWithRecord();
    await server.provider.sandbox.pix.complete(checkout.transactionId, { name: 'Maria', taxNumber: '52998224725' });
    const events = await server.store.eventsAfter(checkout.id, 0);
    expect(events.map((e) => e.state)).toEqual(['Registered', 'Completed']);

    for (const state of ['Completed', 'Registered', 'Error', 'Completed']) {
      const res = await post(payload(checkout.transactionId, state), server.config.webhookSecret);
      expect(res.status).toBe(200);
      expect(res.body.data.outcome).toBe('ignored');
    }
    expect((await server.store.eventsAfter(checkout.id, 0)).map((e) => e.state)).toEqual(['Registered', 'Completed']);
  });

  it('answers a webhook for an unknown transaction with a 2xx and logs it', async () => {
    const res = await post(payload('tx-unknown', 'Completed'), server.config.webhookSecret);
    expect(res.status).toBe(200);
    // The demo keeps the log in its own table; the observer writes it after the answer.
    await vi.waitFor(() => {
      const log = server.demo!.listWebhookLog(0, 1000);
      expect(log.some((e) => e.transactionId === 'tx-unknown' && e.outcome === 'ignored')).toBe(true);
    });
  });

  it('reads an authenticated webhook as JSON whatever content type it declares; the contract names none', async () => {
    const { checkout, record } = await checkoutWithRecord();
    await server.provider.sandbox.pix.complete(checkout.transactionId, { name: 'Maria Pagadora', taxNumber: '52998224725' });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await server.json('POST', '/api/webhooks/provider', JSON.stringify(payload(record.transaction.id, 'Completed')), {
        'content-type': type,
        [WEBHOOK_HEADER]: server.config.webhookSecret,
      });
      expect(res.status, type).toBe(200);
    }
    const forged = await server.json('POST', '/api/webhooks/provider', JSON.stringify(payload(record.transaction.id, 'Completed')), {
      'content-type': 'text/plain',
    });
    expect(forged.status).toBe(401);
  });

  it('reads of the payload only what makes it an event (id and state): other fields in another format are not refused', async () => {
    const { checkout } = await checkoutWithRecord();
    const odd = {
      ...payload(checkout.transactionId, 'Registered'),
      transactionAmount: 'R$ 79,80',
      transactionDate: 'ontem',
      payer: 'Maria',
    };
    const res = await post(odd, server.config.webhookSecret);
    // Heard and re-read (the provider says Registered: nothing to move), not refused with a 4xx the provider never retries.
    expect(res.status).toBe(200);
    expect(res.body.data.outcome).toBe('ignored');
  });

  it('answers malformed payloads with 400 and a clear error', async () => {
    for (const body of ['not json', { id: 'x' }, { ...payload('x', 'Completed'), transactionState: 'Paid' }]) {
      const res = await post(body, server.config.webhookSecret);
      expect(res.status).toBe(400);
      expect(res.body.statusCode).toBe('Error');
    }
  });
});
