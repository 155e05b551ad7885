/**
 * The query and body pieces several back-office resources share: an amount, a page of the provider's lists, an
 * instant a filter of our own lists may name, and the dates the back office may ask the provider about (a typo or a
 * probe is a 400 here, not a provider call).
 */
import { z } from 'zod';
import { parseCents } from '../../core/money';
import { approvalFilter } from '../provider';
import type { Clock } from '../lib/clock';

/** A positive amount in reais with at most two decimals, as the forms send it ("150.00"). */
export const amount = z.string().refine((v) => (parseCents(v) ?? 0) > 0, 'A positive amount with at most 2 decimals, like "150.00"');

/** A page of one of the provider's lists: 5, 10 or 20 items from an offset. */
export const pageQuery = {
  limit: z.coerce
    .number()
    .pipe(z.union([z.literal(5), z.literal(10), z.literal(20)]))
    .default(10),
  offset: z.coerce.number().int().min(0).default(0),
};

/**
 * An instant a filter of our own lists may name (the payments, the audit trail), one both databases can compare:
 * PostgreSQL's timestamps have no year 0, and a filter needs no other era.
 */
export const filterInstant = z.iso.datetime({ offset: true }).refine((value) => {
  const year = new Date(value).getUTCFullYear();
  return year >= 1970 && year <= 9999;
}, 'A date and time from 1970 to 9999');

/** Dates the back-office may ask about: from 2000 to a year from now (anything else is a typo or a probe). */
const EARLIEST = Date.UTC(2000, 0, 1);
const YEAR_MS = 366 * 24 * 60 * 60 * 1000;

/** The queries that carry dates, checked against `clock`: the payment requests' period and the transactions' day. */
export function saneDates(clock: Clock) {
  const inRange = (iso: string) => {
    const ms = Date.parse(iso);
    return Number.isFinite(ms) && ms >= EARLIEST && ms <= clock.now().getTime() + YEAR_MS;
  };
  const message = 'A date from 2000-01-01 to a year from now';
  const instant = z.iso.datetime().refine(inRange, message);
  // The ISO pattern alone lets 2023-02-30 through; the date must also read back as itself. (Refinements run after a
  // failed format check too, so they must not throw on any string.)
  const calendarDay = (d: string) => {
    const ms = Date.parse(`${d}T00:00:00.000Z`);
    return Number.isFinite(ms) && new Date(ms).toISOString().startsWith(`${d}T`);
  };
  const day = z.iso
    .date()
    .refine(calendarDay, 'A calendar date')
    .refine((d) => inRange(`${d}T00:00:00.000Z`), message);
  return {
    requestsQuery: z
      .object({ ...pageQuery, status: approvalFilter.default('Pending'), startDate: instant, endDate: instant })
      .refine((q) => Date.parse(q.endDate) >= Date.parse(q.startDate), { message: 'Must not be before startDate', path: ['endDate'] }),
    transactionsQuery: z.object({ orderId: z.string().min(1).max(64), date: day.optional() }),
  };
}
