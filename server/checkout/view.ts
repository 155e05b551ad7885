/** What a browser may see of a checkout: no payer data beyond what it sent, no provider secrets. */
import { formatCents } from '../lib/money';
import type { Checkout, CheckoutState } from '../store/types';

export const FINAL_CHECKOUT_STATES: readonly CheckoutState[] = ['Completed', 'Error', 'Cancelled', 'Reversed'];
export const isFinal = (state: CheckoutState) => FINAL_CHECKOUT_STATES.includes(state);

/** Forward order of states; a webhook or re-read may only move a checkout to a higher rank. */
const RANK: Record<CheckoutState, number> = {
  Creating: 0,
  Created: 1,
  Registered: 2,
  Completed: 3,
  Error: 3,
  Cancelled: 3,
  Reversed: 3,
};

/** The states a checkout may leave to reach `to`: every non-final state ranked below it. */
export function statesBefore(to: CheckoutState): CheckoutState[] {
  return (Object.keys(RANK) as CheckoutState[]).filter((s) => s !== 'Creating' && !isFinal(s) && RANK[s] < RANK[to]);
}

export type CheckoutView = ReturnType<typeof toView>;

export function toView(checkout: Checkout) {
  return {
    id: checkout.id,
    orderId: checkout.orderId,
    method: checkout.method,
    state: checkout.state,
    amount: formatCents(BigInt(checkout.amountCents)),
    currency: checkout.currency,
    description: checkout.description,
    transactionId: checkout.transactionId,
    ...(checkout.qrCode ? { qrCode: checkout.qrCode, qrCodeLocation: checkout.qrCodeLocation } : {}),
    ...(checkout.checkoutUrl ? { checkoutUrl: checkout.checkoutUrl } : {}),
    createdAt: checkout.createdAt,
    updatedAt: checkout.updatedAt,
  };
}
