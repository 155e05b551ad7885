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
import type { ProviderPage, ReceiverAccountView, ReceiverView } from '../../../core/backoffice';

const receiversQuery = z.object({ ...pageQuery, status: approvalFilter.optional() });

export function receiverRoutes({ provider }: { provider: ProviderClient }) {
  return (
    new Hono()
      .get('/receivers', async (c) => {
        const q = parseQuery(c, receiversQuery);
        const page = await callProvider(
          provider.receivers.list({
            'dataset.limit': q.limit,
            'dataset.offset': q.offset,
            ...(q.status ? { receiverStatus: q.status } : {}),
          }),
        );
        return c.json(page satisfies ProviderPage<ReceiverView>);
      })
      // The provider answers one receiver as a page of it.
      .get('/receivers/:id', async (c) => {
        const page = await callProvider(provider.receivers.retrieve(c.req.param('id')));
        return c.json(page satisfies ProviderPage<ReceiverView>);
      })
      .get('/receivers/:id/accounts', async (c) => {
        const items = await callProvider(provider.receivers.listAccounts(c.req.param('id')));
        return c.json({ items } satisfies { items: ReceiverAccountView[] });
      })
  );
}
