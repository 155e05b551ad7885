/**
 * Refunds of paid checkouts, for the back office: `GET /checkouts/:id/refunds` shows what was paid, refunded and is
 * still refundable, who would get a refund (CPF masked) or why none can be made, the charges, and the refunds so far;
 * `POST /checkouts/:id/refunds` refunds `{ amount?: "12.34" }` (absent: everything still refundable) once per
 * `Idempotency-Key`, as a PIX cash-out to the payer's CPF linked to the checkout (server/payments/refunds.ts), kept
 * for an owner's approval above the threshold (202). `/checkouts/:id/refunds` is the route; the refund of a duplicate
 * payment, `GET/POST /checkouts/:id/refund`, stays as a thin alias of it (the whole refundable amount, with the
 * duplicate's checks) so the pages and scripts that call it keep working.
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { formatCents, parseCents } from '../../../core/money';
import { CASH_OUT_PENDING_APPROVAL, holdsRefund, type BackOfficeStore, type CashOut } from '../../store/back-office';
import type { CheckoutReadStore } from '../../store/checkout-store';
import { cashOutView, maskCpf, type CashOutDesk } from '../../payments/cashouts';
import { refundExists } from '../../payments/errors';
import { refundDescription, refundTotals, type Refunds } from '../../payments/refunds';
import { parseJson } from '../../http/json-body';
import type { BackOfficeEnv } from '../actor';
import { findCheckout } from '../checkout-view';
import { idempotencyKey } from '../idempotency-key';
import { auditedMovement } from '../movement-audit';
import { amount } from '../queries';
import type { CheckoutRefunds, RefundInput } from '../../../core/backoffice';
import { taking } from '../wire-check';

const refundBody = taking<RefundInput>()(z.object({ amount: amount.optional() }));

export interface RefundRoutesOptions {
  store: CheckoutReadStore & BackOfficeStore;
  desk: CashOutDesk;
  refunds: Refunds;
}

/** 201 for a refund sent now, 202 for one kept for an owner's approval, 200 for the key's refund answered again. */
const statusOf = (created: boolean, cashOut: CashOut) => (!created ? 200 : cashOut.state === CASH_OUT_PENDING_APPROVAL ? 202 : 201);

export function refundRoutes({ store, desk, refunds }: RefundRoutesOptions) {
  /** Refunds `amountCents` (undefined: all that is left) of the checkout of the route, audited as `refund.create`. */
  async function refund(c: Context<BackOfficeEnv>, amountCents: number | undefined, { duplicate }: { duplicate: boolean }) {
    const key = idempotencyKey(c);
    const checkoutId = c.req.param('id') ?? '';
    const details = { checkoutId, idempotencyKey: key, ...(amountCents !== undefined && { amount: formatCents(amountCents) }) };
    const { created, cashOut } = await auditedMovement(
      c,
      { action: 'refund.create', target: checkoutId, details },
      async () => {
        const checkout = await findCheckout(store, checkoutId);
        if (duplicate) {
          // The alias keeps the duplicate refund's answers: the key's refund, the duplicate's checks, and 409
          // `refund_exists` with the refund that already gives the payment back.
          const existing = await store.getCashOut(key);
          if (!existing || existing.refundOf !== checkout.id) {
            await refunds.assertDuplicate(checkout);
            const made = await store.refundsOf([checkout.id]);
            const holding = made.filter((r) => holdsRefund(r.state));
            if (refundTotals(checkout, made).refundableCents === 0 && holding.length > 0) throw refundExists(cashOutView(holding.at(-1)!));
          }
        }
        return refunds.refund(key, checkout, { amountCents, requestedBy: c.get('actor').name });
      },
      (result) => ({
        outcome: result.cashOut.state === CASH_OUT_PENDING_APPROVAL ? 'pending_approval' : 'ok',
        details: { amount: formatCents(result.cashOut.amountCents), state: result.cashOut.state, repeated: !result.created },
      }),
    );
    return c.json(cashOutView(cashOut), statusOf(created, cashOut));
  }

  return (
    new Hono<BackOfficeEnv>()
      .get('/checkouts/:id/refunds', async (c) => {
        const checkout = await findCheckout(store, c.req.param('id'));
        const { totals, recipient, reason, refunds: made } = await refunds.overview(checkout);
        const charges = recipient ? await desk.quote(totals.refundableCents).catch(() => undefined) : undefined;
        return c.json({
          checkoutId: checkout.id,
          paid: formatCents(totals.paidCents),
          refunded: formatCents(totals.refundedCents),
          refundable: formatCents(totals.refundableCents),
          recipient: recipient ? { name: recipient.name, cpf: maskCpf(recipient.cpf) } : null,
          ...(reason !== null && { reason }),
          charges: charges ?? null,
          data: made.map(cashOutView),
        } satisfies CheckoutRefunds);
      })
      .post('/checkouts/:id/refunds', async (c) => {
        const body = await parseJson(c, refundBody);
        return refund(c, body.amount === undefined ? undefined : parseCents(body.amount)!, { duplicate: false });
      })
      // The refund of a duplicate payment: an alias of /checkouts/:id/refunds (everything still refundable).
      .get('/checkouts/:id/refund', async (c) => {
        const checkout = await findCheckout(store, c.req.param('id'));
        await refunds.assertDuplicate(checkout);
        const recipient = await refunds.recipientOf(checkout);
        const { refundableCents } = await refunds.totalsOf(checkout);
        const charges = await desk.quote(refundableCents).catch(() => undefined);
        return c.json({
          checkoutId: checkout.id,
          recipient: { name: recipient.name, cpf: maskCpf(recipient.cpf) },
          key: { type: 'CPF', value: maskCpf(recipient.cpf) },
          amount: formatCents(refundableCents),
          charges: charges ?? null,
          description: refundDescription(checkout, refundableCents),
        });
      })
      .post('/checkouts/:id/refund', async (c) => refund(c, undefined, { duplicate: true }))
  );
}
