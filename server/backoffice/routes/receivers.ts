/**
 * The company's receivers (payees of payment requests) at the provider, read for the back office: the list by
 * approval status, one receiver, and its bank accounts.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { approvalFilter, type ProviderClient } from '../../provider';
import { parseQuery } from '../../http/json-body';
import { callProvider } from '../provider-call';
import { pageQuery } from '../queries';

const receiversQuery = z.object({ ...pageQuery, status: approvalFilter.optional() });

export function receiverRoutes({ provider }: { provider: ProviderClient }) {
  return new Hono()
    .get('/receivers', async (c) => {
      const q = parseQuery(c, receiversQuery);
      return c.json(
        await callProvider(
          provider.receivers.list({
            'dataset.limit': q.limit,
            'dataset.offset': q.offset,
            ...(q.status ? { receiverStatus: q.status } : {}),
          }),
        ),
      );
    })
    .get('/receivers/:id', async (c) => c.json(await callProvider(provider.receivers.retrieve(c.req.param('id')))))
    .get('/receivers/:id/accounts', async (c) => c.json({ items: await callProvider(provider.receivers.listAccounts(c.req.param('id'))) }));
}
