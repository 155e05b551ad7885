/**
 * The filters of the back office's payments received (state, method, period, order, flag), shared by the paged list
 * and the CSV export, and the list's cursor: the last row's (createdAt, id), opaque to the client.
 */
import { z } from 'zod';
import { METHODS } from '../../core/methods';
import { CHECKOUT_STATES } from '../../core/states';
import type { CheckoutFilter } from '../store/back-office';
import type { Checkout } from '../store/types';
import { invalidCursor, invalidRequest } from '../payments/errors';
import { filterInstant } from './queries';

const PAGE_SIZES = [10, 20, 50] as const;

/** The filters, as the query string carries them (`state` is a comma-separated list). */
export const filterQuery = z.object({
  state: z
    .string()
    .max(200)
    .transform((v) => v.split(',').filter(Boolean))
    .pipe(z.array(z.enum(CHECKOUT_STATES)))
    .optional(),
  method: z.enum(METHODS).optional(),
  from: filterInstant.optional(),
  to: filterInstant.optional(),
  orderId: z.string().trim().min(1).max(64).optional(),
  flag: z.enum(['duplicate', 'late', 'flagged']).optional(),
});

/** The filters, a page size and the cursor of the page before. */
export const listQuery = filterQuery.extend({
  limit: z.coerce
    .number()
    .pipe(z.union(PAGE_SIZES.map((n) => z.literal(n)) as unknown as [z.ZodLiteral<10>, z.ZodLiteral<20>, z.ZodLiteral<50>]))
    .default(20),
  cursor: z.string().max(200).optional(),
});

/** The cursor after `c`. */
export const encodeCursor = (c: Checkout) => Buffer.from(JSON.stringify([c.createdAt, c.id])).toString('base64url');

/**
 * A checkout id as a cursor may name one: no control character (U+0000 would reach PostgreSQL, which refuses it in
 * text) and no half of a surrogate pair. The ids this list gives are letters, digits, `_` and `-`.
 */
const cursorId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[^\p{Cc}\p{Cs}]+$/u);

/** The position a cursor names, or a 400 `invalid_cursor` for one this list did not give. */
export function decodeCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const [createdAt, id] = z.tuple([filterInstant, cursorId]).parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return { createdAt, id };
  } catch {
    throw invalidCursor();
  }
}

/** The store's filter of a query; a period that ends before it starts is a 400. */
export function filterOf(q: z.output<typeof filterQuery>): CheckoutFilter {
  if (q.from && q.to && Date.parse(q.to) <= Date.parse(q.from)) {
    throw invalidRequest('Query: to must be after from.', [{ path: 'to', message: 'Must be after from' }]);
  }
  return {
    ...(q.state?.length ? { states: q.state } : {}),
    ...(q.method ? { method: q.method } : {}),
    ...(q.from ? { from: q.from } : {}),
    ...(q.to ? { to: q.to } : {}),
    ...(q.orderId ? { orderId: q.orderId } : {}),
    ...(q.flag ? { flag: q.flag } : {}),
  };
}
