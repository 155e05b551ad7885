/**
 * Delivers the merchant's events (server/store/merchant-events.ts) to the merchant's webhook endpoints, signed by the
 * Standard Webhooks specification (./signing). At least once: each event is queued per endpoint in the store, one
 * instance at a time holds a delivery's lease while it sends, and a 2xx within the timeout settles it. Anything else
 * is tried again with exponential backoff and jitter (after 5 s, 1 min, 5 min, 30 min, 2 h, 6 h, then every 12 h)
 * for five days, always with the same `webhook-id`, so the receiver discards repeats. A crash (`kill -9`) at any
 * point leaves the delivery pending, and its lease runs out for the next run, here or on another instance.
 *
 * It runs beside the payment path, never in it: a committed change wakes it through the status hub, and its HTTP
 * calls are its own.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../lib/clock';
import type { DeliveryOutcome, WebhookDelivery } from '../store/deliveries';
import type { StatusHub, Store } from '../store/types';
import { signedHeaders } from './signing';

/** Where the merchant wants its events, and the secrets that sign them (two while rotating). */
export interface WebhookEndpoint {
  id: string;
  url: string;
  secrets: readonly string[];
}

/** The waits before the second, third… attempt; past the list, `RETRY_EVERY_MS`. */
export const RETRY_DELAYS_MS = [5_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000];
export const RETRY_EVERY_MS = 12 * 3_600_000;
/** How long an event is tried before its delivery is given up as failed: five days. */
export const RETRY_FOR_MS = 5 * 24 * 3_600_000;

export interface DeliveryWorkerOptions {
  store: Store;
  hub: StatusHub;
  endpoints: readonly WebhookEndpoint[];
  clock: Clock;
  logger?: Pick<Console, 'warn'>;
  /** How often it looks for due deliveries besides the wake-ups of the hub. Default 1 s. */
  intervalMs?: number;
  /** How long a delivery is held by this instance while it sends. Default 30 s. */
  leaseMs?: number;
  /** A 2xx must come within this. Default 10 s. */
  timeoutMs?: number;
  retryDelaysMs?: readonly number[];
  retryEveryMs?: number;
  retryForMs?: number;
  /** Deliveries sent at once. Default 16. */
  batch?: number;
}

export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>;

export function createDeliveryWorker(options: DeliveryWorkerOptions) {
  const { store, hub, endpoints, clock } = options;
  const owner = `worker-${randomUUID()}`;
  const ids = endpoints.map((endpoint) => endpoint.id);
  const byId = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint]));
  const logger = options.logger ?? console;
  const delays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  let running: Promise<number> | undefined;
  let again = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  let unsubscribe: (() => void) | undefined;
  const inFlight = new Set<Promise<unknown>>();

  /** The wait before attempt `n + 1`, with ±20 % jitter so a receiver's recovery is not met by everyone at once. */
  const delayAfter = (attempts: number) => {
    const base = delays[attempts - 1] ?? options.retryEveryMs ?? RETRY_EVERY_MS;
    return Math.round(base * (0.8 + Math.random() * 0.4));
  };

  async function send(delivery: WebhookDelivery): Promise<void> {
    const endpoint = byId.get(delivery.endpointId);
    if (!endpoint) return;
    const { event } = delivery;
    const body = JSON.stringify(event);
    const started = clock.now();
    const at = started.toISOString();
    const headers = signedHeaders(endpoint.secrets, event.id, Math.floor(started.getTime() / 1000), body);
    let status: number | null = null;
    let error: string | null = null;
    const t0 = performance.now();
    try {
      const answer = await fetch(endpoint.url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'pix-checkout-webhooks/1' },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      status = answer.status;
      await answer.body?.cancel();
      if (status < 200 || status > 299) error = `HTTP ${status}`;
    } catch (cause) {
      error = cause instanceof Error ? (cause.name === 'TimeoutError' ? 'timeout' : cause.message) : String(cause);
    }
    const durationMs = Math.round(performance.now() - t0);
    const attempts = delivery.attempts + 1;
    const outcome: DeliveryOutcome = !error
      ? { delivered: true }
      : clock.now().getTime() - Date.parse(event.createdAt) >= (options.retryForMs ?? RETRY_FOR_MS)
        ? { failed: true }
        : { retryAt: new Date(clock.now().getTime() + delayAfter(attempts)).toISOString() };
    await store.recordAttempt(event.id, endpoint.id, owner, { at, status, durationMs, error }, outcome);
    if (error) logger.warn(`merchant webhook ${event.id} to ${endpoint.id}: ${error} (attempt ${attempts})`);
  }

  /** One pass: queue what is new, take what is due, send it. Resolves with how many were sent. */
  async function pass(): Promise<number> {
    const now = clock.now();
    for (const id of ids) await store.enqueueDeliveries(id, now.toISOString(), 500);
    const leaseUntil = new Date(now.getTime() + (options.leaseMs ?? 30_000)).toISOString();
    const due = await store.claimDeliveries(ids, now.toISOString(), owner, leaseUntil, options.batch ?? 16);
    await Promise.all(due.map((delivery) => send(delivery).catch((error: unknown) => logger.warn('merchant webhook:', error))));
    return due.length;
  }

  /** Runs a pass now, or one more right after the pass in progress. */
  function runOnce(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = pass().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        track(runOnce());
      }
    });
    return running;
  }

  const track = (work: Promise<unknown>) => {
    const tracked = work.catch((error: unknown) => logger.warn('merchant webhooks:', error)).finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  };

  return {
    runOnce,
    start() {
      if (timer || ids.length === 0) return;
      // A committed change (the hub hears every one) is delivered at once, not at the next tick.
      unsubscribe = hub.subscribeAll(() => track(runOnce()));
      timer = setInterval(() => track(runOnce()), options.intervalMs ?? 1_000);
      timer.unref();
      track(runOnce());
    },
    /** Stops looking; resolves once the pass in progress has finished. */
    async stop() {
      clearInterval(timer);
      timer = undefined;
      unsubscribe?.();
      await Promise.all([...inFlight]);
    },
  };
}
