/** What a browser may see of a checkout: no payer data beyond what it sent, no provider secrets. */
import { formatCents } from '../../core/money';
import type { CheckoutState } from '../../core/states';
import type { Checkout } from '../store/types';
import { METHOD_ADAPTERS } from './methods';

export type CheckoutView = ReturnType<typeof toView>;

/** The wire shape of a checkout; `state` is never `Creating` here, because routes treat such a checkout as not found. */
export function toView(checkout: Checkout) {
  const fields = Object.entries(METHOD_ADAPTERS[checkout.method].view(checkout.details)).filter(([, value]) => value !== null);
  return {
    id: checkout.id,
    orderId: checkout.orderId,
    method: checkout.method,
    state: checkout.state as CheckoutState,
    amount: formatCents(BigInt(checkout.amountCents)),
    currency: checkout.currency,
    description: checkout.description,
    transactionId: checkout.transactionId,
    ...(Object.fromEntries(fields) as Record<string, string>),
    createdAt: checkout.createdAt,
    updatedAt: checkout.updatedAt,
  };
}
