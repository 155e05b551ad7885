/**
 * What goes over the back-office's wire (./api.ts): the BFF's answers and the inputs the pages send, typed from the
 * server's own views where it has them.
 */
import type { PixKeyType, TransactionRecord } from '../server/provider/schemas';
import type { CashOutView } from '../server/payments/cashouts';
import type { AdminCheckoutView } from '../server/backoffice/checkout-view';
import type { CompanyPaymentView } from '../server/backoffice/company-payment-view';

export type { AdminCheckoutView, CashOutView, CompanyPaymentView };

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

/** A back-office role, each with the rights of the one before (server/backoffice/actor.ts). */
export type Role = 'viewer' | 'operator' | 'owner';

const ROLE_ORDER: readonly Role[] = ['viewer', 'operator', 'owner'];
/** True when `role` has at least the rights of `needed` (the page's gating; the server checks each call too). */
export const hasRole = (role: Role | undefined, needed: Role) => !!role && ROLE_ORDER.indexOf(role) >= ROLE_ORDER.indexOf(needed);

/**
 * A refund or a cash-out as the BFF shows it, with who asked for it and who decided it when it needed an owner's
 * approval (state `PendingApproval`, then `Rejected` or on its way).
 */
export type MovementView = CashOutView & {
  requestedBy?: string | null;
  decidedBy?: string | null;
  decidedAt?: string | null;
};
export type RefundView = MovementView;

/** What can still be refunded of a payment, to whom, and its refunds so far (`GET /checkouts/:id/refunds`). */
export interface CheckoutRefunds {
  checkoutId: string;
  /** Decimal strings: what was paid, refunded so far (refunds still moving included) and what is left. */
  paid: string;
  refunded: string;
  refundable: string;
  /** Who gets a refund (the payer, CPF masked); null when it cannot be refunded (`reason` says why). */
  recipient: { name: string; cpf: string } | null;
  reason?: string;
  /** The plan's charges of a refund, when known (six decimals). */
  charges: string | null;
  data: RefundView[];
}

/** A refund or cash-out waiting for (or given) an owner's decision; a refund with the payment it gives back. */
export type CashOutApprovalView = MovementView & {
  kind: 'refund' | 'cashout';
  checkout?: { id: string; orderId: string; amount: string } | null;
};
/** What waits for (or was given) an owner's decision: a refund, a cash-out, or a payment request to a company. */
export type ApprovalView = CashOutApprovalView | CompanyPaymentView;

export type AuditOutcome = 'ok' | 'pending_approval' | 'refused' | 'failed';

/** One line of the audit trail, newest first. */
export interface AuditEntry {
  seq: number;
  at: string;
  /** The user's e-mail, `api-token`, or the e-mail tried on a refused sign-in. */
  actor: string;
  role: Role | null;
  ip: string | null;
  action: string;
  target: string | null;
  outcome: AuditOutcome;
  details?: Record<string, unknown>;
}

export interface AuditPage {
  data: AuditEntry[];
  /** The `after` of the next (older) page; null on the last one. */
  next: number | null;
}

/** The audit trail's filters, as the BFF takes them (`from`/`to` are instants). */
export interface AuditFilters {
  actor?: string;
  action?: string;
  outcome?: string;
  from?: string;
  to?: string;
}

/** A person who signs in to the back office. */
export interface AdminUser {
  id: string;
  email: string;
  role: Role;
  disabled: boolean;
  createdAt: string;
  lastSignInAt: string | null;
}

export interface NewUserInput {
  email: string;
  role: Role;
  password: string;
}

export interface UserChange {
  role?: Role;
  disabled?: boolean;
}

/**
 * The merchant's event types, as server/store/merchant-events.ts names them (copied: the console imports nothing of
 * the server's but the provider's schemas), with what each means for the merchant.
 */
export const MERCHANT_EVENT_TYPES = [
  { type: 'checkout.completed', label: 'Pagamento concluído' },
  { type: 'checkout.duplicate_paid', label: 'Pagamento em duplicidade' },
  { type: 'checkout.failed', label: 'Pagamento com falha' },
  { type: 'checkout.expired', label: 'Pagamento expirado' },
  { type: 'refund.created', label: 'Reembolso criado' },
  { type: 'refund.completed', label: 'Reembolso concluído' },
  { type: 'refund.failed', label: 'Reembolso com falha' },
  { type: 'cashout.completed', label: 'Transferência concluída' },
  { type: 'cashout.failed', label: 'Transferência com falha' },
] as const;
export type MerchantEventType = (typeof MERCHANT_EVENT_TYPES)[number]['type'];

/** A webhook endpoint as the back office shows it: never its secret, a hint of it only. */
export interface WebhookEndpointView {
  id: string;
  url: string;
  /** The event types it gets; empty: every type. */
  types: string[];
  /** `environment`: MERCHANT_WEBHOOK_URL, changed in the environment only. */
  source: 'store' | 'environment';
  enabled: boolean;
  /** Why it gets nothing: its owner disabled it, or it failed for too long. */
  disabled: { reason: 'owner' | 'failing'; since: string } | null;
  /** The first failed attempt since its last 2xx, when the BFF tells it. */
  failingSince?: string | null;
  secretHints: string[];
  rotatingUntil: string | null;
  createdAt: string | null;
}

/** The answer that carries a new secret: the one time the page sees it. */
export type WebhookEndpointWithSecret = WebhookEndpointView & { secret: string };

export interface WebhookEndpointInput {
  url: string;
  types?: string[];
}

/** A test event's attempt. */
export interface WebhookTestResult {
  eventId: string;
  delivered: boolean;
  at: string;
  status: number | null;
  durationMs: number;
  error: string | null;
}

/** Where an event's delivery to one endpoint stands. */
export interface EventDeliveryView {
  endpointId: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatus: number | null;
  nextAt: string | null;
  deliveredAt: string | null;
}

/** One event of the pull feed, with its deliveries. */
export interface MerchantEventView {
  id: string;
  seq: number;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
  deliveries: EventDeliveryView[];
}

export interface MerchantEventPage {
  items: MerchantEventView[];
  nextCursor: string | null;
}

/** The two CSV forms of an export: `csv` for pt-BR spreadsheets, `csv-iso` for machines. */
export type CsvFormat = 'csv' | 'csv-iso';

/** Who is signed in, as `GET /api/admin/session` answers: a user (by e-mail), or the bearer token of scripts. */
export interface SessionActor {
  kind: 'user' | 'token';
  name: string;
  role: Role;
}

export interface Session {
  actor: SessionActor;
  /** When the session ends at the latest (it also ends after 30 minutes without a call). */
  expiresAt: string;
}

/** What a sign-in answers (`POST /api/admin/session`); the cookie itself is out of the page's reach. */
export interface SignedIn {
  user: { email: string; role: Role };
  expiresAt: string;
}

/** A payment link made by `POST /payment-links`: the page's address with the order token in its fragment. */
export interface PaymentLink {
  orderId: string;
  url: string;
  /** When the link's token ends (ISO 8601). */
  expiresAt: string;
}
