/** Where a payment request stands, read from its detail. */
import { isFinalTransactionState } from '../../core/states';
import type { PaymentRequestDetailView } from '../../core/backoffice';

/**
 * The approval status to show: a cancelled request is Rejected with a last flow step that says Cancelled (the
 * provider has no status of its own for it), so it shows as Cancelled.
 */
export function displayStatus(detail: PaymentRequestDetailView): string {
  const last = detail.flows.at(-1)?.status;
  return detail.entity.status === 'Rejected' && last === 'Cancelled' ? 'Cancelled' : detail.entity.status;
}

/** Nothing more can happen: refused or cancelled, or approved and its transaction finished. */
export function isSettled({ entity }: PaymentRequestDetailView): boolean {
  if (entity.status === 'Pending') return false;
  if (entity.status === 'Rejected') return true;
  return !!entity.executionState && isFinalTransactionState(entity.executionState);
}
