/**
 * Recovery of provider transactions that no checkout holds: the answer of a create was lost (a crash, a timeout, a
 * 5xx after the provider had acted), or a webhook names a transaction we never stored. The provider is the truth:
 * what it has for one of our orders is adopted, never ignored, so no payment is lost; and a reservation is released
 * only when the provider has nothing for it, so no order gets a second payable transaction while one can be paid.
 */
import { taxNumberDigits } from '../../core/cpf';
import { centsOf } from '../../core/money';
import { decideAdoption, holdsPlace } from '../../core/checkout-machine';
import { CREATING, fromTransactionState, type ProviderCheckoutState } from '../../core/states';
import type { Clock } from '../lib/clock';
import { safeEqual } from '../lib/secrets';
import type { ProviderClient, TransactionRecord } from '../provider';
import type { BackOfficeStore } from '../store/back-office';
import type { CheckoutStore } from '../store/checkout-store';
import type { Activation, Checkout, EventSource } from '../store/types';
import { METHOD_ADAPTERS, methodOfRecord } from './methods';
import { receiptOf } from './receipt';
import type { Settlement } from './saga';
import type { OrderResolver } from './orders';
import type { WebhookTarget } from './webhook-target';
import { windowEnd } from './window';

/** How far the provider's clock may be from ours when we ask for an order's transactions "since the reservation". */
const CLOCK_SKEW_MS = 5 * 60_000;
/** The provider lists one order's transactions over at most one day. */
const MAX_RANGE_MS = 24 * 60 * 60_000 - 1;

export interface RecoveryOptions {
  provider: ProviderClient;
  /** The checkouts, and the foreign transactions' record (of the back office's part). */
  store: CheckoutStore & Pick<BackOfficeStore, 'recordForeignTransaction'>;
  clock: Clock;
  webhook: WebhookTarget;
  /** The order's price, for a transaction adopted from a webhook (no reservation to compare with). */
  orders: OrderResolver;
  newId: () => string;
  /** The payment window of an adopted transaction, from its date at the provider. */
  checkoutTtlMs: number;
}

/** What the checkout service recovers with: transactions of ours that no checkout holds, found and stored. */
export interface Recovery {
  /**
   * Adopts a transaction by id (a webhook of a transaction no checkout holds) when it is provably ours and of its
   * order's current price; undefined when it is not (it is then kept as foreign) or has no checkout state.
   */
  adopt(transactionId: string, source: EventSource): Promise<Checkout | undefined>;
  /** Stores our create's answer whose reservation was settled meanwhile (another request or instance released it). */
  adoptAnswer(reservation: Checkout, activation: Activation, source: EventSource): Promise<Checkout | undefined>;
  /**
   * Settles a `Creating` reservation whose provider call crashed, timed out or failed ambiguously: adopts what the
   * provider made for the order since the reservation, or, with `release` (the default), frees the order when it
   * made nothing. Release only reservations older than any create could still be in flight: a request held on the
   * way may reach the provider after the lookup. Rejects when the provider cannot be asked; the reservation then
   * stays, and nothing new is created for the order.
   */
  settle(reservation: Checkout, source: EventSource, options?: { release?: boolean }): Promise<Settlement<Checkout>>;
}

export function createRecovery({ provider, store, clock, webhook, orders, newId, checkoutTtlMs }: RecoveryOptions): Recovery {
  const now = () => clock.now().toISOString();

  const ourPath = new URL(webhook.url).pathname;

  /**
   * Why a transaction of one of our orders is not provably ours, or undefined when it is: the provider's record must
   * echo our secret header value (shared by every instance) and our webhook receiver's path (each instance's host may
   * differ), and charge exactly `expectedCents`, the order's amount. Anything else someone else made, and it is
   * recorded as foreign, never adopted: a shopper must never be shown a code that charges another amount.
   */
  function foreignReason(record: TransactionRecord, expectedCents: number | undefined): string | undefined {
    const hook = record.webhook;
    if (!hook.customHeaderValue || !safeEqual(hook.customHeaderValue, webhook.secret)) return 'secret';
    if (!hook.url || pathOf(hook.url) !== ourPath) return 'webhook_url';
    if (expectedCents === undefined) return 'unknown_order';
    if (centsOf(record.transaction.amount) !== expectedCents) return 'amount';
    return undefined;
  }

  /** True when the record is ours and of the order's amount; otherwise it is kept as foreign for the merchant. */
  async function provablyOurs(record: TransactionRecord, expectedCents: number | undefined): Promise<boolean> {
    const reason = foreignReason(record, expectedCents);
    if (!reason) return true;
    const { transaction } = record;
    await store.recordForeignTransaction({
      transactionId: transaction.id,
      orderId: transaction.orderId ?? '',
      method: methodOfRecord(record) ?? null,
      amount: transaction.amount,
      state: transaction.state,
      reason,
      seenAt: now(),
    });
    return false;
  }

  /** The full records of the order's credit transactions since `since` that no checkout holds and that are ours. */
  async function unheld(orderId: string, since: string, expectedCents: number): Promise<TransactionRecord[]> {
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
        if (await provablyOurs(record, expectedCents)) found.push(record);
      }
      if (page.items.length < 20 || offset + 20 >= page.total) return found;
    }
  }

  function activationOf(
    record: TransactionRecord,
    details: Record<string, unknown>,
  ): (Activation & { state: ProviderCheckoutState }) | undefined {
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
      // The provider keeps the request as made: a CPF may come with its dots and dash.
      payerCpf: record.payment.payer?.cpf ? taxNumberDigits(record.payment.payer.cpf) : null,
      payerName: record.payment.payer?.name ?? null,
      expiresAt: Number.isFinite(Date.parse(transaction.date)) ? windowEnd(transaction.date, checkoutTtlMs) : null,
      createdAt: transaction.date,
    };
    for (let attempt = 0; attempt < 3; attempt++) {
      const known = await store.findCheckoutByTransaction(transaction.id);
      if (known) return known;
      const holder = (await store.findCheckoutsByOrder(transaction.orderId)).find((c) => !c.duplicateOf && holdsPlace(c.state));
      const adoption = decideAdoption({ method, state: activation.state, resumable: resumable !== undefined, ...(holder && { holder }) });
      if (adoption.kind === 'activate') {
        const activated = await store.activateCheckout(adoption.reservationId, activation, now()).catch(() => undefined);
        if (activated) return activated.checkout;
        continue;
      }
      if (adoption.kind === 'supersede') {
        // Stored meanwhile by another request (it rolls back): the next attempt finds it.
        const taken = await store.insertSuperseding(draft, activation, source, adoption.holderId, now()).catch(() => undefined);
        if (taken) return taken.checkout;
        continue;
      }
      const duplicateOf = adoption.kind === 'insert' ? adoption.duplicateOf : draft.id;
      const inserted = await store.insertActive(draft, activation, source, duplicateOf, now());
      if (inserted) return inserted.checkout;
    }
    return store.findCheckoutByTransaction(transaction.id);
  }

  return {
    async adopt(transactionId: string, source: EventSource): Promise<Checkout | undefined> {
      const record = await provider.transactions.retrieve(transactionId);
      // A debit is a cash-out of ours (handled by its own webhook path) or nobody's checkout.
      if (record.transaction.type !== 'Credit') return undefined;
      const orderId = record.transaction.orderId;
      const order = orderId ? await orders.resolve(orderId) : undefined;
      return (await provablyOurs(record, order?.amountCents)) ? adoptRecord(record, source) : undefined;
    },
    async adoptAnswer(reservation: Checkout, activation: Activation, source: EventSource): Promise<Checkout | undefined> {
      const record = await provider.transactions.retrieve(activation.transactionId);
      return (await provablyOurs(record, reservation.amountCents)) ? adoptRecord(record, source, activation.details) : undefined;
    },
    async settle(reservation: Checkout, source: EventSource, { release = true } = {}): Promise<Settlement<Checkout>> {
      const found = await unheld(reservation.orderId, reservation.createdAt, reservation.amountCents);
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

/** The path of a webhook address; undefined when it is no URL. */
function pathOf(url: string): string | undefined {
  try {
    return new URL(url).pathname;
  } catch {
    return undefined;
  }
}
