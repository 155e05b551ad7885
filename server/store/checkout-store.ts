/**
 * The ports of the checkouts' part of the store, each a few methods one kind of consumer needs: the payment
 * lifecycle's checkouts and events, the reconciler's claims, the webhook receiver's nonces, and the merchant's event
 * feed. `Store` (./types) is all of them with the other parts' ports; a consumer takes only the ones it uses, so
 * what it may touch is written in its signature. Methods reject on database errors.
 */
import type { CashOut } from './back-office';
import type { MerchantEvent } from './merchant-events';
import type {
  Activation,
  Checkout,
  CheckoutEvent,
  EventSource,
  MoveEvent,
  NewCheckout,
  ReserveResult,
  StaleClaim,
  TransitionChanges,
  TransitionResult,
} from './types';

/** What a reader of checkouts and their events needs (a page, the back office's lists, a stream): nothing that writes. */
export interface CheckoutReadStore {
  getCheckout(id: string): Promise<Checkout | undefined>;
  findCheckoutByTransaction(transactionId: string): Promise<Checkout | undefined>;
  /** Every checkout of the order, oldest first. */
  findCheckoutsByOrder(orderId: string): Promise<Checkout[]>;
  /** Events with seq greater than `afterSeq`, in seq order. */
  eventsAfter(checkoutId: string, afterSeq: number): Promise<CheckoutEvent[]>;
  /** `Created`/`Registered` checkouts whose payment window ended at or before `now`, earliest end first. */
  listExpiredCheckouts(now: string, limit: number): Promise<Checkout[]>;
}

/** Checkouts and their events: one per order, created through a reservation, moved forward by compare-and-set. */
export interface CheckoutStore extends CheckoutReadStore {
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
  /**
   * Applies the state machine's `event` (`core/checkout-machine.ts`) to the checkout as it stands in the transaction:
   * when the machine allows it from that state, moves it by compare-and-set on that state and appends the next event
   * in the same transaction; otherwise `changed: false` with the current checkout and no event. A provider event's
   * `paidAt` marks a payment after the window `late`. Throws when the id is unknown. `changes.details` are merged over
   * the checkout's details in the same transaction.
   *
   * A move into a reserving state (a late payment of an `Expired` checkout) while another checkout holds the
   * order's one-per-order place makes this one that checkout's duplicate (`duplicateOf`, also written into the
   * event's data), in the same transaction: the money is recorded, the order shows it was paid twice, and the
   * one-per-order rule holds. One exception: a move to `Completed` while the holder still waits for the payer
   * (`Created` or `Registered`: the older code was paid after a newer one was made) expires the holder instead, with
   * `supersededBy` in its event's data, and this checkout takes the place: the order is paid, and no tab or device
   * goes on offering the newer code. A payment of that newer code later is then the duplicate.
   */
  apply(
    id: string,
    event: MoveEvent,
    source: EventSource,
    data: Record<string, unknown>,
    at: string,
    changes?: TransitionChanges,
  ): Promise<TransitionResult>;
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
  /** Records that a webhook for the checkout arrived; never moves the date backwards. */
  markWebhookSeen(id: string, at: string): Promise<void>;
  /** Records that the provider was re-read for the checkout; never moves the date backwards. */
  markChecked(id: string, at: string): Promise<void>;
}

/** The reconciler's claims: leases on what a crash or a lost webhook may have left behind, shared out between instances. */
export interface ReconcileStore {
  /**
   * Claims the `Creating` reservations made before `before` (the provider call of each either crashed or is very
   * late), oldest first, at most `limit`, for the reconciler to settle. Like the other claims it is a lease: each one's
   * next claim is pushed to `until` in the same statement, so instances passing together settle disjoint ones, and one
   * whose claimer crashed is claimed again after `until`.
   */
  claimStaleReservations(now: string, before: string, limit: number, until: string): Promise<Checkout[]>;
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
}

/** The signed provider webhooks' nonces, so a replayed one is refused on every instance. */
export interface WebhookNonceStore {
  /**
   * Remembers the nonce of a signed webhook: true the first time, false when any instance remembered it already (a
   * replay). Nonces remembered before `forgetBefore` are forgotten on the way (a signature that old is refused by its
   * time window anyway).
   */
  claimWebhookNonce(nonce: string, at: string, forgetBefore: string): Promise<boolean>;
  /** Forgets a nonce whose webhook could not be handled (a 5xx), so the provider's retry of it is accepted. */
  releaseWebhookNonce(nonce: string): Promise<void>;
}

/** The merchant's event feed (./merchant-events), as the back office lists it. */
export interface MerchantEventStore {
  /**
   * The merchant's events (./merchant-events) after `afterSeq` in the feed's order, at most `limit`, only of `types`
   * when given. Each was written in the transaction of the change it tells of.
   */
  merchantEventsAfter(afterSeq: number, limit: number, types?: readonly string[]): Promise<MerchantEvent[]>;
}
