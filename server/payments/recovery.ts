/**
 * Recovery of provider transactions that no checkout holds: the answer of a create was lost (a crash, a timeout, a
 * 5xx after the provider had acted), or a webhook names a transaction we never stored. The provider is the truth:
 * what it has for one of our orders is adopted, never ignored, so no payment is lost; and a reservation is released
 * only when the provider has nothing for it, so no order gets a second payable transaction while one can be paid.
 */
import { centsOf } from '../../core/money';
import { decideAdoption, holdsPlace } from '../../core/checkout-machine';
import { CREATING, fromTransactionState } from '../../core/states';
import type { Clock } from '../lib/clock';
import { safeEqual } from '../lib/secrets';
import type { ProviderClient, TransactionRecord } from '../provider';
import type { Activation, Checkout, EventSource, Store } from '../store/types';
import { METHOD_ADAPTERS, methodOfRecord } from './methods';
import { receiptOf } from './receipt';
import type { Settlement } from './saga';
import type { WebhookTarget } from './webhook-target';
import { windowEnd } from './window';

/** How far the provider's clock may be from ours when we ask for an order's transactions "since the reservation". */
const CLOCK_SKEW_MS = 5 * 60_000;
/** The provider lists one order's transactions over at most one day. */
const MAX_RANGE_MS = 24 * 60 * 60_000 - 1;

export interface RecoveryOptions {
  provider: ProviderClient;
  store: Store;
  clock: Clock;
  webhook: WebhookTarget;
  newId: () => string;
  /** The payment window of an adopted transaction, from its date at the provider. */
  checkoutTtlMs: number;
}

export type Recovery = ReturnType<typeof createRecovery>;

export function createRecovery({ provider, store, clock, webhook, newId, checkoutTtlMs }: RecoveryOptions) {
  const now = () => clock.now().toISOString();

  /**
   * Made by this deployment: the provider's record echoes the webhook we gave. The secret header value is shared by
   * every instance (each one's address may differ), so it decides; the address alone decides when the record omits it.
   */
  const ours = (record: TransactionRecord) =>
    record.webhook.customHeaderValue ? safeEqual(record.webhook.customHeaderValue, webhook.secret) : record.webhook.url === webhook.url;

  /** The full records of the order's credit transactions since `since` that no checkout of ours holds. */
  async function unheld(orderId: string, since: string): Promise<TransactionRecord[]> {
    const end = clock.now().getTime() + CLOCK_SKEW_MS;
    const start = Math.max(Date.parse(since) - CLOCK_SKEW_MS, end - MAX_RANGE_MS);
    const found: TransactionRecord[] = [];
    for (let offset = 0; ; offset += 20) {
      const page = await provider.transactions.list({
        transactionOrderId: orderId,
        startDate: new Date(start).toISOString(),
        endDate: new Date(end).toISOString(),
        'dataset.limit': 20,
        'dataset.offset': offset,
      });
      for (const { transaction } of page.items) {
        if (transaction.type !== 'Credit' || (await store.findCheckoutByTransaction(transaction.id))) continue;
        const record = await provider.transactions.retrieve(transaction.id);
        if (ours(record)) found.push(record);
      }
      if (page.items.length < 20 || offset + 20 >= page.total) return found;
    }
  }

  function activationOf(record: TransactionRecord, details: Record<string, unknown>): Activation | undefined {
    // Refunded has no checkout state; a transaction that is already refunded owes nobody anything.
    const state = fromTransactionState(record.transaction.state);
    // A transaction found already paid keeps its receipt, as a payment seen by a webhook does.
    const receipt = state === 'Completed' ? receiptOf(record, now()) : {};
    return state && { state, transactionId: record.transaction.id, details: { ...details, ...receipt } };
  }

  /**
   * Stores a transaction of one of our orders that no checkout holds. It takes the order's place (a `Creating`
   * reservation, or a free place) when a shopper can pay from it; otherwise, or when the order already has its
   * checkout, it is kept beside that checkout as its duplicate, so it is still followed and a second payment shows.
   * `answered` is the method's fields from the provider's own create answer, when we have it.
   */
  async function adoptRecord(
    record: TransactionRecord,
    source: EventSource,
    answered?: Record<string, unknown>,
  ): Promise<Checkout | undefined> {
    const { transaction } = record;
    const method = methodOfRecord(record);
    const cents = centsOf(transaction.amount);
    if (!method || !transaction.orderId || cents === undefined || cents <= 0) return undefined;
    const resumable = answered ?? METHOD_ADAPTERS[method].resumable(record);
    const activation = activationOf(record, resumable ?? {});
    if (!activation) return undefined;
    const draft = {
      id: newId(),
      orderId: transaction.orderId,
      method,
      amountCents: cents,
      description: transaction.orderDescription ?? null,
      payerCpf: record.payment.payer?.cpf ?? null,
      payerName: record.payment.payer?.name ?? null,
      expiresAt: Number.isFinite(Date.parse(transaction.date)) ? windowEnd(transaction.date, checkoutTtlMs) : null,
      createdAt: transaction.date,
    };
    for (let attempt = 0; attempt < 3; attempt++) {
      const known = await store.findCheckoutByTransaction(transaction.id);
      if (known) return known;
      const holder = (await store.findCheckoutsByOrder(transaction.orderId)).find((c) => !c.duplicateOf && holdsPlace(c.state));
      const adoption = decideAdoption({ method, resumable: resumable !== undefined, ...(holder && { holder }) });
      if (adoption.kind === 'activate') {
        const activated = await store.activateCheckout(adoption.reservationId, activation, now()).catch(() => undefined);
        if (activated) return activated.checkout;
        continue;
      }
      const duplicateOf = adoption.kind === 'insert' ? adoption.duplicateOf : draft.id;
      const inserted = await store.insertActive(draft, activation, source, duplicateOf, now());
      if (inserted) return inserted.checkout;
    }
    return store.findCheckoutByTransaction(transaction.id);
  }

  return {
    /** Adopts a transaction by id when it is one of ours; undefined when it is not (or has no checkout state). */
    async adopt(transactionId: string, source: EventSource): Promise<Checkout | undefined> {
      const record = await provider.transactions.retrieve(transactionId);
      return ours(record) ? adoptRecord(record, source) : undefined;
    },

    /** Stores a create answer whose reservation was settled meanwhile (another request or instance released it). */
    async adoptAnswer(activation: Activation, source: EventSource): Promise<Checkout | undefined> {
      const record = await provider.transactions.retrieve(activation.transactionId);
      return adoptRecord(record, source, activation.details);
    },

    /**
     * Settles a `Creating` reservation whose provider call crashed, timed out or failed ambiguously: adopts what the
     * provider made for the order since the reservation, or, with `release`, frees the order when it made nothing.
     * Release only reservations older than any create could still be in flight: a request held on the way may reach
     * the provider after the lookup. Rejects when the provider cannot be asked; the reservation then stays, and
     * nothing new is created for the order.
     */
    async settle(reservation: Checkout, source: EventSource, { release = true } = {}): Promise<Settlement<Checkout>> {
      const found = await unheld(reservation.orderId, reservation.createdAt);
      let adopted: Checkout | undefined;
      for (const record of found) {
        const checkout = await adoptRecord(record, source);
        if (checkout?.id === reservation.id) adopted = checkout;
      }
      if (adopted) return { outcome: 'adopted', record: adopted };
      const current = await store.getCheckout(reservation.id);
      if (current?.state !== CREATING || !release) return { outcome: 'moved', record: current };
      await store.discardCheckout(reservation.id);
      return { outcome: 'released' };
    },
  };
}
