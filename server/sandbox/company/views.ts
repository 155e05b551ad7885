/** The partner API's shapes of a payment request, built from the stored request and its transaction. */
import { formatAmount6, requireCents } from '../../../core/money';
import type { PaymentRequest, PaymentRequestDetail } from '../../provider/schemas';
import type { TransactionStore } from '../store';
import type { CompanyStore, StoredRequest } from './store';

/** The fields the create operation answers with. */
export function requestView(r: StoredRequest): PaymentRequest {
  return {
    id: r.id,
    amount: formatAmount6(requireCents(r.amount)),
    status: r.status,
    pixKey: r.pixKey,
    pixKeyType: 'CNPJ',
    description: r.description,
    refReceiver: r.receiverId,
    refBankAccount: r.accountId,
    refTransaction: r.transactionId,
    referencesInfo: { receiverName: r.receiverName, customerName: r.customerName },
  };
}

/**
 * List and detail add the execution fields, read from the transaction itself so that anything that moves it (the
 * execution timers, a sandbox simulation) shows here without a second copy to keep in step.
 */
export function executedView(r: StoredRequest, transactions: TransactionStore): PaymentRequest {
  const tx = r.transactionId ? transactions.get(r.transactionId) : undefined;
  const t = tx?.record.transaction;
  return {
    ...requestView(r),
    executionState: t?.state ?? null,
    executionCreatedDate: t?.date ?? null,
    // The record shows its registration date only while Registered; the execution keeps it once known.
    executionRegisteredDate: tx?.internal.registeredAt ?? t?.stateRegisteredDate ?? null,
    executionCompletedDate: t?.stateCompletedDate ?? null,
  };
}

export const detailView = (r: StoredRequest, company: CompanyStore, transactions: TransactionStore): PaymentRequestDetail => ({
  entity: executedView(r, transactions),
  flows: company.steps(r.id),
});
