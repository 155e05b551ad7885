/**
 * The back office's answers about money (`/api/admin/checkouts…`, `/cashouts…`, `/approvals…`, `/payment-requests`,
 * `/payment-links`) and the bodies the console sends there, as declared types: the server builds its answers against
 * them (server/backoffice/, server/payments/cashout-request.ts) and the console reads them (console/api.ts). Amounts are
 * decimal strings ("10.50"; the provider's charges at six decimals), instants ISO 8601 strings.
 */
import type { CashOutState } from '../cashout-machine';
import type { CompanyPaymentState } from '../company-payment-machine';
import type { Method } from '../methods';
import type { StoredState } from '../states';
import type { PaymentRequestView, PixKeyType, TransactionRecordView } from './provider-views';

/** A cash-out (or refund: a cash-out that gives a payment back) as the back office shows it; the CPFs masked. */
export interface CashOutView {
  /** The `Idempotency-Key` it was made under: the same key is always this cash-out. */
  idempotencyKey: string;
  transactionId: string | null;
  /** The provider's order id of the cash-out. */
  orderId: string;
  state: CashOutState;
  amount: string;
  /** The provider's charges, once its record was read. */
  charges: string | null;
  recipient: { name: string; cpf: string };
  key: { type: string; value: string };
  description: string | null;
  /** The checkout it refunds, when it is a refund. */
  refundOf: string | null;
  /** Who asked for it; who approved or rejected it, and when, when it needed an owner's approval. */
  requestedBy: string | null;
  decidedBy: string | null;
  decidedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One payment received (a checkout), as the list and the export show it: what the merchant needs, no payer data. */
export interface AdminCheckoutView {
  id: string;
  orderId: string;
  method: Method;
  state: StoredState;
  amount: string;
  description: string | null;
  transactionId: string | null;
  createdAt: string;
  updatedAt: string;
  /** The end of its payment window. */
  expiresAt: string;
  paidAt: string | null;
  payerBank: string | null;
  /** The provider's fee and the net amount, at six decimals; null when the provider gave no charges. */
  fee: string | null;
  net: string | null;
  /** The checkout of the order this one duplicates: the order was paid twice when both are Completed. */
  duplicateOf: string | null;
  /** Paid after its payment window. */
  late: boolean;
  /** The latest refund that counts (else the latest one). */
  refund: CashOutView | null;
  /** Every refund, oldest first. */
  refunds: CashOutView[];
  /** What the Completed refunds gave back ("0.00" when none). */
  refunded: string;
}

/** The list's filters, as the back office takes them (`from`/`to` are instants; `state` a comma-separated list). */
export interface CheckoutFilters {
  state?: string;
  method?: string;
  from?: string;
  to?: string;
  orderId?: string;
  flag?: string;
}

export interface CheckoutPage {
  items: AdminCheckoutView[];
  /** The cursor of the next (older) page; null on the last. */
  nextCursor: string | null;
}

/** A payment's detail (`GET /checkouts/:id`): its timeline, the webhooks about it, its order's other checkouts. */
export interface CheckoutDetail {
  checkout: AdminCheckoutView;
  /** The CPF and name the shopper gave, the CPF masked for every role (the full one is `PayerReveal`'s). */
  payer: { cpf: string | null; name: string | null };
  events: {
    seq: number;
    state: StoredState;
    source: 'create' | 'webhook' | 'reconcile' | 'read';
    at: string;
    data: Record<string, unknown>;
  }[];
  webhooks: {
    lastWebhookAt: string | null;
    lastCheckedAt: string | null;
    /** The events a provider webhook caused. */
    applied: { seq: number; state: StoredState; at: string }[];
    /** Every webhook received about it (the most recent 50), oldest first. */
    received: { receivedAt: string; state: string | null; outcome: 'applied' | 'adopted' | 'ignored' }[];
  };
  order: Pick<AdminCheckoutView, 'id' | 'state' | 'amount' | 'createdAt' | 'paidAt' | 'duplicateOf' | 'late'>[];
  refunds: CashOutView[];
}

/** The provider's record of a payment, read when asked (`GET /checkouts/:id/provider`). */
export interface ProviderRecord {
  readAt: string;
  record: TransactionRecordView;
}

/**
 * A payment's payer in full (`POST /checkouts/:id/payer`, operators and owners only, each call in the audit trail as
 * `payer.reveal`): who the shopper said they were, and who paid, as the provider says once paid. Everywhere else a
 * CPF is masked and an account left out.
 */
export interface PayerReveal {
  checkoutId: string;
  /** The CPF and name the shopper gave (formatted), or null. */
  requested: { cpf: string | null; name: string | null };
  /** Who paid, from the provider's record; null before it is paid or when the provider could not be read. */
  paid: {
    name: string | null;
    taxNumber: string | null;
    bankName: string | null;
    accountAgency: string | null;
    accountNumber: string | null;
    accountDigit: string | null;
  } | null;
}

/** What can still be refunded of a payment, to whom, and its refunds so far (`GET /checkouts/:id/refunds`). */
export interface CheckoutRefunds {
  checkoutId: string;
  /** What was paid, refunded so far (refunds still moving included) and what is left. */
  paid: string;
  refunded: string;
  refundable: string;
  /** Who gets a refund (the payer, CPF masked); null when it cannot be refunded (`reason`, an error code, says why). */
  recipient: { name: string; cpf: string } | null;
  reason?: string;
  /** The plan's charges of a refund of all that is left, when known. */
  charges: string | null;
  data: CashOutView[];
}

/** A refund of a payment (`POST /checkouts/:id/refunds`, with its `Idempotency-Key`); without `amount`, all that is left. */
export interface RefundInput {
  amount?: string;
}

/** A PIX cash-out the console asks for (`POST /cashouts`, with its `Idempotency-Key`). */
export interface CashOutInput {
  recipient: { name: string; cpf: string };
  key: { type: PixKeyType; value: string };
  amount: string;
  description?: string;
}

/** The charges the provider's plan takes from `amount` (`GET /cashouts/quote`), null while unknown. */
export interface CashOutQuote {
  amount: string;
  charges: string | null;
}

/** A refund or cash-out waiting for (or given) an owner's decision; a refund with the payment it gives back. */
export interface CashOutApprovalView extends CashOutView {
  kind: 'refund' | 'cashout';
  checkout: { id: string; orderId: string; amount: string } | null;
}

/** A payment request to a company the back office keeps (for approval above the threshold, or until asked for). */
export interface CompanyPaymentView {
  kind: 'payment_request';
  idempotencyKey: string;
  state: CompanyPaymentState;
  amount: string;
  description: string;
  /** The receiver and its account as the provider listed them when the request was kept (null names below the threshold). */
  receiver: { id: string; name: string | null; cnpj: string | null };
  account: { id: string; bankName: string | null; agency: string | null; number: string | null };
  /** The provider's payment request, once it was asked for; null before. */
  requestId: string | null;
  requestedBy: string;
  decidedBy: string | null;
  decidedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What waits for (or was given) an owner's decision: a refund, a cash-out, or a payment request to a company. */
export type ApprovalView = CashOutApprovalView | CompanyPaymentView;

export interface ApprovalList {
  state: 'pending' | 'decided';
  data: ApprovalView[];
}

/** A payment request the console asks for (`POST /payment-requests`, with its `Idempotency-Key`). */
export interface PaymentRequestInput {
  amount: string;
  description: string;
  receiverId: string;
  accountId: string;
}

/** Its answer: the provider's request (201), or the one kept for another owner's approval (202). */
export type PaymentRequestCreated = (PaymentRequestView & { idempotencyKey: string }) | CompanyPaymentView;

/** A payment link asked for an order, valid `days` days. */
export interface PaymentLinkInput {
  orderId: string;
  days: number;
}

/** A payment link made by `POST /payment-links`: the pay page's address with the order token in its fragment. */
export interface PaymentLink {
  orderId: string;
  url: string;
  /** When the link's token ends. */
  expiresAt: string;
}

/** A change the live stream (`GET /api/admin/events`) reported: its event name and the `id` of its data. */
export interface LiveChange {
  topic: 'checkout' | 'cashout';
  id: string;
}
