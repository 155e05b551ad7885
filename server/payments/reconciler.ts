/**
 * Catches what a webhook or a crash left behind: live checkouts that heard nothing for a while are re-read from the
 * provider, and reservations whose provider call never answered are settled (adopted or released). It also ends
 * payment windows (a live checkout past its window becomes `Expired`, after one last look at the provider) and keeps
 * re-reading expired checkouts for a while, so a late payment whose webhook was lost is still caught. It runs once at
 * start, so a restart after a crash settles at once. Several instances may run it together; the store's
 * compare-and-set and unique indexes keep the outcome single.
 */
import type { Clock } from '../lib/clock';
import type { Store } from '../store/types';
import type { CheckoutService } from './service';

export interface ReconcilerOptions {
  store: Store;
  service: CheckoutService;
  clock: Clock;
  /** A live checkout is re-read after this long without a webhook or a check. Default 60 s. */
  staleAfterMs?: number;
  /** How long after its expiry an `Expired` checkout is still re-read for a late payment. Default 24 h. */
  followExpiredMs?: number;
  /** Loop period. Default 15 s. */
  intervalMs?: number;
  batchSize?: number;
  onError?: (error: unknown) => void;
}

export function createReconciler(options: ReconcilerOptions) {
  const { store, service, clock } = options;
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<number> | undefined;

  /** One pass; resolves with the number of checkouts that moved. */
  async function pass(): Promise<number> {
    const nowMs = clock.now().getTime();
    const before = new Date(nowMs - (options.staleAfterMs ?? 60_000)).toISOString();
    const expiredSince = new Date(nowMs - (options.followExpiredMs ?? 24 * 60 * 60_000)).toISOString();
    const onError = (error: unknown) => options.onError?.(error);
    let moved = await service.settleStale(options.batchSize ?? 50, onError);
    moved += await service.expireDue(options.batchSize ?? 50, onError);
    const stale = await store.listStaleCheckouts(before, options.batchSize ?? 50, expiredSince);
    for (const checkout of stale) {
      try {
        if ((await service.refresh(checkout, 'reconcile')).changed) moved++;
      } catch (error) {
        options.onError?.(error);
      }
    }
    return moved;
  }

  return {
    /** Runs a pass now, or joins the one in progress. */
    runOnce(): Promise<number> {
      running ??= pass().finally(() => {
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
