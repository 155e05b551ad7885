/**
 * The merchant's account at the provider, read for the back office: `GET /balance`, and `GET /transactions` of one
 * order on one UTC day (the provider lists at most a day at a time), its payers masked (../payer-mask.ts).
 */
import { Hono } from 'hono';
import type { Clock } from '../../lib/clock';
import type { ProviderClient } from '../../provider';
import { parseQuery } from '../../http/json-body';
import { callProvider } from '../provider-call';
import { maskPayerData } from '../payer-mask';
import { saneDates } from '../queries';
import type { BalanceView } from '../../../core/backoffice';

export function accountRoutes({ provider, clock }: { provider: ProviderClient; clock: Clock }) {
  const { transactionsQuery } = saneDates(clock);
  return new Hono()
    .get('/balance', async (c) => c.json((await callProvider(provider.balance.retrieve())) satisfies BalanceView))
    .get('/transactions', async (c) => {
      const { orderId, date } = parseQuery(c, transactionsQuery);
      // The provider lists at most one day at a time; the day is UTC.
      const day = date ?? clock.now().toISOString().slice(0, 10);
      const startDate = `${day}T00:00:00.000Z`;
      const endDate = `${day}T23:59:59.999Z`;
      const page = await callProvider(
        provider.transactions.list({ transactionOrderId: orderId, startDate, endDate, 'dataset.limit': 20, 'dataset.offset': 0 }),
      );
      // Payers' documents masked and accounts left out, for every role (../payer-mask.ts).
      return c.json(maskPayerData(page));
    });
}
