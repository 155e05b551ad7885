/**
 * The approvals of movements (maker-checker), for the back office: `GET /approvals?state=pending|decided` lists the
 * cash-outs, refunds and payment requests waiting for an owner's decision (oldest first) or decided (most recently
 * decided first); `POST /approvals/:key/approve` sends a cash-out or refund (through the saga, as
 * server/payments/approvals.ts does) and `POST /approvals/:key/reject` ends it; a payment request is decided at
 * `POST /approvals/payment-requests/:key/approve|reject` (its key is its own, apart from the cash-outs'). Only an
 * owner decides (actor.ts's `roleFor`), never the one who asked for it (403 `approval_by_maker`, the bearer token
 * included), and the bearer token never approves what a user asked for (403 `approval_by_token`: it is no second
 * person); of two decisions at once exactly one wins (409 `approval_not_pending` for the other). Every decision is
 * audited (`approval.approve`, `approval.reject`).
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { formatCents } from '../../../core/money';
import type { CashOut } from '../../store/back-office';
import type { CheckoutReadStore } from '../../store/checkout-store';
import type { Checkout } from '../../store/types';
import type { CompanyPayment } from '../../store/company-payments';
import type { Approvals, Decision } from '../../payments/approvals';
import { cashOutView, IDEMPOTENCY_KEY } from '../../payments/cashouts';
import { approvalNotFound } from '../../payments/errors';
import { parseQuery } from '../../http/json-body';
import type { BackOfficeEnv } from '../actor';
import { companyPaymentView } from '../company-payment-view';
import { auditedMovement } from '../movement-audit';
import type { ApprovalList, ApprovalView, CashOutApprovalView } from '../../../core/backoffice';

const approvalsQuery = z.object({
  state: z.enum(['pending', 'decided']).default('pending'),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

/** A movement as the approvals list shows it: its kind, the cash-out's view (CPF masked) and the refunded checkout. */
export function approvalView(cashOut: CashOut, checkout?: Checkout): CashOutApprovalView {
  return {
    kind: cashOut.refundOf ? 'refund' : 'cashout',
    ...cashOutView(cashOut),
    /** The refunded checkout (a refund's); null for a cash-out. */
    checkout: checkout ? { id: checkout.id, orderId: checkout.orderId, amount: formatCents(checkout.amountCents) } : null,
  };
}

/** The instant a list is ordered by: creation for those waiting (oldest first), the decision for decided ones (newest first). */
const orderOf = (state: 'pending' | 'decided') => (a: ApprovalView, b: ApprovalView) =>
  state === 'pending'
    ? compare(a.createdAt, b.createdAt) || compare(a.idempotencyKey, b.idempotencyKey)
    : compare(b.decidedAt ?? '', a.decidedAt ?? '') || compare(b.idempotencyKey, a.idempotencyKey);
/** Plain code-unit order, as the stores sort the keys (ISO instants sort as text). */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function approvalRoutes({ store, approvals }: { store: CheckoutReadStore; approvals: Approvals }) {
  /** The views of `movements`, each refund with its checkout. */
  async function views(movements: CashOut[]) {
    const ids = [...new Set(movements.flatMap((m) => (m.refundOf ? [m.refundOf] : [])))];
    const checkouts = new Map((await Promise.all(ids.map((id) => store.getCheckout(id)))).flatMap((c) => (c ? [[c.id, c]] : [])));
    return movements.map((m) => approvalView(m, m.refundOf ? checkouts.get(m.refundOf) : undefined));
  }

  /** The decision of the request's actor; the bearer token's is marked as no person's. */
  const decisionOf = (c: Context<BackOfficeEnv>, approve: boolean): Decision => ({
    approve,
    by: c.get('actor').name,
    byToken: c.get('actor').kind === 'token',
  });

  /** Approves or rejects the cash-out or refund of the route's key, audited as `approval.approve` or `approval.reject`. */
  async function decide(c: Context<BackOfficeEnv>, approve: boolean) {
    const key = c.req.param('key') ?? '';
    const action = approve ? 'approval.approve' : 'approval.reject';
    const decided = await auditedMovement(
      c,
      { action, target: key, details: { idempotencyKey: key } },
      async () => {
        if (!IDEMPOTENCY_KEY.test(key)) throw approvalNotFound();
        return approvals.decide(key, decisionOf(c, approve));
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

  /** Approves (the provider is asked for it) or rejects the payment request of the route's key, audited alike. */
  async function decidePayment(c: Context<BackOfficeEnv>, approve: boolean) {
    const key = c.req.param('key') ?? '';
    const action = approve ? 'approval.approve' : 'approval.reject';
    const decided = await auditedMovement(
      c,
      { action, target: key, details: { idempotencyKey: key, kind: 'payment_request' } },
      async () => {
        if (!IDEMPOTENCY_KEY.test(key)) throw approvalNotFound();
        return approvals.decideCompanyPayment(key, decisionOf(c, approve));
      },
      (payment: CompanyPayment) => ({
        outcome: 'ok',
        details: { amount: formatCents(payment.amountCents), state: payment.state, requestId: payment.requestId },
      }),
    );
    return c.json(companyPaymentView(decided));
  }

  return new Hono<BackOfficeEnv>()
    .get('/approvals', async (c) => {
      const { state, limit } = parseQuery(c, approvalsQuery);
      const [movements, payments] = await Promise.all([approvals.list(state, limit), approvals.listCompanyPayments(state, limit)]);
      const data = [...(await views(movements)), ...payments.map(companyPaymentView)].sort(orderOf(state)).slice(0, limit);
      return c.json({ state, data } satisfies ApprovalList);
    })
    .post('/approvals/payment-requests/:key/approve', (c) => decidePayment(c, true))
    .post('/approvals/payment-requests/:key/reject', (c) => decidePayment(c, false))
    .post('/approvals/:key/approve', (c) => decide(c, true))
    .post('/approvals/:key/reject', (c) => decide(c, false));
}
