/**
 * The checkout lifecycle: idempotent creation per order, and forward-only moves driven by what the provider says
 * (webhook hints, reconciliation). Routes, the webhook receiver and the reconciler all go through here.
 */
import { randomBytes } from 'node:crypto';
import { formatCents } from '../../core/money';
import { transitionFor } from '../../core/checkout-machine';
import { CREATING, EXPIRED, fromTransactionState, isLive } from '../../core/states';
import type { TransactionState } from '../provider';
import type { Activation, Checkout, EventSource, MoveEvent, TransitionChanges, TransitionResult } from '../store/types';
import { checkoutPending, fromProviderError, orderNotFound } from './errors';
import { METHOD_ADAPTERS, type MethodAdapter } from './methods';
import type { PricedOrder } from './orders';
import { receiptOf } from './receipt';
import { refreshCashOut, settleStaleCashOuts } from './cashout-settle';
import { settleStaleCompanyPayments } from './company-payment-settle';
import { createRecovery } from './recovery';
import { createSaga } from './saga';
import type { CheckoutService, CheckoutServiceOptions, CreateCheckoutInput } from './checkout-service';
import { DEFAULT_CHECKOUT_TTL_SECONDS, expiresAtOf, isPastWindow, windowEnd } from './window';

export type { WebhookTarget } from './webhook-target';
export type { CheckoutService, CheckoutServiceOptions, CheckoutServiceStore, CreateCheckoutInput } from './checkout-service';

/** 128 random bits, URL-safe: checkout ids must not be guessable. */
export const newCheckoutId = () => `co_${randomBytes(16).toString('base64url')}`;

/** A create request once its order is priced: what the saga's steps need. */
interface PricedRequest {
  input: CreateCheckoutInput;
  order: PricedOrder;
  adapter: MethodAdapter;
}

/**
 * `work`, or `checkout_pending` once `ms` have passed; the work goes on either way (a reservation it leaves is
 * answered to the next request for the order, or settled by the reconciler), and its late failure is not lost
 * to an unhandled rejection.
 */
async function withinDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(checkoutPending()), ms)));
  work.catch(() => undefined);
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

export function createCheckoutService(options: CheckoutServiceOptions): CheckoutService {
  const { provider, store, orders, clock, webhook } = options;
  const now = () => clock.now().toISOString();
  const ttlMs = options.checkoutTtlMs ?? DEFAULT_CHECKOUT_TTL_SECONDS * 1000;
  const recovery = createRecovery({ provider, store, clock, webhook, orders, newId: newCheckoutId, checkoutTtlMs: ttlMs });

  /** What each step of the money-moving saga (./saga) means for a checkout: the order is the key. */
  const saga = createSaga<PricedRequest, Checkout, Activation>(
    {
      async reserve({ input, order, adapter }) {
        const createdAt = now();
        const { created, checkout } = await store.reserveCheckout({
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
        return { created, record: checkout };
      },
      isReserved: (checkout) => checkout.state === CREATING,
      call: (reservation, { order, adapter }) =>
        adapter.start({
          provider,
          checkout: reservation,
          order,
          webhook: { url: webhook.url, customHeaderName: webhook.headerName, customHeaderValue: webhook.secret },
          value: { original: formatCents(order.amountCents) },
        }),
      activate: async (reservation, activation) => (await store.activateCheckout(reservation.id, activation, now())).checkout,
      async adoptAnswer(reservation, activation) {
        const adopted = await recovery.adoptAnswer(reservation, activation, 'create');
        return adopted && ((adopted.duplicateOf && (await store.getCheckout(adopted.duplicateOf))) || adopted);
      },
      settle: (reservation, { release, reason }) => recovery.settle(reservation, reason, { release }),
      discard: (reservation) => store.discardCheckout(reservation.id),
      reload: (checkout) => store.getCheckout(checkout.id),
      createdAt: (checkout) => checkout.createdAt,
      gaveUp: (checkout) => checkout.lastCheckedAt !== null,
      markGaveUp: (reservation) => store.markChecked(reservation.id, now()),
      pending: checkoutPending,
      failure: fromProviderError,
      // The order's checkout is past its window ("Gerar novo código" before the BFF noticed): unless the provider
      // says it was paid meanwhile, it expires here and the order is free for a new one.
      async review(existing) {
        const current = await expireIfDue(existing, 'read', { recheck: true });
        return current.state === EXPIRED ? undefined : current;
      },
    },
    {
      clock,
      settleAfterMs: options.settleAfterMs ?? 30_000,
      waitMs: options.creationWaitMs ?? 20_000,
      pollMs: 50,
    },
  );

  async function create(input: CreateCheckoutInput): Promise<{ created: boolean; checkout: Checkout }> {
    const adapter = METHOD_ADAPTERS[input.method];
    const order = await orders.resolve(input.orderId);
    if (!order) throw orderNotFound(input.orderId);
    const { created, record } = await withinDeadline(saga.run({ input, order, adapter }), options.createDeadlineMs ?? 15_000);
    return { created, checkout: record };
  }

  /**
   * Applies the provider's state to the checkout: the state machine (`core/checkout-machine.ts`), run by the store
   * inside its transaction, decides whether it moves, marks a move out of `Expired` late, and keeps a late payment
   * as the order's duplicate or lets it take the order from a newer code. A state the machine refuses from what we
   * last read is refused from every later state too (moves only go forward), so it costs no store round trip.
   */
  async function advance(
    checkout: Checkout,
    providerState: TransactionState,
    source: EventSource,
    data: Record<string, unknown>,
    changes?: TransitionChanges,
  ): Promise<TransitionResult> {
    const state = fromTransactionState(providerState);
    if (!state) return { changed: false, checkout };
    const paidAt = changes?.details?.paidAt;
    const event: MoveEvent = { type: 'provider', state, ...(typeof paidAt === 'string' && { paidAt }) };
    if (!transitionFor(checkout.state, event)) return { changed: false, checkout };
    return store.apply(checkout.id, event, source, data, now(), changes);
  }

  /**
   * Re-reads the transaction from the provider (the source of truth) and applies its state, with the receipt when
   * paid. `webhookAt`: the webhook that asked for it came then. The bookkeeping (re-read, webhook seen) rides on the
   * transition's own UPDATE when the checkout moves; otherwise it is written on its own.
   */
  async function refresh(checkout: Checkout, source: EventSource, { webhookAt }: { webhookAt?: string } = {}) {
    if (!checkout.transactionId) {
      if (webhookAt) await store.markWebhookSeen(checkout.id, webhookAt);
      return { changed: false as const, checkout };
    }
    const record = await provider.transactions.retrieve(checkout.transactionId, { view: 'status' });
    const { state, stateErrorCause } = record.transaction;
    const checkedAt = now();
    const changes = {
      checkedAt,
      ...(webhookAt && { webhookAt }),
      ...(state === 'Completed' && { details: { ...receiptOf(record, checkedAt) } }),
    };
    const result = await advance(checkout, state, source, { transactionState: state, stateErrorCause: stateErrorCause ?? null }, changes);
    if (!result.changed) {
      await store.markChecked(checkout.id, checkedAt);
      if (webhookAt) await store.markWebhookSeen(checkout.id, webhookAt);
    }
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
    const result = await store.apply(current.id, { type: 'expire' }, source, { expiresAt: expiresAtOf(current) }, now());
    return result.checkout;
  }

  /**
   * Expires the live checkouts whose window has ended (each re-read from the provider first); for the reconciler. They
   * are claimed, so instances expire disjoint ones; one whose claimer crashed is claimed again after `claimMs`.
   */
  async function expireDue(limit: number, onError: (error: unknown) => void, claimMs = 60_000): Promise<number> {
    let expired = 0;
    const until = new Date(clock.now().getTime() + claimMs).toISOString();
    for (const checkout of await store.claimDueExpiries(now(), limit, until)) {
      try {
        if ((await expireIfDue(checkout, 'reconcile', { recheck: true })).state !== checkout.state) expired++;
      } catch (error) {
        onError(error);
      }
    }
    return expired;
  }

  /**
   * Settles the reservations older than the settle window (their call crashed or never answered); for the reconciler.
   * They are claimed, so instances settle disjoint ones; one whose claimer crashed is claimed again after `claimMs`.
   */
  async function settleStale(limit: number, onError: (error: unknown) => void, claimMs = 60_000): Promise<number> {
    const nowMs = clock.now().getTime();
    const before = new Date(nowMs - (options.settleAfterMs ?? 30_000)).toISOString();
    const claimed = await store.claimStaleReservations(now(), before, limit, new Date(nowMs + claimMs).toISOString());
    return saga.settleStale(claimed, onError);
  }

  /**
   * Settles the cash-outs and refunds a crash or a lost answer left `Sending` past the settle window, and re-reads the
   * activated ones unheard of for as long (./cashout-settle.ts); and the payment requests to companies left `Sending`
   * (./company-payment-settle.ts). Resolves with how many moved.
   */
  async function settleStaleMoneyOut(limit: number, onError: (error: unknown) => void, claimMs = 60_000): Promise<number> {
    const terms = { limit, settleAfterMs: options.settleAfterMs ?? 30_000, claimMs };
    const cashOuts = await settleStaleCashOuts({ provider, store, clock }, terms, onError);
    return cashOuts + (await settleStaleCompanyPayments({ provider, store, clock }, terms, onError));
  }

  /**
   * A provider webhook of one of our cash-outs (or refunds): re-reads it and records its state, so the merchant's
   * events of it are written at once. False when no cash-out is that transaction.
   */
  async function cashOutWebhook(transactionId: string): Promise<boolean> {
    const cashOut = await store.findCashOutByTransaction(transactionId);
    if (!cashOut) return false;
    await refreshCashOut({ provider, store, clock }, cashOut);
    return true;
  }

  return {
    create,
    cashOutWebhook,
    advance,
    refresh,
    expireIfDue,
    expireDue,
    settleStale,
    settleStaleMoneyOut,
    adopt: (transactionId: string, source: EventSource) => recovery.adopt(transactionId, source),
  };
}
