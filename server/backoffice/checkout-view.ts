/**
 * A payment received as the back office shows it (`adminCheckoutView`): its list rows, its detail, its CSV export and
 * its refunds all show a checkout this way; late and duplicate payments flagged, each with its refunds (whole or
 * partial) and what they gave back, never payer data.
 */
import type { AdminCheckoutView } from '../../core/backoffice';
import { paidLate } from '../../core/checkout-machine';
import { formatCents, formatDecimal, MICRO_SCALE, microsOf, parseDecimal } from '../../core/money';
import { holdsRefund, type BackOfficeStore, type CashOut } from '../store/back-office';
import type { CheckoutReadStore } from '../store/checkout-store';
import type { Checkout } from '../store/types';
import { cashOutView } from '../payments/cashouts';
import { refundTotals } from '../payments/refunds';
import { checkoutNotFound } from '../payments/errors';
import { expiresAtOf } from '../payments/window';

const COMPLETED = 'Completed';
const text = (details: Record<string, unknown>, name: string) => {
  const value = details[name];
  return typeof value === 'string' ? value : null;
};

/** Paid after its payment window ended (however the BFF heard of it): `paidLate` of core/checkout-machine.ts. */
export const isLate = (c: Checkout) => c.state === COMPLETED && paidLate(text(c.details, 'paidAt') ?? undefined, c.expiresAt);

/**
 * The provider's fee on a paid checkout (its charges, kept by payments/receipt.ts) and what the merchant nets, amount
 * − fee, both exact at the provider's six decimals ("0.599000", "9.401000"); null when the provider gave no charges.
 */
function feeAndNet(c: Checkout): { fee: string | null; net: string | null } {
  const charges = c.state === COMPLETED ? text(c.details, 'charges') : null;
  const fee = charges === null ? undefined : parseDecimal(charges, MICRO_SCALE);
  if (fee === undefined) return { fee: null, net: null };
  return { fee: formatDecimal(fee, MICRO_SCALE), net: formatDecimal(microsOf(c.amountCents) - fee, MICRO_SCALE) };
}

/** A refund counts while it holds its amount (waiting for approval, sending, under way or done); the latest one is shown. */
const liveRefund = (refunds: CashOut[]) => refunds.filter((r) => holdsRefund(r.state)).at(-1) ?? refunds.at(-1);

const NOTHING_REFUNDED = formatCents(0);

/** One row of the back-office list (core/backoffice's `AdminCheckoutView`): what the merchant needs, no payer data. */
export function adminCheckoutView(c: Checkout, refunds: CashOut[] = []): AdminCheckoutView {
  const refund = liveRefund(refunds);
  return {
    id: c.id,
    orderId: c.orderId,
    method: c.method,
    state: c.state,
    amount: formatCents(c.amountCents),
    description: c.description,
    transactionId: c.transactionId,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    expiresAt: expiresAtOf(c),
    paidAt: c.state === COMPLETED ? text(c.details, 'paidAt') : null,
    payerBank: c.state === COMPLETED ? text(c.details, 'payerBank') : null,
    ...feeAndNet(c),
    duplicateOf: c.duplicateOf,
    late: isLate(c),
    /** The latest refund that counts (else the latest one): kept for the pages that show one refund. */
    refund: refund ? cashOutView(refund) : null,
    refunds: refunds.map(cashOutView),
    refunded: refunds.length === 0 ? NOTHING_REFUNDED : formatCents(refundTotals(c, refunds).refundedCents),
  };
}

/** The rows' views, each with its refunds (one store query for all of them). */
export const viewsWithRefunds = (store: Pick<BackOfficeStore, 'refundsOf'>) => async (checkouts: Checkout[]) => {
  // Grouped once, in their order (oldest first): an export's page asks this for hundreds of checkouts, most with none.
  const byCheckout = new Map<string, CashOut[]>();
  for (const refund of await store.refundsOf(checkouts.map((c) => c.id))) {
    if (refund.refundOf === null) continue;
    const list = byCheckout.get(refund.refundOf);
    if (list) list.push(refund);
    else byCheckout.set(refund.refundOf, [refund]);
  }
  return checkouts.map((c) => adminCheckoutView(c, byCheckout.get(c.id)));
};

/** The checkout `id`, or a 404 for an unknown one or one still being created. */
export async function findCheckout(store: CheckoutReadStore, id: string): Promise<Checkout> {
  const checkout = id.length <= 64 ? await store.getCheckout(id) : undefined;
  if (!checkout || checkout.state === 'Creating') throw checkoutNotFound('No such checkout.');
  return checkout;
}
