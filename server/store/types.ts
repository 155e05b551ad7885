/**
 * What the BFF persists and the two interfaces it persists it through.
 *
 * `Store` is implemented twice with identical behaviour: `openSqliteStore` (one process, a file; the default) and
 * `openPostgresStore` (several BFF instances sharing one database). `StatusHub` tells SSE streams that a checkout has
 * a new event: `createLocalHub` in-process, `createPostgresHub` across instances with LISTEN/NOTIFY. `openStore` in
 * `./index` picks the pair from the configuration.
 *
 * Amounts are integer cents; every date is an ISO-8601 instant, normalised to `toISOString()` form on the way in
 * so SQLite can compare them as text.
 */
import { z } from 'zod';
import { METHODS } from '../../core/methods';
import { CHECKOUT_STATES, STORED_STATES } from '../../core/states';
import type { AccountStore } from './accounts';
import type { BackOfficeStore, CashOut } from './back-office';
import type { CompanyPaymentStore } from './company-payments';
import type { DeliveryStore } from './deliveries';
import type { DeliveryLogStore, EndpointStore } from './endpoints';
import type { MerchantEvent } from './merchant-events';

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

/** What a transition changes besides the state. */
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
      /** The order's newer checkout that this payment expired (see `Store.transition`), with its event. */
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

/** Persistence of checkouts and their events (and the back-office's cash-outs). Methods reject on database errors. */
export interface Store extends BackOfficeStore, CompanyPaymentStore, DeliveryStore, EndpointStore, DeliveryLogStore, AccountStore {
  /**
   * Atomically returns the order's checkout when one is `Creating`, `Created`, `Registered` or `Completed`, else
   * inserts `draft` as `Creating`. A partial unique index enforces this in the database, so two processes (or two
   * instances on PostgreSQL) can never both get `created: true` for one order.
   */
  reserveCheckout(draft: NewCheckout): Promise<ReserveResult>;
  /** `Creating` → the provider's state and fields, appending event seq 1 (source `create`) in the same transaction. Throws when the checkout is not `Creating`. */
  activateCheckout(id: string, fields: Activation, at: string): Promise<{ checkout: Checkout; event: CheckoutEvent }>;
  /** Deletes a `Creating` reservation after the provider call failed; a checkout in any other state is left alone. */
  discardCheckout(id: string): Promise<void>;
  getCheckout(id: string): Promise<Checkout | undefined>;
  findCheckoutByTransaction(transactionId: string): Promise<Checkout | undefined>;
  /** Every checkout of the order, oldest first. */
  findCheckoutsByOrder(orderId: string): Promise<Checkout[]>;
  /**
   * Compare-and-set: moves to `to` only when the current state is in `from`, appending the next event in the same
   * transaction. Otherwise `changed: false` with the current checkout and no event. Throws when the id is unknown.
   * `changes.details` are merged over the checkout's details in the same transaction.
   *
   * A move into a reserving state (a late payment of an `Expired` checkout) while another checkout holds the
   * order's one-per-order place makes this one that checkout's duplicate (`duplicateOf`, also written into the
   * event's data), in the same transaction: the money is recorded, the order shows it was paid twice, and the
   * one-per-order rule holds. One exception: a move to `Completed` while the holder still waits for the payer
   * (`Created` or `Registered`: the older code was paid after a newer one was made) expires the holder instead, with
   * `supersededBy` in its event's data, and this checkout takes the place: the order is paid, and no tab or device
   * goes on offering the newer code. A payment of that newer code later is then the duplicate.
   */
  transition(
    id: string,
    from: readonly CheckoutState[],
    to: CheckoutState,
    source: EventSource,
    data: Record<string, unknown>,
    at: string,
    changes?: TransitionChanges,
  ): Promise<TransitionResult>;
  /**
   * The merchant's events (./merchant-events) after `afterSeq` in the feed's order, at most `limit`, only of `types`
   * when given. Each was written in the transaction of the change it tells of.
   */
  merchantEventsAfter(afterSeq: number, limit: number, types?: readonly string[]): Promise<MerchantEvent[]>;
  /** Events with seq greater than `afterSeq`, in seq order. */
  eventsAfter(checkoutId: string, afterSeq: number): Promise<CheckoutEvent[]>;
  /** Records that a webhook for the checkout arrived; never moves the date backwards. */
  markWebhookSeen(id: string, at: string): Promise<void>;
  /** Records that the provider was re-read for the checkout; never moves the date backwards. */
  markChecked(id: string, at: string): Promise<void>;
  /**
   * Remembers the nonce of a signed webhook: true the first time, false when any instance remembered it already (a
   * replay). Nonces remembered before `forgetBefore` are forgotten on the way (a signature that old is refused by its
   * time window anyway).
   */
  claimWebhookNonce(nonce: string, at: string, forgetBefore: string): Promise<boolean>;
  /** Forgets a nonce whose webhook could not be handled (a 5xx), so the provider's retry of it is accepted. */
  releaseWebhookNonce(nonce: string): Promise<void>;
  /**
   * Claims the `Creating` reservations made before `before` (the provider call of each either crashed or is very
   * late), oldest first, at most `limit`, for the reconciler to settle. Like the other claims it is a lease: each one's
   * next claim is pushed to `until` in the same statement, so instances passing together settle disjoint ones, and one
   * whose claimer crashed is claimed again after `until`.
   */
  claimStaleReservations(now: string, before: string, limit: number, until: string): Promise<Checkout[]>;
  /**
   * Stores a provider transaction that no checkout holds yet, already in the provider's state, with event seq 1 of
   * `source`. With `duplicateOf` unset it takes the order's one-per-order place. Returns undefined, storing nothing,
   * when the transaction is already stored or the order's place is taken.
   */
  insertActive(
    draft: NewCheckout,
    fields: Activation,
    source: EventSource,
    duplicateOf: string | null,
    at: string,
  ): Promise<{ checkout: Checkout; event: CheckoutEvent } | undefined>;
  /**
   * Stores a provider transaction that no checkout holds and that is paid already while the order's place holder
   * `holderId` still waits for the payer (`decideAdoption`'s `supersede`): in one transaction the holder expires, with
   * `supersededBy` in its event, and the transaction takes the order's place. Undefined, storing nothing, when the
   * holder no longer waits; rejects when the transaction is stored already.
   */
  insertSuperseding(
    draft: NewCheckout,
    fields: Activation,
    source: EventSource,
    holderId: string,
    at: string,
  ): Promise<{ checkout: Checkout; event: CheckoutEvent; superseded: { checkout: Checkout; event: CheckoutEvent } } | undefined>;
  /**
   * Claims the checkouts the reconciler should re-read now, at most `limit`: `Created`/`Registered` ones whose last
   * webhook (or creation, when none) and last check are older than `before`, never-checked first; then, with
   * `expired`, `Expired` ones that expired at or after `expired.since` (their code may still be paid late), on the
   * same terms, after every live one, so a day of abandoned codes never starves the checkouts still waiting for their
   * payer. Only checkouts whose claim has run out (`next_check_at`) are claimed.
   *
   * Each claimed checkout's next claim is pushed in the same statement (on PostgreSQL over rows locked with
   * `FOR UPDATE SKIP LOCKED`, on SQLite inside a write transaction), so instances passing together claim disjoint
   * checkouts. The claim is a lease, not a lock: a checkout claimed by an instance that crashed before reading it is
   * claimed again when the lease ends. A live one's lease ends at `liveUntil`; an expired one's after its age (time
   * since it expired), kept within `expired.minDelayMs` and `expired.maxDelayMs`: the reconciler's backoff.
   */
  claimStaleCheckouts(claim: StaleClaim): Promise<Checkout[]>;
  /**
   * Claims the `Created`/`Registered` checkouts whose payment window ended at or before `now`, earliest end first, at
   * most `limit`, for the reconciler to expire, the same way: another instance claiming at the same moment gets other
   * ones, and one claimed by an instance that crashed is claimed again after `until`. A claim of the stale checkouts
   * taken before the window ended does not hold it back.
   */
  claimDueExpiries(now: string, limit: number, until: string): Promise<Checkout[]>;
  /**
   * Claims, for the reconciler, the cash-outs and refunds a crash or a lost answer may have left behind: first those
   * `Sending` since before `before` (since their approval, for an approved one), oldest first, to settle at the
   * provider; then those `Created` or `Registered` and unchanged since before `before`, least recently updated first,
   * to re-read; at most `limit` in all. A claimed one is not claimed again before `until` (its lease): instances
   * claiming at the same moment take different ones, and one an instance crashed on is claimed again after `until`.
   */
  claimStaleCashOuts(now: string, before: string, limit: number, until: string): Promise<CashOut[]>;
  /** `Created`/`Registered` checkouts whose payment window ended at or before `now`, earliest end first. */
  listExpiredCheckouts(now: string, limit: number): Promise<Checkout[]>;
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
