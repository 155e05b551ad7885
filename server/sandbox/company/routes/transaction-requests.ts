/**
 * Payment requests ("transaction requests"): create, cancel, list and detail. Approval and rejection are the
 * reviewer's, in the admin routes.
 */
import { Hono } from 'hono';
import { createPaymentRequest, listPaymentRequestsQuery } from '../../../provider/schemas';
import type { SandboxContext } from '../../context';
import { methodNotAllowed } from '../../errors';
import { formatError, parseInstant, readBody, readPartnerJson, validate } from '../../request';
import { detailView, executedView, requestView } from '../views';
import { partnerUser, queryInput } from './query';

const instant = (text: string, name: string) => new Date(parseInstant(text, `/${name}`)).toISOString();

export function transactionRequestRoutes(ctx: SandboxContext) {
  const { requests, store } = ctx.company;
  return new Hono()
    .post('/', async (c) => {
      const body = await readBody(c, createPaymentRequest);
      const request = requests.create(body, partnerUser(c));
      return c.json({ statusCode: 'Done', data: requestView(request) }, 201);
    })
    .put('/cancel/:trId', async (c) => {
      // No body is defined; one sent anyway must still be JSON, like the sandbox operations.
      await readPartnerJson(c, { optional: true });
      requests.cancel(c.req.param('trId'), { ...partnerUser(c), comment: 'Cancelled by the partner' });
      return c.json({ statusCode: 'Done' });
    })
    .get('/', (c) => {
      const query = validate(listPaymentRequestsQuery, queryInput(c.req.query(), ['dataset.limit', 'dataset.offset']));
      const start = instant(query.startDate, 'startDate');
      const end = instant(query.endDate, 'endDate');
      if (end < start) throw formatError('/endDate', 'must not be before startDate', 'formatMinimum');
      const status = query.status === 'Denied' ? 'Rejected' : query.status;
      const limit = query['dataset.limit'];
      const offset = query['dataset.offset'];
      const { total, items } = store.requests(status, start, end, limit, offset);
      return c.json({
        statusCode: 'Done',
        data: { limit, offset, total, items: items.map((r) => executedView(r, ctx.store)) },
      });
    })
    .get('/:trId', (c) => {
      const request = requests.find(c.req.param('trId'));
      return c.json({ statusCode: 'Done', data: detailView(request, store, ctx.store) });
    })
    .all('/', methodNotAllowed)
    .all('/cancel/:trId', methodNotAllowed)
    .all('/:trId', methodNotAllowed);
}
