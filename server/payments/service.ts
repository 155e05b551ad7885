/**
 * The checkout lifecycle: idempotent creation per order, and forward-only moves driven by what the provider says
 * (webhook hints, reconciliation). Routes, the webhook receiver and the reconciler all go through here.
 */
import { randomBytes } from 'node:crypto';
import type { Method } from '../../core/methods';
import { formatCents } from '../../core/money';
import { canMove, EXPIRED, fromTransactionState, isLive, LIVE_STATES, statesBefore, type StoredState } from '../../core/states';
import type { Clock } from '../lib/clock';
import { ProviderError, ProviderNetworkError, type ProviderClient, type TransactionState } from '../provider';
import type { Activation, Checkout, EventSource, Store, StatusHub, TransitionChanges } from '../store/types';
import { ApiError, fromProviderError } from './errors';
import { METHOD_ADAPTERS, type MethodAdapter } from './methods';
import type { OrderResolver, PricedOrder } from './orders';
import { receiptOf } from './receipt';
import { createRecovery, type Settlement } from './recovery';
import type { WebhookTarget } from './webhook-target';
import { DEFAULT_CHECKOUT_TTL_SECONDS, expiresAtOf, isPastWindow, windowEnd } from './window';

export type { WebhookTarget } from './webhook-target';

export interface CheckoutServiceOptions {
  provider: ProviderClient;
  store: Store;
  hub: StatusHub;
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
}

export interface CreateCheckoutInput {
  orderId: string;
  method: Method;
  payer?: { cpf: string; name?: string };
  returnUrl?: string;
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;

/** 128 random bits, URL-safe: checkout ids must not be guessable. */
export const newCheckoutId = () => `co_${randomBytes(16).toString('base64url')}`;

/**
 * A failure after which the provider may still have made the transaction: no answer (timeout, connection lost) or
 * a 5xx. A 4xx is a refusal: nothing was made.
 */
const mayHaveActed = (error: unknown) => error instanceof ProviderNetworkError || (error instanceof ProviderError && error.status >= 500);

/**
 * Resolves after the I/O callbacks and microtasks already queued: the frames a publish just handed to the event
 * streams reach their sockets before bookkeeping writes (which SQLite makes synchronously) hold the event loop.
 */
export const afterStreamWrites = () => new Promise<void>((resolve) => setImmediate(resolve));

const pending = () => new ApiError(503, 'checkout_pending', 'The payment is still being prepared. Please try again.');

export function createCheckoutService(options: CheckoutServiceOptions) {
  const { provider, store, hub, orders, clock, webhook } = options;
  const now = () => clock.now().toISOString();
  const settleAfterMs = options.settleAfterMs ?? 30_000;
  const ttlMs = options.checkoutTtlMs ?? DEFAULT_CHECKOUT_TTL_SECONDS * 1000;
  const recovery = createRecovery({ provider, store, hub, clock, webhook, newId: newCheckoutId, checkoutTtlMs: ttlMs });
  const isStale = (reservation: Checkout) => clock.now().getTime() - Date.parse(reservation.createdAt) >= settleAfterMs;

  /**
   * Waits while another request is creating this order's checkout; undefined when that creation failed and the
   * order is free again. A reservation left behind by a crash is settled here rather than waited for.
   */
  async function awaitCreation(checkout: Checkout): Promise<Checkout | undefined> {
    const deadline = Date.now() + (options.creationWaitMs ?? 20_000);
    let current: Checkout | undefined = checkout;
    while (current?.state === 'Creating') {
      // Its creator gave up (a timeout or a 5xx): no use waiting. Look at the provider once; release only when old.
      if (isStale(current) || current.lastCheckedAt) {
        const settlement: Settlement = await recovery
          .settle(current, 'create', { release: isStale(current) })
          .catch(() => Promise.reject(pending()));
        if (settlement.outcome === 'released') return undefined;
        if (settlement.checkout?.state === 'Creating') throw pending();
        current = settlement.checkout;
        continue;
      }
      if (Date.now() > deadline) throw pending();
      await new Promise((resolve) => setTimeout(resolve, 50));
      current = await store.getCheckout(current.id);
    }
    return current;
  }

  /** The provider call of a fresh reservation, and what to keep when it fails or its answer comes too late. */
  async function startReserved(reservation: Checkout, adapter: MethodAdapter, order: PricedOrder): Promise<Checkout> {
    let activation: Activation;
    try {
      activation = await adapter.start({
        provider,
        checkout: reservation,
        order,
        webhook: { url: webhook.url, customHeaderName: webhook.headerName, customHeaderValue: webhook.secret },
        value: { original: formatCents(BigInt(order.amountCents)) },
      });
    } catch (error) {
      if (!mayHaveActed(error)) {
        await store.discardCheckout(reservation.id);
        throw fromProviderError(error);
      }
      // The provider may have made the transaction, or may still make it (a request held on the way): look before
      // answering and adopt what is there; otherwise the reservation stays, marked as given up, so that no retry
      // makes a second transaction. It is released once older than settleAfterMs, by a retry or the reconciler.
      const settlement = await recovery.settle(reservation, 'create', { release: false }).catch(() => undefined);
      if (settlement?.outcome === 'adopted') return settlement.checkout;
      if (settlement?.outcome === 'moved' && settlement.checkout && settlement.checkout.state !== 'Creating') return settlement.checkout;
      await store.markChecked(reservation.id, now());
      throw fromProviderError(error);
    }
    const activated = await store.activateCheckout(reservation.id, activation, now()).catch(() => undefined);
    if (activated) {
      hub.publish(activated.checkout.id, activated.event.seq);
      return activated.checkout;
    }
    // The answer came after the reservation was settled without it: keep the transaction all the same.
    const adopted = await recovery.adoptAnswer(activation, 'create');
    if (!adopted) throw pending();
    return (adopted.duplicateOf && (await store.getCheckout(adopted.duplicateOf))) || adopted;
  }

  async function create(input: CreateCheckoutInput): Promise<{ created: boolean; checkout: Checkout }> {
    const adapter = METHOD_ADAPTERS[input.method];
    const order = await orders.resolve(input.orderId);
    if (!order) throw new ApiError(404, 'order_not_found', `Order ${input.orderId} was not found.`);

    // A failed concurrent creation frees the order again, so try to reserve it once more before giving up.
    for (let attempt = 0; attempt < 3; attempt++) {
      const createdAt = now();
      const reserved = await store.reserveCheckout({
        id: newCheckoutId(),
        orderId: input.orderId,
        method: input.method,
        amountCents: order.amountCents,
        description: order.description,
        payerCpf: input.payer?.cpf ?? null,
        payerName: input.payer?.name ?? null,
        details: adapter.draftDetails(input, { returnUrl: options.defaultReturnUrl }),
        expiresAt: windowEnd(createdAt, ttlMs),
        createdAt,
      });
      if (!reserved.created) {
        const existing = await awaitCreation(reserved.checkout);
        // The order's checkout is past its window ("Gerar novo código" before the BFF noticed): unless the provider
        // says it was paid meanwhile, it expires here and the order is free for a new one.
        const current = existing && (await expireIfDue(existing, 'read', { recheck: true }));
        if (current && current.state !== EXPIRED) return { created: false, checkout: current };
        continue;
      }
      return { created: true, checkout: await startReserved(reserved.checkout, adapter, order) };
    }
    throw pending();
  }

  /**
   * Applies a provider state if it moves the checkout forward; anything else changes nothing. A move out of
   * `Expired` (a late payment, or the provider's late error or cancellation) is marked `late: true` in the event's
   * data; when the order has a new checkout meanwhile, the store keeps a late payment as its duplicate, or, while
   * that new one still waits for the payer, expires it in favour of the paid one (both moves are published).
   */
  async function advance(
    checkout: Checkout,
    providerState: TransactionState,
    source: EventSource,
    data: Record<string, unknown>,
    changes?: TransitionChanges,
  ) {
    const to = fromTransactionState(providerState);
    let current = checkout;
    // Twice at most: a checkout read live may have expired since (or the other way round), and a late move says so.
    for (let attempt = 0; attempt < 2; attempt++) {
      if (!to || !canMove(current.state, to)) break;
      const late = current.state === EXPIRED;
      const from: StoredState[] = late ? [EXPIRED] : statesBefore(to).filter((state) => state !== EXPIRED);
      const result = await store.transition(current.id, from, to, source, late ? { ...data, late: true } : data, now(), changes);
      if (result.changed) {
        hub.publish(current.id, result.event.seq);
        if (result.superseded) hub.publish(result.superseded.checkout.id, result.superseded.event.seq);
        return result;
      }
      current = result.checkout;
    }
    return { changed: false as const, checkout: current };
  }

  /** Re-reads the transaction from the provider (the source of truth) and applies its state, with the receipt when paid. */
  async function refresh(checkout: Checkout, source: EventSource) {
    if (!checkout.transactionId) return { changed: false as const, checkout };
    const record = await provider.transactions.retrieve(checkout.transactionId);
    const { state, stateErrorCause } = record.transaction;
    const changes = state === 'Completed' ? { details: { ...receiptOf(record, now()) } } : undefined;
    const result = await advance(checkout, state, source, { transactionState: state, stateErrorCause: stateErrorCause ?? null }, changes);
    // Bookkeeping, not the change: written once the change's frames are on their way to the browsers.
    if (result.changed) await afterStreamWrites();
    await store.markChecked(checkout.id, now());
    return result;
  }

  /**
   * Moves a live checkout past its payment window to `Expired`, which frees its order; anything else is returned as
   * it is. With `recheck`, the provider is asked first, so a payment made in time and not yet heard of wins (when the
   * provider cannot be asked, the checkout expires all the same: a late payment still completes it).
   */
  async function expireIfDue(checkout: Checkout, source: EventSource, { recheck = false } = {}): Promise<Checkout> {
    if (!isPastWindow(checkout, clock.now())) return checkout;
    let current = checkout;
    if (recheck) {
      current = (await refresh(checkout, source).catch(() => undefined))?.checkout ?? checkout;
      if (!isLive(current.state)) return current;
    }
    const result = await store.transition(current.id, LIVE_STATES, EXPIRED, source, { expiresAt: expiresAtOf(current) }, now());
    if (result.changed) hub.publish(current.id, result.event.seq);
    return result.checkout;
  }

  /** Expires the live checkouts whose window has ended (each re-read from the provider first); for the reconciler. */
  async function expireDue(limit: number, onError: (error: unknown) => void): Promise<number> {
    let expired = 0;
    for (const checkout of await store.listExpiredCheckouts(now(), limit)) {
      try {
        if ((await expireIfDue(checkout, 'reconcile', { recheck: true })).state !== checkout.state) expired++;
      } catch (error) {
        onError(error);
      }
    }
    return expired;
  }

  /** Settles the reservations older than `settleAfterMs`; for the reconciler. Resolves with how many were settled. */
  async function settleStale(limit: number, onError: (error: unknown) => void): Promise<number> {
    const before = new Date(clock.now().getTime() - settleAfterMs).toISOString();
    let settled = 0;
    for (const reservation of await store.listStaleReservations(before, limit)) {
      try {
        await recovery.settle(reservation, 'reconcile');
        settled++;
      } catch (error) {
        onError(error);
      }
    }
    return settled;
  }

  return {
    create,
    advance,
    refresh,
    expireIfDue,
    expireDue,
    settleStale,
    adopt: (transactionId: string, source: EventSource) => recovery.adopt(transactionId, source),
  };
}
