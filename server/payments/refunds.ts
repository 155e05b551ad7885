/**
 * Refunds of paid checkouts, whole or partial: a PIX cash-out to the payer's CPF (as the provider's record names the
 * payer), made by the cash-out desk (./cashouts.ts) and linked to its checkout. Only a Completed checkout is refunded,
 * and its refunds never add up to more than it was paid: the store checks the sum in the reservation's transaction,
 * so concurrent refunds on any instance cannot pass it. Here: what a checkout's refunds add up to, who gets a refund,
 * and the refund under an `Idempotency-Key` (the same key with the same request answers the same refund). The
 * refund of a duplicate payment is one of these (the whole amount, with the duplicate's checks).
 */
import { isValidCpf } from '../../core/cpf';
import { formatCents } from '../../core/money';
import { COMPLETED } from '../../core/states';
import type { ProviderClient } from '../provider';
import { CASH_OUT_SENDING, holdsRefund, type BackOfficeStore, type CashOut } from '../store/back-office';
import type { CheckoutReadStore } from '../store/checkout-store';
import type { Checkout } from '../store/types';
import { requestOf, sha256 } from './cashout-request';
import type { CashOutDesk } from './cashouts';
import {
  ApiError,
  checkoutNotPaid,
  idempotencyKeyReused,
  notADuplicatePayment,
  orderNotPaidTwice,
  payerNotRefundable,
  providerReadFailed,
  refundExceedsPaid,
} from './errors';

/** What a checkout's refunds add up to, in cents. */
export interface RefundTotals {
  /** What the checkout was paid (its amount; 0 when it is not Completed). */
  paidCents: number;
  /** The sum of its Completed refunds. */
  refundedCents: number;
  /** What can still be refunded: paid less every refund that holds its amount (waiting, under way or done). */
  refundableCents: number;
}

/** The totals of `checkout` with its `refunds` (any order). */
export function refundTotals(checkout: Checkout, refunds: readonly CashOut[]): RefundTotals {
  const sum = (list: readonly CashOut[]) => list.reduce((total, r) => total + BigInt(r.amountCents), 0n);
  const paid = checkout.state === COMPLETED ? BigInt(checkout.amountCents) : 0n;
  const held = sum(refunds.filter((r) => holdsRefund(r.state)));
  return {
    paidCents: Number(paid),
    refundedCents: Number(sum(refunds.filter((r) => r.state === COMPLETED))),
    refundableCents: Number(paid > held ? paid - held : 0n),
  };
}

/** The fingerprint of a refund request: its checkout and amount (the same key with another amount is refused). */
export const refundFingerprint = (checkoutId: string, amountCents: number) => sha256(`refund:${checkoutId}:${amountCents}`);

/** Whether `existing`, found under the key, answers a refund of `checkoutId` for `amountCents` (undefined: whatever was left). */
function answers(existing: CashOut, checkoutId: string, amountCents: number | undefined): boolean {
  if (existing.refundOf !== checkoutId) return false;
  return amountCents === undefined || existing.fingerprint === refundFingerprint(checkoutId, amountCents);
}

/** The description of a refund of `amountCents` of `checkout`, as the payer's bank shows it. */
export function refundDescription(checkout: Checkout, amountCents: number): string {
  const what = checkout.duplicateOf
    ? 'Reembolso do pagamento duplicado do pedido'
    : amountCents < checkout.amountCents
      ? 'Reembolso parcial do pedido'
      : 'Reembolso do pedido';
  return `${what} ${checkout.orderId}`.slice(0, 140);
}

export interface RefundRequest {
  /** Cents to give back; undefined: everything still refundable. */
  amountCents?: number | undefined;
  /** The back office's actor who asks. */
  requestedBy: string;
}

/** The refunds of paid checkouts (cash-outs to their payer), for the back office's routes. */
export interface Refunds {
  /** The payer a refund goes to, as the provider's record names them: a name and a valid CPF, else 409. */
  recipientOf(checkout: Checkout): Promise<{ name: string; cpf: string }>;
  totalsOf(checkout: Checkout): Promise<RefundTotals>;
  /**
   * What `GET /checkouts/:id/refunds` shows: the totals, who would get a refund (or why none can be made now: a
   * code, `refund_in_progress` while one of its refunds is still being sent), and the refunds so far, oldest first.
   */
  overview(checkout: Checkout): Promise<RefundOverview>;
  /**
   * Refunds `request.amountCents` of `checkout` (or all that is left) under `key`, or answers the key's refund:
   * `created` says which. The key with another request is 422; a checkout not Completed 409 `checkout_not_paid`;
   * while another refund of it is still being sent (its outcome unknown) 409 `refund_in_progress`; more than is left
   * 409 `refund_exceeds_paid` (with what is left).
   */
  refund(key: string, checkout: Checkout, request: RefundRequest): Promise<{ created: boolean; cashOut: CashOut }>;
  /**
   * The checks of the refund of a duplicate payment (`/checkouts/:id/refund`, kept for the console's older pages):
   * a Completed duplicate of an order that another checkout paid too.
   */
  assertDuplicate(checkout: Checkout): Promise<void>;
}

export interface RefundsOptions {
  provider: ProviderClient;
  store: BackOfficeStore & CheckoutReadStore;
  desk: CashOutDesk;
}

/** What `GET /checkouts/:id/refunds` shows of a checkout. */
export interface RefundOverview {
  totals: RefundTotals;
  /** Who a refund would go to; null when none can be made now (`reason` says why). */
  recipient: { name: string; cpf: string } | null;
  /** The code of why no refund can be made now, or null. */
  reason: string | null;
  /** Its refunds so far, oldest first. */
  refunds: CashOut[];
}

export function createRefunds({ provider, store, desk }: RefundsOptions): Refunds {
  /** The payer a refund goes to, as the provider's record names them: a name and a valid CPF, else 409. */
  async function recipientOf(checkout: Checkout): Promise<{ name: string; cpf: string }> {
    if (!checkout.transactionId) throw payerNotRefundable();
    const record = await provider.transactions.retrieve(checkout.transactionId).catch((error: unknown) => {
      throw providerReadFailed(error);
    });
    const payer = record.transaction.payer;
    const cpf = payer?.taxNumber?.replace(/\D/g, '') ?? '';
    if (!payer?.name || !isValidCpf(cpf)) throw payerNotRefundable();
    return { name: payer.name.slice(0, 120), cpf };
  }

  const totalsOf = async (checkout: Checkout) => refundTotals(checkout, await store.refundsOf([checkout.id]));

  return {
    recipientOf,
    totalsOf,
    async overview(checkout: Checkout) {
      const refunds = await store.refundsOf([checkout.id]);
      const totals = refundTotals(checkout, refunds);
      let recipient: { name: string; cpf: string } | null = null;
      let reason: string | null = null;
      if (checkout.state !== COMPLETED) reason = 'checkout_not_paid';
      else if (refunds.some((r) => r.state === CASH_OUT_SENDING)) reason = 'refund_in_progress';
      else if (totals.refundableCents === 0) reason = 'refund_exceeds_paid';
      else {
        recipient = await recipientOf(checkout).catch((error: unknown) => {
          reason = error instanceof ApiError ? error.code : 'provider_unavailable';
          return null;
        });
      }
      return { totals, recipient, reason, refunds };
    },
    async refund(
      key: string,
      checkout: Checkout,
      { amountCents, requestedBy }: RefundRequest,
    ): Promise<{ created: boolean; cashOut: CashOut }> {
      // A key already used answers its refund, even once the checkout has nothing left to refund (it was).
      const existing = await store.getCashOut(key);
      if (existing) {
        if (!answers(existing, checkout.id, amountCents)) throw idempotencyKeyReused();
        // Still being sent (a twin request): the desk waits for its answer.
        if (existing.state !== CASH_OUT_SENDING) return { created: false, cashOut: existing };
        return desk.send(key, { ...requestOf(existing), fingerprint: existing.fingerprint, wholeRefund: true, requestedBy });
      }
      if (checkout.state !== COMPLETED) throw checkoutNotPaid(checkout.state);
      const recipient = await recipientOf(checkout);
      const cents = amountCents ?? (await totalsOf(checkout)).refundableCents;
      if (cents <= 0) {
        // Nothing left: unless a twin request under this key took it a moment ago (the desk answers its refund).
        const twin = await store.getCashOut(key);
        if (!twin || !answers(twin, checkout.id, amountCents)) throw refundExceedsPaid(formatCents(0));
        return desk.send(key, { ...requestOf(twin), fingerprint: twin.fingerprint, wholeRefund: true, requestedBy });
      }
      return desk.send(key, {
        recipient,
        key: { type: 'CPF', value: recipient.cpf },
        amountCents: cents,
        refundOf: checkout.id,
        description: refundDescription(checkout, cents),
        fingerprint: refundFingerprint(checkout.id, cents),
        wholeRefund: amountCents === undefined,
        requestedBy,
      });
    },
    async assertDuplicate(checkout: Checkout): Promise<void> {
      if (!checkout.duplicateOf || checkout.state !== COMPLETED) throw notADuplicatePayment();
      const order = await store.findCheckoutsByOrder(checkout.orderId);
      if (!order.some((c) => c.id !== checkout.id && c.state === COMPLETED)) throw orderNotPaidTwice();
    },
  };
}
