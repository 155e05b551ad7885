import { afterEach, describe, expect, it } from 'vitest';
import { createProviderClient, ProviderConfigError, ProviderError, ProviderNetworkError } from '../../../server/provider';
import { sendJson, startRecordingServer, type Handler } from '../helpers/http';

const record = {
  transaction: { id: 't1', date: '2026-01-01T00:00:00.000Z', type: 'Credit', state: 'Registered', amount: '1.000000' },
  payment: {},
  webhook: {},
};
const authError = (reason: string) => ({
  statusCode: 'Error',
  error: { name: 'AuthenticationError', code: 'AuthenticationError', message: reason, details: { reason } },
});

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A provider whose login hands out tok-1, tok-2, … and whose other routes run `route`. */
async function fakeProvider(route: Handler) {
  let issued = 0;
  const server = await startRecordingServer(async (req, res) => {
    if (req.url.endsWith('/login')) {
      const { secret } = JSON.parse(req.body) as { secret: string };
      if (secret !== 'right') return sendJson(res, 401, authError('AccessKeyUnauthorized'));
      await new Promise((r) => setTimeout(r, 20));
      res.writeHead(201, { 'content-type': 'text/plain' }).end(`tok-${++issued}`);
      return;
    }
    await route(req, res);
  });
  close = server.close;
  const client = (extra: Partial<Parameters<typeof createProviderClient>[0]> = {}) =>
    createProviderClient({ baseUrl: `${server.url}/v1`, accessKey: 'k', secret: 'right', retryBaseMs: 5, ...extra });
  const calls = (suffix: string) => server.requests.filter((r) => r.url.includes(suffix));
  return { server, client, calls };
}

describe('provider request function', () => {
  it('logs in once however many calls wait for the token', async () => {
    const { client, calls } = await fakeProvider((_req, res) => sendJson(res, 200, { statusCode: 'Done', data: record }));
    const provider = client();
    await Promise.all(Array.from({ length: 10 }, () => provider.transactions.retrieve('t1')));
    expect(calls('/login')).toHaveLength(1);
    expect(calls('/transactions/pix/t1')).toHaveLength(10);
    expect(calls('/transactions/pix/t1').every((r) => r.headers.authorization === 'Bearer tok-1')).toBe(true);
  });

  it('logs in again and retries once when the token is refused', async () => {
    const { client, calls } = await fakeProvider((req, res) =>
      req.headers.authorization === 'Bearer tok-1'
        ? sendJson(res, 401, authError('AuthenticationTokenInvalid'))
        : sendJson(res, 200, { statusCode: 'Done', data: record }),
    );
    const provider = client();
    const result = await provider.transactions.retrieve('t1');
    expect(result.transaction.id).toBe('t1');
    expect(calls('/login')).toHaveLength(2);
    expect(provider.tokens.logins).toBe(2);
  });

  it('gives up after one re-login when the fresh token is refused too', async () => {
    const { client, calls } = await fakeProvider((_req, res) => sendJson(res, 401, authError('AuthenticationTokenInvalid')));
    await expect(client().transactions.retrieve('t1')).rejects.toMatchObject({ status: 401, reason: 'AuthenticationTokenInvalid' });
    expect(calls('/transactions/pix/t1')).toHaveLength(2);
  });

  it('reports a refused key pair as a configuration error', async () => {
    const { client } = await fakeProvider((_req, res) => sendJson(res, 500, {}));
    const error = await client({ secret: 'wrong' })
      .balance.retrieve()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderConfigError);
    expect(error).toMatchObject({ status: 401, reason: 'AccessKeyUnauthorized' });
    expect((error as Error).message).toMatch(/PROVIDER_ACCESS_KEY/);
  });

  it('retries reads on 503 with backoff, but never a create', async () => {
    let reads = 0;
    const { client, calls } = await fakeProvider((req, res) => {
      if (req.method === 'GET' && ++reads < 3) return sendJson(res, 503, {});
      if (req.method === 'GET') return sendJson(res, 200, { statusCode: 'Done', data: record });
      return sendJson(res, 503, {});
    });
    const provider = client();
    await expect(provider.transactions.retrieve('t1')).resolves.toMatchObject({ transaction: { id: 't1' } });
    expect(calls('/transactions/pix/t1')).toHaveLength(3);
    await expect(
      provider.pix.createCashIn({ payment: { value: { original: '1.00' } }, webhook: { url: 'http://127.0.0.1/x' } }),
    ).rejects.toMatchObject({ status: 503 });
    expect(calls('/cashin')).toHaveLength(1);
  });

  it('times out a silent provider with a network error', async () => {
    const { client } = await fakeProvider(() => undefined);
    const error = await client({ timeoutMs: 100, maxRetries: 0 })
      .balance.retrieve()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderNetworkError);
    expect((error as ProviderNetworkError).timedOut).toBe(true);
  });

  it('maps an error envelope to status, name, code, reason and details', async () => {
    const { client } = await fakeProvider((_req, res) =>
      sendJson(res, 409, {
        statusCode: 'Error',
        error: {
          name: 'OperationError',
          code: 'OperationError',
          message: 'tax number 111',
          details: { reason: 'CounterpartyTaxNumberInvalid' },
        },
      }),
    );
    const error = (await client()
      .pix.createCashIn({ payment: { value: { original: '1.00' } }, webhook: { url: 'http://127.0.0.1/x' } })
      .catch((e: unknown) => e)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect([error.status, error.errorName, error.code, error.reason]).toEqual([
      409,
      'OperationError',
      'OperationError',
      'CounterpartyTaxNumberInvalid',
    ]);
  });

  it('refuses a response that does not match the schema', async () => {
    const { client } = await fakeProvider((_req, res) => sendJson(res, 200, { statusCode: 'Done', data: { nope: true } }));
    await expect(client().transactions.retrieve('t1')).rejects.toMatchObject({ errorName: 'InvalidResponse' });
  });

  it('uses POST for the record when configured', async () => {
    const { client, calls } = await fakeProvider((_req, res) => sendJson(res, 200, { statusCode: 'Done', data: record }));
    await client({ transactionRecordMethod: 'POST' }).transactions.retrieve('t1');
    expect(calls('/transactions/pix/t1')[0]?.method).toBe('POST');
  });
});
