/**
 * The checkout service's surface (./service.ts): what it is given, and what the routes, the webhook receiver and the
 * reconciler call.
 */
import type { Method } from '../../core/methods';
import type { Clock } from '../lib/clock';
import type { ProviderClient, TransactionState } from '../provider';
import type { BackOfficeStore } from '../store/back-office';
import type { CheckoutStore, ReconcileStore } from '../store/checkout-store';
import type { CompanyPaymentStore } from '../store/company-payments';
import type { Checkout, EventSource, TransitionChanges, TransitionResult } from '../store/types';
import type { OrderResolver } from './orders';
import type { WebhookTarget } from './webhook-target';

/**
 * The ports the service uses: the checkouts, the reconciler's claims, and the money out it settles for the
 * reconciler (cash-outs and refunds, payment requests to companies).
 */
export type CheckoutServiceStore = CheckoutStore & ReconcileStore & BackOfficeStore & CompanyPaymentStore;

export interface CheckoutServiceOptions {
  provider: ProviderClient;
  store: CheckoutServiceStore;
  orders: OrderResolver;
  clock: Clock;
  webhook: WebhookTarget;
  /** Where OpenFinance sends the payer back when the browser gave no return address. */
  defaultReturnUrl: string;
  /** How long a second request waits for a creation in flight for the same order. Default 20 s. */
  creationWaitMs?: number;
  /**
   * A reservation older than this is settled with the provider (adopted or released) by the next request for the
   * order or by the reconciler: its own provider call has crashed or given up by then. Default 30 s, above the
   * provider client's timeout.
   */
  settleAfterMs?: number;
  /** The payment window of a new checkout, unless the provider gives one (`CHECKOUT_TTL_SECONDS`). Default 30 min. */
  checkoutTtlMs?: number;
  /**
   * The longest a create keeps the shopper waiting, provider calls and recovery included: past it the answer is
   * `checkout_pending` (the element says it is still confirming and asks again) while the saga goes on. Default 15 s.
   */
  createDeadlineMs?: number;
}

export interface CreateCheckoutInput {
  orderId: string;
  method: Method;
  payer?: { cpf: string; name?: string };
  returnUrl?: string;
}

/** The checkout lifecycle; each failure is a refusal of ./errors.ts. */
export interface CheckoutService {
  /** The order's checkout, made once per order (a second request waits for the first, or answers its checkout). */
  create(input: CreateCheckoutInput): Promise<{ created: boolean; checkout: Checkout }>;
  /** A provider webhook of one of our cash-outs or refunds: re-read and recorded. False when no cash-out is that transaction. */
  cashOutWebhook(transactionId: string): Promise<boolean>;
  /** Applies the provider's state to the checkout, when the state machine moves it. */
  advance(
    checkout: Checkout,
    providerState: TransactionState,
    source: EventSource,
    data: Record<string, unknown>,
    changes?: TransitionChanges,
  ): Promise<TransitionResult>;
  /** Re-reads the transaction from the provider and applies its state; `webhookAt`: the webhook that asked came then. */
  refresh(checkout: Checkout, source: EventSource, options?: { webhookAt?: string }): Promise<TransitionResult>;
  /** Moves a live checkout past its payment window to `Expired` (with `recheck`, after asking the provider); else returns it. */
  expireIfDue(checkout: Checkout, source: EventSource, options?: { recheck?: boolean }): Promise<Checkout>;
  /** For the reconciler: expires the live checkouts whose window ended, claimed for `claimMs`; resolves with how many. */
  expireDue(limit: number, onError: (error: unknown) => void, claimMs?: number): Promise<number>;
  /** For the reconciler: settles the reservations older than the settle window; resolves with how many moved. */
  settleStale(limit: number, onError: (error: unknown) => void, claimMs?: number): Promise<number>;
  /** For the reconciler: settles and re-reads the cash-outs, refunds and payment requests left behind; resolves with how many moved. */
  settleStaleMoneyOut(limit: number, onError: (error: unknown) => void, claimMs?: number): Promise<number>;
  /** Adopts a transaction of ours that no checkout holds (./recovery.ts `adopt`). */
  adopt(transactionId: string, source: EventSource): Promise<Checkout | undefined>;
}
