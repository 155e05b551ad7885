/**
 * The checkout lifecycle: idempotent creation per order, and forward-only moves driven by what the provider says
 * (webhook hints, reconciliation). Routes, the webhook receiver and the reconciler all go through here.
 */
import { randomBytes } from 'node:crypto';
import type { Method } from '../../core/methods';
import { formatCents } from '../../core/money';
import { canMove, fromTransactionState, statesBefore } from '../../core/states';
import type { Clock } from '../lib/clock';
import type { ProviderClient, TransactionState } from '../provider';
import type { Activation, Checkout, EventSource, Store, StatusHub } from '../store/types';
import { ApiError, fromProviderError } from './errors';
import { METHOD_ADAPTERS } from './methods';
import type { OrderResolver } from './orders';

export interface WebhookTarget {
  /** Our receiver's absolute address, given to the provider with every transaction. */
  url: string;
  headerName: string;
  /** The per-deployment secret the provider echoes in `headerName`. */
  secret: string;
}

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

export function createCheckoutService(options: CheckoutServiceOptions) {
  const { provider, store, hub, orders, clock, webhook } = options;
  const now = () => clock.now().toISOString();

  /** Waits while another request is creating this order's checkout; undefined when that creation failed. */
  async function settled(checkout: Checkout): Promise<Checkout | undefined> {
    const deadline = Date.now() + (options.creationWaitMs ?? 20_000);
    let current: Checkout | undefined = checkout;
    while (current?.state === 'Creating') {
      if (Date.now() > deadline) throw new ApiError(503, 'checkout_pending', 'The payment is still being prepared. Please try again.');
      await new Promise((resolve) => setTimeout(resolve, 50));
      current = await store.getCheckout(current.id);
    }
    return current;
  }

  async function create(input: CreateCheckoutInput): Promise<{ created: boolean; checkout: Checkout }> {
    const adapter = METHOD_ADAPTERS[input.method];
    const order = await orders.resolve(input.orderId);
    if (!order) throw new ApiError(404, 'order_not_found', `Order ${input.orderId} was not found.`);

    // A failed concurrent creation frees the order again, so try to reserve it once more before giving up.
    for (let attempt = 0; attempt < 3; attempt++) {
      const reserved = await store.reserveCheckout({
        id: newCheckoutId(),
        orderId: input.orderId,
        method: input.method,
        amountCents: order.amountCents,
        description: order.description,
        payerCpf: input.payer?.cpf ?? null,
        payerName: input.payer?.name ?? null,
        details: adapter.draftDetails(input, { returnUrl: options.defaultReturnUrl }),
        createdAt: now(),
      });
      if (!reserved.created) {
        const existing = await settled(reserved.checkout);
        if (existing) return { created: false, checkout: existing };
        continue;
      }
      let activation: Activation;
      try {
        activation = await adapter.start({
          provider,
          checkout: reserved.checkout,
          order,
          webhook: { url: webhook.url, customHeaderName: webhook.headerName, customHeaderValue: webhook.secret },
          value: { original: formatCents(BigInt(order.amountCents)) },
        });
      } catch (error) {
        await store.discardCheckout(reserved.checkout.id);
        throw fromProviderError(error);
      }
      const { checkout, event } = await store.activateCheckout(reserved.checkout.id, activation, now());
      hub.publish(checkout.id, event.seq);
      return { created: true, checkout };
    }
    throw new ApiError(503, 'checkout_pending', 'The payment could not be prepared. Please try again.');
  }

  /** Applies a provider state if it moves the checkout forward; anything else changes nothing. */
  async function advance(checkout: Checkout, providerState: TransactionState, source: EventSource, data: Record<string, unknown>) {
    const to = fromTransactionState(providerState);
    if (!to || !canMove(checkout.state, to)) return { changed: false as const, checkout };
    const result = await store.transition(checkout.id, statesBefore(to), to, source, data, now());
    if (result.changed) hub.publish(checkout.id, result.event.seq);
    return result;
  }

  /** Re-reads the transaction from the provider (the source of truth) and applies its state. */
  async function refresh(checkout: Checkout, source: EventSource) {
    if (!checkout.transactionId) return { changed: false as const, checkout };
    const record = await provider.transactions.retrieve(checkout.transactionId);
    const { state, stateErrorCause } = record.transaction;
    const result = await advance(checkout, state, source, { transactionState: state, stateErrorCause: stateErrorCause ?? null });
    await store.markChecked(checkout.id, now());
    return result;
  }

  return { create, advance, refresh };
}
