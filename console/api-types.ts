/**
 * What goes over the back-office's wire (./api.ts): the BFF's answers and the inputs the pages send, typed from the
 * server's own views where it has them.
 */
import type { PixKeyType, TransactionRecord } from '../server/provider/schemas';
import type { CashOutView } from '../server/payments/cashouts';
import type { AdminCheckoutView } from '../server/backoffice/checkouts';

export type { AdminCheckoutView, CashOutView };

/** The list's filters, as the BFF takes them (`from`/`to` are instants; `state` a comma-separated list). */
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
  nextCursor: string | null;
}

export interface CheckoutDetail {
  checkout: AdminCheckoutView;
  events: { seq: number; state: string; source: string; at: string; data: Record<string, unknown> }[];
  webhooks: {
    lastWebhookAt: string | null;
    lastCheckedAt: string | null;
    applied: { seq: number; state: string; at: string }[];
    /** Every webhook received about it (the most recent 50), oldest first. */
    received: { receivedAt: string; state: string | null; outcome: 'applied' | 'adopted' | 'ignored' }[];
  };
  order: Pick<AdminCheckoutView, 'id' | 'state' | 'amount' | 'createdAt' | 'paidAt' | 'duplicateOf' | 'late'>[];
  refunds: CashOutView[];
}

export interface RefundPreview {
  checkoutId: string;
  recipient: { name: string; cpf: string };
  key: { type: string; value: string };
  amount: string;
  charges: string | null;
  description: string;
}

/** The provider's record as the BFF shows it (the webhook's secret masked). */
export type ProviderRecord = { readAt: string; record: TransactionRecord };

export interface NewReceiverInput {
  companyFantasyName: string;
  companyCNPJ: string;
}

export interface NewAccountInput {
  bankCode: string;
  bankName: string;
  accountAgency: string;
  accountNumber: string;
}

/** A change the live stream reported. */
export interface LiveChange {
  topic: 'checkout' | 'cashout';
  id: string;
}

export type PageSize = 5 | 10 | 20;

export interface CashOutInput {
  recipient: { name: string; cpf: string };
  key: { type: PixKeyType; value: string };
  amount: string;
  description?: string;
}

export interface PaymentRequestInput {
  amount: string;
  description: string;
  receiverId: string;
  accountId: string;
}
