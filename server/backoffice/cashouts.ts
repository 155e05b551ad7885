/**
 * Cash-outs for the back office: `POST /cashouts` sends a PIX to a key, once per `Idempotency-Key` (the same key, from
 * a double click, a retry or another instance, answers the same cash-out); `GET /cashouts` lists the recent ones, those
 * still moving re-read first; `GET /cashouts/quote` tells the charges of an amount. The desk itself, which makes each
 * one safely, is server/payments/cashouts.ts.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { parseCents } from '../../core/money';
import { pixKeyType } from '../provider';
import { cashOutView, type CashOutDesk } from '../payments/cashouts';
import { parseJson, parseQuery } from '../bff/validate';
import { idempotencyKey } from './idempotency-key';
import { amount } from './queries';

const cashOutBody = z.object({
  recipient: z.object({ name: z.string().trim().min(1).max(120), cpf: z.string().max(32) }),
  key: z.object({ type: pixKeyType, value: z.string().trim().min(1).max(140) }),
  amount,
  orderId: z.string().trim().min(1).max(64).optional(),
  description: z.string().trim().max(140).optional(),
});
const cashOutsQuery = z.object({ limit: z.coerce.number().int().min(1).max(50).default(10) });
const quoteQuery = z.object({ amount });

export function cashOutRoutes({ desk }: { desk: CashOutDesk }) {
  return new Hono()
    .post('/cashouts', async (c) => {
      const key = idempotencyKey(c);
      const body = await parseJson(c, cashOutBody);
      const { created, cashOut } = await desk.send(key, {
        recipient: { name: body.recipient.name, cpf: body.recipient.cpf.replace(/\D/g, '') },
        key: body.key,
        amountCents: parseCents(body.amount)!,
        orderId: body.orderId,
        description: body.description,
      });
      return c.json(cashOutView(cashOut), created ? 201 : 200);
    })
    .get('/cashouts', async (c) => {
      const { limit } = parseQuery(c, cashOutsQuery);
      return c.json({ items: (await desk.recent(limit)).map(cashOutView) });
    })
    .get('/cashouts/quote', async (c) => {
      const q = parseQuery(c, quoteQuery);
      const charges = await desk.quote(parseCents(q.amount)!).catch(() => undefined);
      return c.json({ amount: q.amount, charges: charges ?? null });
    });
}
