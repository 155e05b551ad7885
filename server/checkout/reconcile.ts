/**
 * Catches lost webhooks: live checkouts that heard nothing for a while are re-read from the provider.
 * Several instances may run it at once; the store's compare-and-set keeps the outcome single.
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
    const before = new Date(clock.now().getTime() - (options.staleAfterMs ?? 60_000)).toISOString();
    const stale = await store.listStaleCheckouts(before, options.batchSize ?? 50);
    let moved = 0;
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
      timer ??= setInterval(() => void this.runOnce().catch((e: unknown) => options.onError?.(e)), options.intervalMs ?? 15_000);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
