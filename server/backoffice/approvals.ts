/**
 * The approvals of cash-outs and refunds (maker-checker), for the back office: `GET /approvals?state=pending|decided`
 * lists the movements waiting for an owner's decision (oldest first) or decided (most recently decided first);
 * `POST /approvals/:key/approve` sends one (through the saga, as server/payments/approvals.ts does) and
 * `POST /approvals/:key/reject` ends it. Only an owner decides (actor.ts's `roleFor`), never the one who asked for it
 * (403 `approval_by_maker`, the bearer token included); of two decisions at once exactly one wins (409
 * `approval_not_pending` for the other). Every decision is audited (`approval.approve`, `approval.reject`).
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { formatCents } from '../../core/money';
import type { CashOut } from '../store/back-office';
import type { Checkout, Store } from '../store/types';
import type { Approvals } from '../payments/approvals';
import { cashOutView, IDEMPOTENCY_KEY } from '../payments/cashouts';
import { approvalNotFound } from '../payments/errors';
import { parseQuery } from '../bff/validate';
import type { AdminEnv } from './actor';
import { auditedMovement } from './movement-audit';

const approvalsQuery = z.object({
  state: z.enum(['pending', 'decided']).default('pending'),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

/** A movement as the approvals list shows it: its kind, the cash-out's view (CPF masked) and the refunded checkout. */
export function approvalView(cashOut: CashOut, checkout?: Checkout) {
  return {
    kind: cashOut.refundOf ? ('refund' as const) : ('cashout' as const),
    ...cashOutView(cashOut),
    /** The refunded checkout (a refund's); null for a cash-out. */
    checkout: checkout ? { id: checkout.id, orderId: checkout.orderId, amount: formatCents(checkout.amountCents) } : null,
  };
}
export type ApprovalView = ReturnType<typeof approvalView>;

export function approvalRoutes({ store, approvals }: { store: Store; approvals: Approvals }) {
  /** The views of `movements`, each refund with its checkout. */
  async function views(movements: CashOut[]) {
    const ids = [...new Set(movements.flatMap((m) => (m.refundOf ? [m.refundOf] : [])))];
    const checkouts = new Map((await Promise.all(ids.map((id) => store.getCheckout(id)))).flatMap((c) => (c ? [[c.id, c]] : [])));
    return movements.map((m) => approvalView(m, m.refundOf ? checkouts.get(m.refundOf) : undefined));
  }

  /** Approves or rejects the movement of the route's key, audited as `approval.approve` or `approval.reject`. */
  async function decide(c: Context<AdminEnv>, approve: boolean) {
    const key = c.req.param('key') ?? '';
    const action = approve ? 'approval.approve' : 'approval.reject';
    const decided = await auditedMovement(
      c,
      { action, target: key, details: { idempotencyKey: key } },
      async () => {
        if (!IDEMPOTENCY_KEY.test(key)) throw approvalNotFound();
        return approvals.decide(key, { approve, by: c.get('actor').name });
      },
      (cashOut) => ({
        outcome: 'ok',
        details: {
          kind: cashOut.refundOf ? 'refund' : 'cashout',
          amount: formatCents(cashOut.amountCents),
          state: cashOut.state,
          ...(cashOut.refundOf && { checkoutId: cashOut.refundOf }),
        },
      }),
    );
    return c.json((await views([decided]))[0]!);
  }

  return new Hono<AdminEnv>()
    .get('/approvals', async (c) => {
      const { state, limit } = parseQuery(c, approvalsQuery);
      return c.json({ state, data: await views(await approvals.list(state, limit)) });
    })
    .post('/approvals/:key/approve', (c) => decide(c, true))
    .post('/approvals/:key/reject', (c) => decide(c, false));
}
