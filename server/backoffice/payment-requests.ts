/**
 * The company's payment requests (paying a receiver's bank account) at the provider, for the back office: create,
 * list by status and period, read one, cancel one. Their invoices are invoices.ts.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { Clock } from '../lib/clock';
import type { ProviderClient } from '../provider';
import { parseJson, parseQuery } from '../bff/validate';
import { callProvider } from './provider-call';
import { amount, saneDates } from './queries';

const paymentRequestBody = z.object({
  amount,
  description: z.string().trim().min(1).max(140),
  receiverId: z.string().min(1).max(64),
  accountId: z.string().min(1).max(64),
});

export function paymentRequestRoutes({ provider, clock }: { provider: ProviderClient; clock: Clock }) {
  const { requestsQuery } = saneDates(clock);
  return new Hono()
    .post('/payment-requests', async (c) => {
      const body = await parseJson(c, paymentRequestBody);
      const created = await callProvider(
        provider.paymentRequests.create({
          amount: body.amount,
          description: body.description,
          refReceiver: body.receiverId,
          refBankAccount: body.accountId,
        }),
      );
      return c.json(created, 201);
    })
    .get('/payment-requests', async (c) => {
      const q = parseQuery(c, requestsQuery);
      return c.json(
        await callProvider(
          provider.paymentRequests.list({
            'dataset.limit': q.limit,
            'dataset.offset': q.offset,
            status: q.status,
            startDate: q.startDate,
            endDate: q.endDate,
          }),
        ),
      );
    })
    .get('/payment-requests/:id', async (c) => c.json(await callProvider(provider.paymentRequests.retrieve(c.req.param('id')))))
    .post('/payment-requests/:id/cancel', async (c) => {
      await callProvider(provider.paymentRequests.cancel(c.req.param('id')));
      return c.json({ statusCode: 'Done' });
    });
}
