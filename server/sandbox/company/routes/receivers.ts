/** `GET /receivers`, `GET /receivers/:receiverId` and `GET /receivers/:receiverId/accounts`. */
import { Hono } from 'hono';
import { z } from 'zod';
import { listReceiversQuery } from '../../../provider/schemas';
import type { SandboxContext } from '../../context';
import { methodNotAllowed, notFound } from '../../errors';
import { validate } from '../../request';
import { queryInput } from './query';

/** The provider documents no paging rules here; ours: any page size from 1 to 50 (default 50), offset from 0. */
const accountsQuery = z.object({
  limit: z.number().int().min(1).max(50).default(50),
  offset: z.number().int().min(0).default(0),
});

/** The single-receiver answer uses the list shape with these fixed paging values, as the spec shows. */
const SINGLE_PAGE = { limit: 50, offset: 0 } as const;

export function receiverRoutes(ctx: SandboxContext) {
  const { store } = ctx.company;
  const find = (id: string) => {
    const receiver = store.receiver(id);
    if (!receiver) throw notFound(`Receiver ${id} not found`);
    return receiver;
  };
  return new Hono()
    .get('/', (c) => {
      const query = validate(listReceiversQuery, queryInput(c.req.query(), ['dataset.limit', 'dataset.offset']));
      // The filter says Denied where the records say Rejected.
      const status = query.receiverStatus === 'Denied' ? 'Rejected' : (query.receiverStatus ?? null);
      const limit = query['dataset.limit'];
      const offset = query['dataset.offset'];
      return c.json({ statusCode: 'Done', data: { limit, offset, ...store.receivers(status, limit, offset) } });
    })
    .get('/:receiverId', (c) => {
      const receiver = find(c.req.param('receiverId'));
      return c.json({ statusCode: 'Done', data: { ...SINGLE_PAGE, total: 1, items: [receiver] } });
    })
    .get('/:receiverId/accounts', (c) => {
      const receiver = find(c.req.param('receiverId'));
      const query = validate(accountsQuery, queryInput(c.req.query(), ['limit', 'offset']));
      return c.json({ statusCode: 'Done', data: store.accounts(receiver.id, query.limit, query.offset) });
    })
    .all('/', methodNotAllowed)
    .all('/:receiverId', methodNotAllowed)
    .all('/:receiverId/accounts', methodNotAllowed);
}
