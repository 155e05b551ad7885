/**
 * What the back office shows of a payment request it keeps (server/store/company-payments.ts): the approvals list's
 * row of one waiting for (or given) an owner's decision, and the answer of one kept for approval. The receiver is a
 * company: its CNPJ is shown whole, as the receivers list shows it.
 */
import type { CompanyPaymentView } from '../../core/backoffice';
import { formatCents } from '../../core/money';
import type { CompanyPayment } from '../store/company-payments';

export function companyPaymentView(p: CompanyPayment): CompanyPaymentView {
  return {
    kind: 'payment_request',
    idempotencyKey: p.idempotencyKey,
    state: p.state,
    amount: formatCents(p.amountCents),
    description: p.description,
    receiver: { id: p.receiverId, name: p.receiverName, cnpj: p.receiverCnpj },
    account: { id: p.accountId, bankName: p.bankName, agency: p.accountAgency, number: p.accountNumber },
    requestId: p.requestId,
    requestedBy: p.requestedBy,
    decidedBy: p.decidedBy,
    decidedAt: p.decidedAt,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}
