/**
 * The payer data's retention: every hour, the payers of payments older than `PAYER_DATA_RETENTION_DAYS` are erased
 * from the store (server/store/payer-data.ts says what is erased and what stays), a batch at a time, so a first pass over
 * years of history never holds the database long. Each batch sets the same empty values, so two instances running
 * it at once, or a pass cut short, erase nothing twice and lose nothing: the next pass goes on.
 */
import type { Clock } from '../lib/clock';
import { inJob } from '../lib/request-scope';
import type { PayerDataStore } from '../store/payer-data';

const DAY_MS = 86_400_000;
/** Rows of each table erased in one transaction. */
export const RETENTION_BATCH = 500;
const EVERY_MS = 3_600_000;

export interface PayerRetentionOptions {
  store: Pick<PayerDataStore, 'erasePayersBefore'>;
  clock: Clock;
  retentionDays: number;
  log: Pick<Console, 'log' | 'error'>;
  intervalMs?: number;
  batch?: number;
}

export interface PayerRetention {
  /** One pass: batches until nothing older is left; how many checkouts and cash-outs it erased. */
  runOnce(): Promise<{ checkouts: number; cashOuts: number }>;
  start(): void;
  stop(): void;
}

export function payerRetention(options: PayerRetentionOptions): PayerRetention {
  const { store, clock, retentionDays, log, intervalMs = EVERY_MS, batch = RETENTION_BATCH } = options;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let passes = 0;
  async function runOnce() {
    const before = new Date(clock.now().getTime() - retentionDays * DAY_MS).toISOString();
    const total = { checkouts: 0, cashOuts: 0 };
    for (;;) {
      const erased = await store.erasePayersBefore(before, batch);
      total.checkouts += erased.checkouts;
      total.cashOuts += erased.cashOuts;
      if (erased.checkouts < batch && erased.cashOuts < batch) break;
    }
    if (total.checkouts + total.cashOuts > 0) log.log({ msg: 'payer data past retention erased', before, ...total });
    return total;
  }
  const pass = () =>
    inJob(`payer-retention:${++passes}`, () =>
      runOnce().catch((error: unknown) => log.error({ msg: 'payer data retention pass failed', err: error })),
    );
  return {
    runOnce,
    start() {
      if (timer) return;
      const next = () => {
        running ??= pass().finally(() => (running = undefined));
      };
      next();
      timer = setInterval(next, intervalMs);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
