/**
 * Cash-outs for the back office: `POST /cashouts` sends a PIX to a key, once per `Idempotency-Key` (the same key, from
 * a double click, a retry or another instance, answers the same cash-out), or keeps it for an owner's approval when
 * it is above the threshold (202, `PendingApproval`: nothing is sent before, see approvals.ts); `GET /cashouts` lists
 * the recent ones, those still moving re-read first; `GET /cashouts/quote` tells the charges of an amount. The desk
 * itself, which makes each one safely, is server/payments/cashouts.ts.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { parseCents } from '../../../core/money';
import { pixKeyType } from '../../provider';
import { CASH_OUT_PENDING_APPROVAL } from '../../store/back-office';
import { cashOutView, type CashOutDesk } from '../../payments/cashouts';
import { parseJson, parseQuery } from '../../http/json-body';
import type { BackOfficeEnv } from '../actor';
import { idempotencyKey } from '../idempotency-key';
import { auditedMovement } from '../movement-audit';
import { amount } from '../queries';
import type { CashOutInput, CashOutQuote, CashOutView } from '../../../core/backoffice';
import { taking } from '../wire-check';

const cashOutBody = taking<CashOutInput>()(
  z.object({
    recipient: z.object({ name: z.string().trim().min(1).max(120), cpf: z.string().max(32) }),
    key: z.object({ type: pixKeyType, value: z.string().trim().min(1).max(140) }),
    amount,
    orderId: z.string().trim().min(1).max(64).optional(),
    description: z.string().trim().max(140).optional(),
  }),
);
const cashOutsQuery = z.object({ limit: z.coerce.number().int().min(1).max(50).default(10) });
const quoteQuery = z.object({ amount });

export function cashOutRoutes({ desk }: { desk: CashOutDesk }) {
  return new Hono<BackOfficeEnv>()
    .post('/cashouts', async (c) => {
      const key = idempotencyKey(c);
      const body = await parseJson(c, cashOutBody);
      // Audited without the recipient: the key type says where money goes, the CPF never enters the trail.
      const details = { idempotencyKey: key, amount: body.amount, keyType: body.key.type };
      const { created, cashOut } = await auditedMovement(
        c,
        { action: 'cashout.create', target: key, details },
        () =>
          desk.send(key, {
            recipient: { name: body.recipient.name, cpf: body.recipient.cpf.replace(/\D/g, '') },
            key: body.key,
            amountCents: parseCents(body.amount)!,
            orderId: body.orderId,
            description: body.description,
            requestedBy: c.get('actor').name,
          }),
        (result) => ({
          outcome: result.cashOut.state === CASH_OUT_PENDING_APPROVAL ? 'pending_approval' : 'ok',
          details: { state: result.cashOut.state, repeated: !result.created },
        }),
      );
      const pending = cashOut.state === CASH_OUT_PENDING_APPROVAL;
      return c.json(cashOutView(cashOut), !created ? 200 : pending ? 202 : 201);
    })
    .get('/cashouts', async (c) => {
      const { limit } = parseQuery(c, cashOutsQuery);
      return c.json({ items: (await desk.recent(limit)).map(cashOutView) } satisfies { items: CashOutView[] });
    })
    .get('/cashouts/quote', async (c) => {
      const q = parseQuery(c, quoteQuery);
      const charges = await desk.quote(parseCents(q.amount)!).catch(() => undefined);
      return c.json({ amount: q.amount, charges: charges ?? null } satisfies CashOutQuote);
    });
}
