/**
 * What the back office passes on of the provider's answers (receivers, their accounts, payment requests, invoices,
 * the balance, a transaction's record), as the console reads them: the fields it uses, declared here so the browser
 * needs none of the provider's zod schemas. The server checks at compile time that the provider's parsed answers
 * (server/provider/schemas) still fit these (`satisfies` at each route of server/backoffice/), so the two cannot drift.
 * The provider may send more than is listed; the console shows a record's rest as it came.
 */
import type { TransactionState } from '../states';

export type PixKeyType = 'CPF' | 'EMAIL' | 'PHONE' | 'EVP';

/** A receiver's or payment request's approval at the provider. */
export type ApprovalStatus = 'Pending' | 'Approved' | 'Rejected';
/** The list filters of those: the refused status is named `Denied` there. */
export type ApprovalFilter = 'Pending' | 'Approved' | 'Denied';

/** The page sizes the provider's listings take. */
export type PageSize = 5 | 10 | 20;

/** A page of a provider listing. */
export interface ProviderPage<T> {
  limit: number;
  offset: number;
  total: number;
  items: T[];
}

/** A company the merchant pays (a payee of payment requests). */
export interface ReceiverView {
  id: string;
  creationDate: string;
  receiverStatus: ApprovalStatus;
  companyFantasyName: string;
  companyCNPJ: string;
  /** The provider's reviewer's note, when it approved or refused the receiver. */
  reviewNote?: string | null;
}

/** One of a receiver's bank accounts. */
export interface ReceiverAccountView {
  id: string;
  bankCode: string;
  bankName: string;
  accountAgency: string;
  accountNumber: string;
  accountOwnerDocNumber: string;
  pixKey: string;
  pixKeyType: string;
}

/** A payment request at the provider: its approval (`status`) and, once approved, its transaction (`execution…`). */
export interface PaymentRequestView {
  id: string;
  /** Decimal string. */
  amount: string;
  status: ApprovalStatus;
  pixKey: string;
  pixKeyType: string;
  description: string;
  refReceiver: string;
  refBankAccount: string;
  refTransaction?: string | null;
  referencesInfo?: { receiverName?: string | null; customerName?: string | null } | null;
  executionState?: string | null;
  executionCreatedDate?: string | null;
  executionRegisteredDate?: string | null;
  executionCompletedDate?: string | null;
}

/** One step of a payment request's approval at the provider. */
export interface ApprovalFlowStepView {
  id: string;
  date: string;
  userFullName: string;
  userRealm: string;
  status: string;
  comment?: string | null;
}

export interface PaymentRequestDetailView {
  entity: PaymentRequestView;
  flows: ApprovalFlowStepView[];
}

/** An invoice of a payment request: only its id is sure (the provider publishes no other field). */
export interface DocumentView {
  id: string;
  name?: string | undefined;
  fileName?: string | undefined;
  type?: string | undefined;
  status?: string | undefined;
  size?: number | undefined;
  contentType?: string | undefined;
  creationDate?: string | undefined;
}

/** The merchant's balance: `balance` a signed decimal string; the day's totals when the provider gives them. */
export interface BalanceView {
  balance: string;
  currency?: string | undefined;
  date?: string | undefined;
  credits?: string;
  debits?: string;
  charges?: string;
}

/** A transaction's record at the provider, read again on demand: the facts the console shows, then the rest as it is. */
export interface TransactionRecordView {
  transaction: {
    id: string;
    state: TransactionState;
    amount: string;
    charges?: string | null;
    stateCompletedDate?: string | null;
    payer?: { name?: string | null; bankName?: string | null } | null;
    [field: string]: unknown;
  };
  payment: Record<string, unknown>;
  /** The webhook's secret header value is never shown (masked by the back office). */
  webhook: { deliveryStatus?: string | null; deliveryTime?: string | null; [field: string]: unknown };
}
