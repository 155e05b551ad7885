import { describe, expect, it } from 'vitest';
import { ProviderError, ProviderNetworkError, type ProviderClient } from '../provider';
import { NO_METRICS, type Metrics } from './metrics';
import { timedProvider } from './provider';

/** A client whose three calls answer, are refused with a 4xx, fail with a 5xx and get no answer, respectively. */
function fakeClient() {
  return {
    tokens: { logins: 0 },
    login: () => Promise.resolve('token'),
    pix: {
      createCashIn: () => Promise.resolve({ id: 'tx_1' }),
      createCashOut: () => Promise.reject(new ProviderError({ status: 422, message: 'refused' })),
    },
    transactions: {
      retrieve: () => Promise.reject(new ProviderError({ status: 503, message: 'down' })),
      list: () => Promise.reject(new ProviderNetworkError('no answer', true, undefined)),
    },
  } as unknown as ProviderClient;
}

describe('timedProvider', () => {
  it('records each call by operation and outcome, and passes answers and errors through', async () => {
    const seen: string[] = [];
    const metrics: Metrics = { ...NO_METRICS, providerRequest: (operation, outcome) => seen.push(`${operation} ${outcome}`) };
    const client = timedProvider(fakeClient(), metrics);
    await expect(client.pix.createCashIn({} as never)).resolves.toEqual({ id: 'tx_1' });
    await expect(client.pix.createCashOut({} as never)).rejects.toThrow('refused');
    await expect(client.transactions.retrieve('tx_1')).rejects.toThrow('down');
    await expect(client.transactions.list({} as never)).rejects.toThrow('no answer');
    await client.login();
    expect(seen).toEqual([
      'pix.createCashIn ok',
      'pix.createCashOut refused',
      'transactions.retrieve failed',
      'transactions.list unreachable',
      'login ok',
    ]);
  });

  it('keeps the token cache itself', () => {
    const inner = fakeClient();
    expect(timedProvider(inner, NO_METRICS).tokens).toBe(inner.tokens);
  });
});
