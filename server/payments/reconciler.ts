/**
 * Catches what a webhook or a crash left behind: live checkouts that heard nothing for a while are re-read from the
 * provider, and reservations whose provider call never answered are settled (adopted or released), cash-outs and
 * refunds as well as checkouts: no money out stays `Sending` (unknown) because nobody asked for its key again, and one
 * the provider still moves is re-read when its webhook did not come. It also ends
 * payment windows (a live checkout past its window becomes `Expired`, after one last look at the provider) and keeps
 * re-reading expired checkouts for a while, so a late payment whose webhook was lost is still caught. It runs once at
 * start, so a restart after a crash settles at once.
 *
 * Several instances may run it together, and they share the work rather than repeat it: a pass claims the checkouts
 * it re-reads, expires and settles (`ReconcileStore.claimStaleCheckouts`, `claimDueExpiries`, `claimStaleReservations`) and the
 * cash-outs it settles or re-reads (`claimStaleCashOuts`), so two
 * instances make half the provider reads each. A claim is a lease:
 * a checkout claimed by an instance that crashed before reading it is re-read when the lease ends (a live one after
 * `staleAfterMs`, an expired one at its next backoff step). The store's compare-and-set and unique indexes keep
 * every outcome single all the same.
 *
 * Expired checkouts are re-read with backoff, not at every pass: a late payment is most likely soon after the
 * expiry, and a day of abandoned codes must not cost the provider a read per code per minute. After each read the
 * next is due after the checkout's age (time since it expired), at least `expiredBackoff.firstMs` and at most
 * `expiredBackoff.maxMs`: with the defaults about 1, 2, 4, 8, 16, 32 and 64 minutes after the expiry, then hourly
 * until `followExpiredMs` (24 h) has passed; some 30 reads a checkout instead of 1,440 (docs/spec-gaps.md).
 */
import type { Clock } from '../lib/clock';
import { NO_METRICS, type Metrics } from '../metrics/metrics';
import { inJob } from '../lib/request-scope';
import type { ReconcileStore } from '../store/checkout-store';
import type { CheckoutService } from './service';

export interface ReconcilerOptions {
  store: ReconcileStore;
  service: CheckoutService;
  clock: Clock;
  /** A live checkout is re-read after this long without a webhook or a check. Default 60 s. */
  staleAfterMs?: number;
  /** How long after its expiry an `Expired` checkout is still re-read for a late payment. Default 24 h. */
  followExpiredMs?: number;
  /** The bounds of an expired checkout's wait between two reads. Default 1 minute to 1 hour. */
  expiredBackoff?: { firstMs: number; maxMs: number };
  /** Loop period. Default 15 s. */
  intervalMs?: number;
  batchSize?: number;
  onError?: (error: unknown) => void;
  /** Told of each finished pass and each re-read. */
  metrics?: Metrics;
}

const MINUTE = 60_000;

/** The reconciliation loop of one instance. */
export interface Reconciler {
  /** Runs a pass now, or joins the one in progress; resolves with the number of checkouts that moved. */
  runOnce(): Promise<number>;
  /** Runs a pass now and then every `intervalMs`, without keeping the process alive. */
  start(): void;
  stop(): void;
}

export function createReconciler(options: ReconcilerOptions): Reconciler {
  const { store, service, clock } = options;
  const metrics = options.metrics ?? NO_METRICS;
  const staleAfterMs = options.staleAfterMs ?? MINUTE;
  const backoff = options.expiredBackoff ?? { firstMs: MINUTE, maxMs: 60 * MINUTE };
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<number> | undefined;
  let passes = 0;

  /** One pass; resolves with the number of checkouts that moved. */
  async function pass(): Promise<number> {
    const nowMs = clock.now().getTime();
    const at = (ms: number) => new Date(ms).toISOString();
    const limit = options.batchSize ?? 50;
    const onError = (error: unknown) => options.onError?.(error);
    let moved = await service.settleStale(limit, onError, staleAfterMs);
    moved += await service.settleStaleMoneyOut(limit, onError, staleAfterMs);
    moved += await service.expireDue(limit, onError, staleAfterMs);
    const stale = await store.claimStaleCheckouts({
      now: at(nowMs),
      before: at(nowMs - staleAfterMs),
      limit,
      liveUntil: at(nowMs + staleAfterMs),
      expired: {
        since: at(nowMs - (options.followExpiredMs ?? 24 * 60 * MINUTE)),
        minDelayMs: backoff.firstMs,
        maxDelayMs: backoff.maxMs,
      },
    });
    for (const checkout of stale) {
      try {
        metrics.reconcilerRead();
        const read = await service.refresh(checkout, 'reconcile');
        // A live checkout whose window has ended (the stale claim takes those `expireDue` had no room for) is expired
        // on this read, not left under this claim's lease for another pass and another read.
        const after = await service.expireIfDue(read.checkout, 'reconcile');
        if (read.changed || after.state !== read.checkout.state) moved++;
      } catch (error) {
        onError(error);
      }
    }
    metrics.reconcilerPass();
    return moved;
  }

  return {
    runOnce(): Promise<number> {
      // Each pass's lines (its moves, its errors) carry `job: reconcile:<n>`: no request started it.
      running ??= inJob(`reconcile:${++passes}`, pass).finally(() => {
        running = undefined;
      });
      return running;
    },
    start() {
      if (!timer) void this.runOnce().catch((e: unknown) => options.onError?.(e));
      timer ??= setInterval(() => void this.runOnce().catch((e: unknown) => options.onError?.(e)), options.intervalMs ?? 15_000);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
