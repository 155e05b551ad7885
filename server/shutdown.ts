/**
 * The graceful stop of `npm run serve` and `npm start` on SIGTERM (or SIGINT), within `SHUTDOWN_TIMEOUT_MS`:
 *
 * 1. `/readyz` answers 503 `draining` and the listener stops accepting connections;
 * 2. requests in flight finish (each answer closes its connection), every event stream ends with a `retry:` hint;
 * 3. the reconciler stops, the merchant webhooks' deliveries in flight are recorded, the leases of those claimed and
 *    not yet sent are handed back (another instance takes them at once), and the worker stops;
 * 4. the hub and the store close; the process exits 0.
 *
 * Connections still open one second before the deadline are cut, so the closing steps have that second; a step that
 * hangs past the deadline ends the process with exit code 1, so the operator hears of it.
 */
import type { ServerLog } from './lib/log';

export interface Stoppable {
  /** Steps 1 and 2 (server/node/drain.ts). */
  drain(cutAfterMs: number): Promise<void>;
  /** Steps 3 and 4. */
  close(): Promise<void>;
}

/** Stops `running` gracefully on SIGTERM and SIGINT, then exits the process. */
export function stopOnSignals(running: Stoppable, { timeoutMs, log }: { timeoutMs: number; log: Pick<ServerLog, 'log' | 'error'> }) {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const started = performance.now();
    log.log({ signal, timeoutMs }, `${signal}: draining`);
    setTimeout(() => {
      log.error({ signal }, 'shutdown did not finish in time');
      process.exit(1);
    }, timeoutMs).unref();
    void running
      .drain(Math.max(timeoutMs - 1_000, timeoutMs / 2))
      .then(() => running.close())
      .then(
        () => {
          log.log({ ms: Math.round(performance.now() - started) }, 'stopped');
          process.exit(0);
        },
        (error: unknown) => {
          log.error('shutdown:', error);
          process.exit(1);
        },
      );
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop(signal));
}
