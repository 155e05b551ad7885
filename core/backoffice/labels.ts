/**
 * The merchant's words (pt-BR) for the states, roles and outcomes the back office answers: one table per concept,
 * used by the console's pages and by the pt-BR CSV exports (server/backoffice/checkouts-export.ts, audit.ts) alike.
 * Each is keyed by its concept's union, so a state added to core/ without its word fails to compile. A method's name
 * is a brand, the same in every language: core/method-labels.ts.
 */
import type { CashOutState } from '../cashout-machine';
import type { CompanyPaymentState } from '../company-payment-machine';
import type { StoredState, TransactionState } from '../states';
import type { MerchantEventType } from './merchant-events';
import type { Role } from './roles';
import type { ApprovalFilter, ApprovalStatus } from './provider-views';
import type { AuditOutcome } from './wire-accounts';

/** A checkout's state, as the merchant reads the payments received ("o pagamento"). */
export const CHECKOUT_STATE_LABELS: Readonly<Record<StoredState, string>> = {
  Creating: 'Em criação',
  Created: 'Criado',
  Registered: 'Aguardando pagamento',
  Expired: 'Expirado',
  Completed: 'Pago',
  Error: 'Erro',
  Cancelled: 'Cancelado',
  Reversed: 'Estornado',
};

/** A provider transaction's state ("a transação"): a provider record, a payment request's execution. */
export const TRANSACTION_STATE_LABELS: Readonly<Record<TransactionState, string>> = {
  Created: 'Criada',
  Registered: 'Registrada',
  Completed: 'Concluída',
  Cancelled: 'Cancelada',
  Reversed: 'Estornada',
  Error: 'Erro',
  Refunded: 'Reembolsada',
};

/** A cash-out's state ("a transferência"): ours before the provider has it, then its transaction's. */
export const CASH_OUT_STATE_LABELS: Readonly<Record<CashOutState, string>> = {
  PendingApproval: 'Aguardando aprovação',
  Rejected: 'Rejeitada',
  Sending: 'Enviando',
  ...TRANSACTION_STATE_LABELS,
};

/** A refund's state ("o reembolso": the masculine forms), ours or the provider's. */
export const REFUND_STATE_LABELS: Readonly<Record<CashOutState, string>> = {
  PendingApproval: 'Aguardando aprovação',
  Rejected: 'Rejeitado',
  Sending: 'Enviando',
  Created: 'Criado',
  Registered: 'Registrado',
  Completed: 'Concluído',
  Cancelled: 'Cancelado',
  Reversed: 'Estornado',
  Refunded: 'Devolvido',
  Error: 'Erro',
};

/** A payment request the back office keeps ("a solicitação"), until the provider has it. */
export const COMPANY_PAYMENT_STATE_LABELS: Readonly<Record<CompanyPaymentState, string>> = {
  PendingApproval: 'Aguardando aprovação',
  Rejected: 'Rejeitada',
  Sending: 'Enviando',
  Requested: 'Enviada ao provedor',
};

/**
 * The provider's approval of a receiver or payment request: its status (records say `Rejected`, list filters `Denied`),
 * and `Cancelled`, which the console shows for a request cancelled (console/payment-request/status.ts).
 */
export const APPROVAL_STATUS_LABELS: Readonly<Record<ApprovalStatus | ApprovalFilter | 'Cancelled', string>> = {
  Pending: 'Pendente',
  Approved: 'Aprovado',
  Rejected: 'Recusado',
  Denied: 'Recusado',
  Cancelled: 'Cancelado',
};

export const ROLE_LABELS: Readonly<Record<Role, string>> = { viewer: 'Leitura', operator: 'Operador', owner: 'Proprietário' };

/** How an action of the audit trail ended. */
export const AUDIT_OUTCOME_LABELS: Readonly<Record<AuditOutcome, string>> = {
  ok: 'Feito',
  pending_approval: 'Aguardando aprovação',
  refused: 'Recusado',
  failed: 'Falhou',
};

/** What each merchant event means for the shop. */
export const MERCHANT_EVENT_LABELS: Readonly<Record<MerchantEventType, string>> = {
  'checkout.completed': 'Pagamento concluído',
  'checkout.duplicate_paid': 'Pagamento em duplicidade',
  'checkout.failed': 'Pagamento com falha',
  'checkout.expired': 'Pagamento expirado',
  'refund.created': 'Reembolso criado',
  'refund.completed': 'Reembolso concluído',
  'refund.failed': 'Reembolso com falha',
  'cashout.completed': 'Transferência concluída',
  'cashout.failed': 'Transferência com falha',
};

/** The word of `value` in `table`; a value the table does not know (newer than this page) as it is. */
export const labelOf = <K extends string>(table: Readonly<Record<K, string>>, value: string): string =>
  Object.hasOwn(table, value) ? table[value as K] : value;
