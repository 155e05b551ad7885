/**
 * The refund of a duplicate payment, for the back office: `GET /checkouts/:id/refund` shows who would get what (CPF
 * masked) and the charges, `POST /checkouts/:id/refund` sends it, once per `Idempotency-Key`, as a PIX cash-out to the
 * payer's CPF, linked to the checkout. Only a Completed duplicate of an order paid by another checkout too qualifies.
 */
import { Hono } from 'hono';
import { isValidCpf } from '../../core/cpf';
import { formatCents } from '../../core/money';
import type { ProviderClient } from '../provider';
import type { Checkout, Store } from '../store/types';
import { cashOutView, maskCpf, sha256, type CashOutDesk } from '../payments/cashouts';
import { notADuplicatePayment, orderNotPaidTwice, payerNotRefundable, providerReadFailed } from '../payments/errors';
import { findCheckout } from './checkouts';
import { idempotencyKey } from './idempotency-key';

const COMPLETED = 'Completed';

export interface RefundRoutesOptions {
  provider: ProviderClient;
  store: Store;
  desk: CashOutDesk;
}

export function refundRoutes({ provider, store, desk }: RefundRoutesOptions) {
  /**
   * Who gets a refund of this checkout, or why it cannot have one: only a Completed duplicate of an order that was
   * also paid by another checkout, whose payer the provider names with a valid CPF (the refund goes to that CPF as
   * a PIX key).
   */
  async function refundPlan(checkout: Checkout) {
    if (!checkout.duplicateOf || checkout.state !== COMPLETED) throw notADuplicatePayment();
    const order = await store.findCheckoutsByOrder(checkout.orderId);
    if (!order.some((c) => c.id !== checkout.id && c.state === COMPLETED)) throw orderNotPaidTwice();
    const record = await provider.transactions.retrieve(checkout.transactionId!).catch((error: unknown) => {
      throw providerReadFailed(error);
    });
    const payer = record.transaction.payer;
    const cpf = payer?.taxNumber?.replace(/\D/g, '') ?? '';
    if (!payer?.name || !isValidCpf(cpf)) throw payerNotRefundable();
    return {
      recipient: { name: payer.name.slice(0, 120), cpf },
      key: { type: 'CPF' as const, value: cpf },
      amountCents: checkout.amountCents,
      refundOf: checkout.id,
      description: `Reembolso do pagamento duplicado do pedido ${checkout.orderId}`.slice(0, 140),
    };
  }

  return new Hono()
    .get('/checkouts/:id/refund', async (c) => {
      const checkout = await findCheckout(store, c.req.param('id'));
      const plan = await refundPlan(checkout);
      const charges = await desk.quote(plan.amountCents).catch(() => undefined);
      return c.json({
        checkoutId: checkout.id,
        recipient: { name: plan.recipient.name, cpf: maskCpf(plan.recipient.cpf) },
        key: { type: plan.key.type, value: maskCpf(plan.key.value) },
        amount: formatCents(plan.amountCents),
        charges: charges ?? null,
        description: plan.description,
      });
    })
    .post('/checkouts/:id/refund', async (c) => {
      const key = idempotencyKey(c);
      const checkout = await findCheckout(store, c.req.param('id'));
      // A key already used answers its cash-out, even once the checkout can no longer be refunded (it was).
      const existing = await store.getCashOut(key);
      if (existing && existing.refundOf === checkout.id && existing.fingerprint === sha256(`refund:${checkout.id}`)) {
        return c.json(cashOutView(existing), 200);
      }
      const plan = await refundPlan(checkout);
      const { created, cashOut } = await desk.send(key, { ...plan, fingerprint: sha256(`refund:${checkout.id}`) });
      return c.json(cashOutView(cashOut), created ? 201 : 200);
    });
}
