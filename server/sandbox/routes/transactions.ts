/** The full record of one transaction (GET and POST, as the spec states both) and the listing by order id. */
import { Hono } from 'hono';
import { listTransactionsQuery } from '../../provider/schemas';
import type { SandboxContext } from '../context';
import { methodNotAllowed, notFound } from '../errors';
import { formatError, parseInstant, validate } from '../request';

const DAY_MS = 86_400_000;

/** Query values are text; the shared schema wants numbers for the page fields. */
function queryInput(query: Record<string, string>): Record<string, unknown> {
  const input: Record<string, unknown> = { ...query };
  for (const key of ['dataset.limit', 'dataset.offset'])
    if (query[key] !== undefined && /^\d{1,9}$/.test(query[key])) input[key] = Number(query[key]);
  return input;
}

export function transactionRoutes(ctx: SandboxContext) {
  return new Hono()
    .on(['GET', 'POST'], '/pix/:transactionId', (c) => {
      const id = c.req.param('transactionId');
      const tx = ctx.store.get(id);
      if (!tx) throw notFound(`Transaction ${id} not found`);
      return c.json({ statusCode: 'Done', data: tx.record });
    })
    .get('/pix', (c) => {
      const query = validate(listTransactionsQuery, queryInput(c.req.query()));
      const start = parseInstant(query.startDate, '/startDate');
      const end = parseInstant(query.endDate, '/endDate');
      if (end < start) throw formatError('/endDate', 'must not be before startDate', 'formatMinimum');
      if (end - start > DAY_MS) throw formatError('/endDate', 'must be at most one day after startDate', 'formatMaximum');
      // Single-account sandbox: `account` (an account id or "all") is accepted and changes nothing.
      const { total, items } = ctx.store.listByOrder(
        query.transactionOrderId,
        new Date(start).toISOString(),
        new Date(end).toISOString(),
        query['dataset.limit'],
        query['dataset.offset'],
      );
      return c.json({
        statusCode: 'Done',
        data: {
          limit: query['dataset.limit'],
          offset: query['dataset.offset'],
          total,
          items: items.map((tx) => ({ transaction: tx.record.transaction })),
        },
      });
    })
    .all('/pix/:transactionId', methodNotAllowed)
    .all('/pix', methodNotAllowed);
}
