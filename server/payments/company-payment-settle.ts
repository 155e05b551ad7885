/**
 * What the provider says of a payment request to a company whose answer we may not have (a crash, a timeout), with
 * no request for its key needed: the contract gives a request no id of ours, so it is found among the provider's
 * requests of the day by what it asks (amount, description, receiver, account) and no other key holding it. The
 * desk (./company-payments.ts) settles a key a retry finds `Sending` with it; the reconciler (./reconciler.ts,
 * through the checkout service's `settleStaleMoneyOut`) settles every one left `Sending` past the settle window, on
 * every instance, so no payment request stays unknown because nobody asked again.
 */
import { MICRO_SCALE, microsOf, parseDecimal } from '../../core/money';
import type { Clock } from '../lib/clock';
import type { PaymentRequest, ProviderClient } from '../provider';
import type { CompanyPayment, CompanyPaymentStore } from '../store/company-payments';
import type { Settlement } from './saga';

export interface CompanyPaymentSources {
  provider: ProviderClient;
  store: CompanyPaymentStore;
  clock: Clock;
}

/** How far the provider's clock may be from ours, and the day after a send that a lost request is looked for in. */
const SKEW_MS = 5 * 60_000;
const DAY_MS = 24 * 60 * 60_000;
/** Pages of the provider's list looked through for a lost request (20 each), per status. */
const SETTLE_PAGES = 5;

/** When a payment was (last) taken for sending: its approval, or its creation. The look-up starts there. */
export const sentFrom = (payment: CompanyPayment) => payment.decidedAt ?? payment.createdAt;

/** Whether the provider's `item` is the request `payment` asked for (its amount compared exactly, at six decimals). */
const asks = (item: PaymentRequest, payment: CompanyPayment) =>
  parseDecimal(item.amount, MICRO_SCALE) === microsOf(payment.amountCents) &&
  item.description === payment.description &&
  item.refReceiver === payment.receiverId &&
  item.refBankAccount === payment.accountId;

/** The provider's request that `payment` made, if the provider has one no other key holds. */
async function findMade({ provider, store }: CompanyPaymentSources, payment: CompanyPayment): Promise<PaymentRequest | undefined> {
  const start = Date.parse(sentFrom(payment)) - SKEW_MS;
  for (const status of ['Pending', 'Approved'] as const) {
    for (let page = 0; page < SETTLE_PAGES; page++) {
      const found = await provider.paymentRequests.list({
        'dataset.limit': 20,
        'dataset.offset': page * 20,
        status,
        startDate: new Date(start).toISOString(),
        endDate: new Date(start + DAY_MS).toISOString(),
      });
      for (const item of found.items.filter((i) => asks(i, payment))) {
        if (!(await store.findCompanyPaymentByRequest(item.id))) return item;
      }
      if ((page + 1) * 20 >= found.total) break;
    }
  }
  return undefined;
}

/**
 * Finds what the provider made for `payment` and links it, or, when it made nothing and `release` is set, frees the
 * key (one sent without approval is gone; an approved one waits for a decision again).
 */
export async function settleCompanyPayment(
  sources: CompanyPaymentSources,
  payment: CompanyPayment,
  { release }: { release: boolean },
): Promise<Settlement<CompanyPayment>> {
  const { store, clock } = sources;
  const made = await findMade(sources, payment);
  if (made) {
    const activated = await store.activateCompanyPayment(payment.idempotencyKey, made.id, clock.now().toISOString());
    if (activated) return { outcome: 'adopted', record: activated };
    return { outcome: 'moved', record: await store.getCompanyPayment(payment.idempotencyKey) };
  }
  if (!release) return { outcome: 'moved', record: payment };
  await store.discardCompanyPayment(payment.idempotencyKey);
  return { outcome: 'released' };
}

/**
 * One reconciler pass over payment requests: claims (leased until `claimMs` from now, so instances share the work)
 * those `Sending` for longer than `settleAfterMs` and settles each at the provider (adopted, or released: older than
 * the window, no request held on the way can still land). Resolves with how many moved; a failure of one is told to
 * `onError` and it is claimed again when its lease ends.
 */
export async function settleStaleCompanyPayments(
  sources: CompanyPaymentSources,
  { limit, settleAfterMs, claimMs }: { limit: number; settleAfterMs: number; claimMs: number },
  onError: (error: unknown) => void,
): Promise<number> {
  const nowMs = sources.clock.now().getTime();
  const at = (ms: number) => new Date(ms).toISOString();
  const claimed = await sources.store.claimStaleCompanyPayments(at(nowMs), at(nowMs - settleAfterMs), limit, at(nowMs + claimMs));
  let moved = 0;
  for (const payment of claimed) {
    try {
      if ((await settleCompanyPayment(sources, payment, { release: true })).outcome !== 'moved') moved++;
    } catch (error) {
      onError(error);
    }
  }
  return moved;
}
