/**
 * `GET /foreign-transactions`: provider transactions of our orders that the BFF would not adopt because they are not
 * provably ours (no secret echoed, another webhook receiver, another amount than the order's, an unknown order).
 * They are never shown to a shopper; the merchant sees them here, to look into (a probe, a misconfigured second
 * deployment, a price changed after the code was made).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { BackOfficeStore } from '../../store/back-office';
import { parseQuery } from '../../http/json-body';

const foreignQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(50) });

export function foreignTransactionRoutes({ store }: { store: Pick<BackOfficeStore, 'listForeignTransactions'> }) {
  return new Hono().get('/foreign-transactions', async (c) => {
    const { limit } = parseQuery(c, foreignQuery);
    return c.json({ items: await store.listForeignTransactions(limit) });
  });
}
