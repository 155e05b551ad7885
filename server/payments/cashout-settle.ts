/**
 * What the provider says of a cash-out (refunds are cash-outs) whose answer we may not have, with no request for its
 * key needed: a create whose answer was lost (a crash, a timeout) found by the order id chosen before the call, and an
 * activated one's state re-read. The cash-out desk (./cashouts.ts) settles a key a retry finds `Sending` with the
 * first; the reconciler (./reconciler.ts, through the checkout service) settles every cash-out left `Sending` past the
 * settle window and follows those the provider still moves (`settleStaleCashOuts`), on every instance, so no money
 * out stays unknown because nobody asked again.
 */
import type { Clock } from '../lib/clock';
import type { ProviderClient, TransactionRecord } from '../provider';
import { CASH_OUT_SENDING, isFinalCashOutState, type BackOfficeStore, type CashOut } from '../store/back-office';
import type { ReconcileStore } from '../store/checkout-store';
import type { Settlement } from './saga';

export interface CashOutSources {
  provider: ProviderClient;
  store: BackOfficeStore;
  clock: Clock;
}

/** The reconciler's pass over money out claims what it settles as well. */
export interface StaleCashOutSources extends CashOutSources {
  store: BackOfficeStore & ReconcileStore;
}

/** When a cash-out was (last) taken for sending: its approval, or its creation. The provider's look-up starts there. */
export const sentFrom = (cashOut: CashOut) => cashOut.decidedAt ?? cashOut.createdAt;

/** How far the provider's clock may be from ours when an order's transactions are listed. */
const SKEW_MS = 5 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

/**
 * Finds what the provider made for the cash-out's order id and activates the cash-out with it (writing its merchant
 * events), or, when it made nothing and `release` is set, frees the key (a refund's amount is free again; an approved
 * movement waits for a decision again). Without `release` a cash-out the provider has nothing of stays `Sending`.
 */
export async function settleCashOut(
  { provider, store, clock }: CashOutSources,
  cashOut: CashOut,
  { release }: { release: boolean },
): Promise<Settlement<CashOut>> {
  const start = Date.parse(sentFrom(cashOut)) - SKEW_MS;
  const page = await provider.transactions.list({
    transactionOrderId: cashOut.orderId,
    startDate: new Date(start).toISOString(),
    endDate: new Date(start + DAY_MS - 1).toISOString(),
    'dataset.limit': 5,
    'dataset.offset': 0,
  });
  const made = page.items.find((item) => item.transaction.type === 'Debit' && item.transaction.orderId === cashOut.orderId);
  if (made) {
    const at = clock.now().toISOString();
    const activated = await store.activateCashOut(cashOut.idempotencyKey, made.transaction.id, made.transaction.state, at);
    if (activated) return { outcome: 'adopted', record: activated };
    return { outcome: 'moved', record: await store.getCashOut(cashOut.idempotencyKey) };
  }
  if (!release) return { outcome: 'moved', record: cashOut };
  await store.discardCashOut(cashOut.idempotencyKey);
  return { outcome: 'released' };
}

/**
 * Re-reads one activated cash-out at the provider (the truth) and records a new state or its charges: for the desk's
 * lists, for the provider's webhook of a cash-out (like every webhook, only a hint), and for the reconciler.
 */
export async function refreshCashOut(
  { provider, store, clock }: CashOutSources,
  cashOut: CashOut,
  onRecord?: (record: TransactionRecord) => void,
): Promise<CashOut> {
  if (!cashOut.transactionId || (isFinalCashOutState(cashOut.state) && cashOut.charges)) return cashOut;
  const record = await provider.transactions.retrieve(cashOut.transactionId);
  onRecord?.(record);
  const { state, charges } = record.transaction;
  const { cashOut: updated } = await store.updateCashOut(
    cashOut.idempotencyKey,
    { state, charges: charges ?? null },
    clock.now().toISOString(),
  );
  return updated ?? cashOut;
}

/**
 * One reconciler pass over money out: claims (with a lease until `claimMs` from now, so instances share the work) the
 * cash-outs `Sending` for longer than `settleAfterMs`, whose call a crash or a lost answer left unknown, and settles
 * each at the provider (adopted, or released: older than the window, no request held on the way can still land); and
 * the activated ones unchanged for as long, whose webhook may have been lost, and re-reads them. Resolves with how many
 * moved; a failure of one is told to `onError` and it is claimed again when its lease ends.
 */
export async function settleStaleCashOuts(
  sources: StaleCashOutSources,
  { limit, settleAfterMs, claimMs }: { limit: number; settleAfterMs: number; claimMs: number },
  onError: (error: unknown) => void,
): Promise<number> {
  const nowMs = sources.clock.now().getTime();
  const at = (ms: number) => new Date(ms).toISOString();
  const claimed = await sources.store.claimStaleCashOuts(at(nowMs), at(nowMs - settleAfterMs), limit, at(nowMs + claimMs));
  let moved = 0;
  for (const cashOut of claimed) {
    try {
      if (cashOut.state === CASH_OUT_SENDING) {
        const settlement = await settleCashOut(sources, cashOut, { release: true });
        if (settlement.outcome !== 'moved') moved++;
      } else if ((await refreshCashOut(sources, cashOut)).state !== cashOut.state) moved++;
    } catch (error) {
      onError(error);
    }
  }
  return moved;
}
