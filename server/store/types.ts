/**
 * What the BFF persists and the two interfaces it persists it through.
 *
 * `Store` is opened on SQLite (one process, a file; the default, ./sqlite) or PostgreSQL (several BFF instances
 * sharing one database, ./postgres), with identical behaviour: each part is written once over a `Db` (./parts).
 * `StatusHub` tells SSE streams that a checkout has a new event: `createLocalHub` in-process, `createPostgresHub`
 * across instances with LISTEN/NOTIFY. `openStore` in `./index` picks the pair from the configuration, and is the one
 * opener outside this folder.
 *
 * Amounts are integer cents; every date is an ISO-8601 instant, normalised to `toISOString()` form on the way in
 * so SQLite can compare them as text.
 */
import type { ReadinessStore } from './readiness';
import type { StoreGauges } from './gauges';
import { z } from 'zod';
import type { MachineEvent } from '../../core/checkout-machine';
import { METHODS } from '../../core/methods';
import { CHECKOUT_STATES, STORED_STATES } from '../../core/states';
import type { AccountStore } from './accounts';
import type { SessionListStore } from './session-list';
import type { SignInBrakeStore } from './sign-in-brakes';
import type { ApiKeyStore } from './api-keys';
import type { PayerDataStore } from './payer-data';
import type { MfaStore } from './mfa';
import type { BackOfficeStore } from './back-office';
import type { CheckoutStore, MerchantEventStore, ReconcileStore, WebhookNonceStore } from './checkout-store';
import type { CompanyPaymentStore } from './company-payments';
import type { DeliveryStore } from './deliveries';
import type { DeliveryLogStore, EndpointStore } from './endpoints';
import type { SealedValueStore } from './sealed-columns';

/** A date-time with `Z` or an offset, stored and returned as `YYYY-MM-DDTHH:mm:ss.sssZ`. */
export const InstantSchema = z.iso.datetime({ offset: true }).transform((value) => new Date(value).toISOString());

export const CheckoutMethodSchema = z.enum(METHODS);
export type CheckoutMethod = z.infer<typeof CheckoutMethodSchema>;

/** The states of `core/states`: `Creating` between our reservation and the provider's answer, then the provider's. */
export const CheckoutStateSchema = z.enum(STORED_STATES);
export type CheckoutState = z.infer<typeof CheckoutStateSchema>;

/**
 * What made the BFF store an event: its own create call, a provider webhook, the reconciler, or a read of the
 * checkout (a browser reading a checkout past its payment window expires it).
 */
export const EventSourceSchema = z.enum(['create', 'webhook', 'reconcile', 'read']);
export type EventSource = z.infer<typeof EventSourceSchema>;

const cents = z.int().positive();

export const CheckoutSchema = z.object({
  id: z.string().min(1),
  orderId: z.string().min(1),
  method: CheckoutMethodSchema,
  state: CheckoutStateSchema,
  amountCents: cents,
  currency: z.literal('BRL'),
  description: z.string().nullable(),
  transactionId: z.string().nullable(),
  payerCpf: z.string().nullable(),
  payerName: z.string().nullable(),
  /**
   * The method's own fields (a PIX code, a bank address, a return address…), in one JSON column so a new method
   * needs no new columns. Each method's adapter in `server/payments/methods` reads and writes its own.
   */
  details: z.record(z.string(), z.unknown()),
  /**
   * Set on a second provider transaction of an order that already has its checkout (found after a crash or a
   * timeout, or paid late): the id of that checkout. Such a checkout is outside the one-per-order rule; when it is
   * Completed, the order was paid twice.
   */
  duplicateOf: z.string().nullable(),
  /** Seq of the last stored event; 0 while `Creating`. */
  seq: z.int().nonnegative(),
  /**
   * End of the payment window: the provider's, when it gives one, else creation plus the configured window. A live
   * checkout past it becomes `Expired`. Null only on a reservation made without one.
   */
  expiresAt: InstantSchema.nullable(),
  createdAt: InstantSchema,
  updatedAt: InstantSchema,
  lastWebhookAt: InstantSchema.nullable(),
  /** When the provider was last re-read for it; on a `Creating` reservation, when its own create gave up and looked. */
  lastCheckedAt: InstantSchema.nullable(),
});
export type Checkout = z.infer<typeof CheckoutSchema>;

/** What the BFF knows before calling the provider; optional fields default to null and currency to BRL. */
export const NewCheckoutSchema = z.object({
  id: z.string().min(1),
  orderId: z.string().min(1),
  method: CheckoutMethodSchema,
  amountCents: cents,
  currency: z.literal('BRL').default('BRL'),
  description: z.string().nullable().default(null),
  payerCpf: z.string().nullable().default(null),
  payerName: z.string().nullable().default(null),
  /** What the method knows before the provider call, for example OpenFinance's return address. */
  details: z.record(z.string(), z.unknown()).default({}),
  /** End of the payment window as the BFF sets it (creation plus the configured window); the provider may move it at activation. */
  expiresAt: InstantSchema.nullable().default(null),
  createdAt: InstantSchema,
});
export type NewCheckout = z.input<typeof NewCheckoutSchema>;

/** The provider's answer that turns a reservation into a real checkout. */
export const ActivationSchema = z.object({
  state: z.enum(CHECKOUT_STATES),
  transactionId: z.string().min(1),
  /** Merged over the reservation's details. */
  details: z.record(z.string(), z.unknown()).default({}),
  /** The provider's end of the payment window, when it gives one; it replaces the reservation's. */
  expiresAt: InstantSchema.optional(),
});
export type Activation = z.input<typeof ActivationSchema>;

export const CheckoutEventSchema = z.object({
  checkoutId: z.string(),
  /** 1, 2, 3… per checkout; doubles as the SSE event id. */
  seq: z.int().positive(),
  state: CheckoutStateSchema,
  source: EventSourceSchema,
  at: InstantSchema,
  data: z.record(z.string(), z.unknown()),
});
export type CheckoutEvent = z.infer<typeof CheckoutEventSchema>;

/** What `CheckoutStore.apply` takes: any of the state machine's events but an activation (`activateCheckout`). */
export type MoveEvent = Exclude<MachineEvent, { type: 'activate' }>;

/** What a move changes besides the state. */
export interface TransitionChanges {
  /** Merged over the checkout's details (a receipt, for example). */
  details?: Record<string, unknown>;
  /**
   * The reconciler's bookkeeping, written by the same UPDATE when the checkout moves (one write instead of three on
   * the status path): when the provider was re-read (`lastCheckedAt`) and the webhook that led to it came
   * (`lastWebhookAt`). Each only moves forward. When the checkout does not move, the caller writes them itself.
   */
  checkedAt?: string;
  webhookAt?: string;
}

export type ReserveResult = { created: true; checkout: Checkout } | { created: false; checkout: Checkout };
export type TransitionResult =
  | {
      changed: true;
      checkout: Checkout;
      event: CheckoutEvent;
      /** The order's newer checkout that this payment expired (see `CheckoutStore.apply`), with its event. */
      superseded?: { checkout: Checkout; event: CheckoutEvent };
    }
  | { changed: false; checkout: Checkout };

/** What `Store.claimStaleCheckouts` claims, and until when. Every date is an instant. */
export interface StaleClaim {
  now: string;
  /** A checkout heard of (a webhook, its creation, a check) at or after this is not stale. */
  before: string;
  limit: number;
  /** When a claimed live checkout may be claimed again. */
  liveUntil: string;
  /** Expired checkouts to follow too, and the bounds of their backoff. */
  expired?: { since: string; minDelayMs: number; maxDelayMs: number };
}

/**
 * The whole store, every part's ports together: what `openStore` (./index) opens and the composition root holds.
 * Consumers take only the ports they use (./checkout-store, ./back-office, ./company-payments, ./deliveries,
 * ./endpoints, ./accounts), never this. Methods reject on database errors.
 */
export interface Store
  extends
    CheckoutStore,
    ReconcileStore,
    WebhookNonceStore,
    MerchantEventStore,
    BackOfficeStore,
    CompanyPaymentStore,
    DeliveryStore,
    EndpointStore,
    DeliveryLogStore,
    AccountStore,
    SignInBrakeStore,
    SessionListStore,
    ApiKeyStore,
    PayerDataStore,
    MfaStore,
    ReadinessStore,
    SealedValueStore,
    StoreGauges,
    StoreConnection {}

/** What the opener of a store holds besides its ports: its connection (a file, a pool), to close once. */
export interface StoreConnection {
  close(): Promise<void>;
}

/**
 * Wakes SSE streams when a checkout has a new event. The seq is a hint: a subscriber reads
 * `store.eventsAfter(lastSentSeq)`, so a repeated, late or zero hint costs one query and loses nothing. Subscribers
 * are called with seq 0 after the PostgreSQL listener reconnects, because notifications sent meanwhile are gone.
 */
/** A change this instance committed: the checkout as the transaction left it, and the event it appended. */
export interface CommittedChange {
  checkout: Checkout;
  event: CheckoutEvent;
}

export interface StatusHub {
  /**
   * Calls `listener` after an event for the checkout is stored by this instance or, with PostgreSQL, any instance.
   * A change committed here comes with `committed`, so a listener can serve it without reading it back; one heard
   * from another instance comes without. Returns the unsubscribe function (idempotent).
   */
  subscribe(checkoutId: string, listener: (seq: number, committed?: CommittedChange) => void): () => void;
  /**
   * Calls `listener` with the checkout id (or another topic, such as `cashout:<key>`) of every publish, here or,
   * with PostgreSQL, on any instance: the back-office's live lists. After a reconnect, once with the id `*`.
   */
  subscribeAll(listener: (checkoutId: string, seq: number) => void): () => void;
  /** Called by the store's feed right after a commit (./feed.ts); `committed` goes to this instance's listeners only. */
  publish(checkoutId: string, seq: number, committed?: CommittedChange): void;
  /** Open subscriptions in total, for leak tests. */
  subscriberCount(): number;
  close(): Promise<void>;
}
