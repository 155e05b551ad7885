/**
 * The pull feed of the merchant's events, `GET /webhook-events?after=&type=&limit=`: oldest first from a cursor, for
 * a backend that was down, or that reconciles from the feed instead of (or besides) receiving webhooks. Each event is
 * the one a webhook carries (server/store/merchant-events.ts); `nextCursor` is the `after` of the next page.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { MERCHANT_EVENT_TYPES } from '../store/merchant-events';
import type { Store } from '../store/types';
import { parseQuery } from '../bff/validate';

const feedQuery = z.object({
  /** The `seq` of the last event already read; none: from the first. */
  after: z
    .string()
    .regex(/^\d{1,15}$/, 'A cursor from nextCursor')
    .optional(),
  /** Comma-separated event types. */
  type: z
    .string()
    .max(500)
    .transform((list) => list.split(',').filter(Boolean))
    .pipe(z.array(z.enum(MERCHANT_EVENT_TYPES as [string, ...string[]])))
    .optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export function webhookEventRoutes({ store }: { store: Store }) {
  return new Hono().get('/webhook-events', async (c) => {
    const { after, type, limit } = parseQuery(c, feedQuery);
    const items = await store.merchantEventsAfter(Number(after ?? 0), limit, type);
    return c.json({ items, nextCursor: items.length ? String(items.at(-1)!.seq) : (after ?? null) });
  });
}
