/**
 * What the back office shows of a payment request it keeps (server/store/company-payments.ts): the approvals list's
 * row of one waiting for (or given) an owner's decision, and the answer of one kept for approval. The receiver is a
 * company: its CNPJ is shown whole, as the receivers list shows it.
 */
import { formatCents } from '../../core/money';
import type { CompanyPayment } from '../store/company-payments';

export function companyPaymentView(p: CompanyPayment) {
  return {
    kind: 'payment_request' as const,
    idempotencyKey: p.idempotencyKey,
    state: p.state,
    amount: formatCents(p.amountCents),
    description: p.description,
    /** The receiver and its account as the provider listed them when the request was kept (null names below the threshold). */
    receiver: { id: p.receiverId, name: p.receiverName, cnpj: p.receiverCnpj },
    account: { id: p.accountId, bankName: p.bankName, agency: p.accountAgency, number: p.accountNumber },
    /** The provider's payment request, once it was asked for; null before. */
    requestId: p.requestId,
    requestedBy: p.requestedBy,
    decidedBy: p.decidedBy,
    decidedAt: p.decidedAt,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}
export type CompanyPaymentView = ReturnType<typeof companyPaymentView>;
