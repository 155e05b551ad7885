/** The HTTP order source of the standalone BFF: the contract, and each failure mapped to a clear code. */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../server/payments/errors';
import { httpOrders } from '../../../server/payments/orders';
import { sendJson, startRecordingServer, type Handler } from '../helpers/http';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

/** An order service answering with `handler`; its resolver waits `timeoutMs` (the product's 5 s unless a test needs it short). */
async function orderService(handler: Handler, timeoutMs = 5_000) {
  const server = await startRecordingServer(handler);
  open.push(server);
  return { server, orders: httpOrders({ url: `${server.url}/orders/`, token: 'secret-token-123456', timeoutMs }) };
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('should have been refused'),
    (error: unknown) => {
      expect(error).toBeInstanceOf(ApiError);
      return error as ApiError;
    },
  );

describe('httpOrders', () => {
  it('asks GET <url>/<orderId> with the bearer token and keeps only the contract fields', async () => {
    const { server, orders } = await orderService((_, res) => sendJson(res, 200, { amountCents: 1050, description: 'Pedido', other: 1 }));
    expect(await orders.resolve('A/1 ?')).toEqual({ amountCents: 1050, description: 'Pedido' });
    expect(server.requests[0]).toMatchObject({ method: 'GET', url: '/orders/A%2F1%20%3F' });
    expect(server.requests[0]!.headers.authorization).toBe('Bearer secret-token-123456');
  });

  it('reads 404 and 410 as no such order', async () => {
    for (const status of [404, 410]) {
      const { orders } = await orderService((_, res) => sendJson(res, status, {}));
      expect(await orders.resolve('A-1')).toBeUndefined();
    }
  });

  it('turns a 5xx, a refused token or an answer off the contract into 502 orders_unavailable, keeping the reason for the log', async () => {
    const answers: Array<[number, unknown]> = [
      [500, { error: 'db down' }],
      [401, {}],
      [200, { amountCents: '10.50', description: 'float-ish' }],
      [200, { amountCents: 10.5, description: 'not cents' }],
      [200, { amountCents: 0, description: 'free' }],
      [200, { amountCents: 100 }],
    ];
    for (const [status, body] of answers) {
      const { orders } = await orderService((_, res) => sendJson(res, status, body));
      const error = await refusal(orders.resolve('A-1'));
      expect([error.status, error.code]).toEqual([502, 'orders_unavailable']);
      expect(error.message).not.toContain('db down');
      expect(String(error.cause)).toMatch(/order source/);
    }
  });

  it('turns no answer in time into 504 orders_timeout', async () => {
    const { orders } = await orderService(() => undefined, 300);
    const error = await refusal(orders.resolve('A-1'));
    expect([error.status, error.code]).toEqual([504, 'orders_timeout']);
  });

  it('turns a refused connection into 502 orders_unavailable', async () => {
    const { server, orders } = await orderService((_, res) => sendJson(res, 200, {}));
    await server.close();
    const error = await refusal(orders.resolve('A-1'));
    expect([error.status, error.code]).toEqual([502, 'orders_unavailable']);
  });
});
