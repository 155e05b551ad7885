/**
 * Delivers the merchant's events (server/store/merchant-events.ts) to the merchant's webhook endpoints, signed by the
 * Standard Webhooks specification (./signing). At least once: each event is queued per endpoint in the store, one
 * instance at a time holds a delivery's lease while it sends, and a 2xx within the timeout settles it. Anything else
 * is tried again with exponential backoff and jitter (after 5 s, 1 min, 5 min, 30 min, 2 h, 6 h, then every 12 h)
 * for five days, always with the same `webhook-id`, so the receiver discards repeats. A crash (`kill -9`) at any
 * point leaves the delivery pending, and its lease runs out for the next run, here or on another instance.
 *
 * The endpoints are the environment's (MERCHANT_WEBHOOK_URL, id `env`, never stored) and the enabled ones the store
 * keeps (server/store/endpoints.ts), read again every few seconds (at once after a change made here: `refresh`), so
 * a change made on another instance reaches this one within `endpointsTtlMs`. Each gets the events of its type
 * filter, signed with each of its current secrets. An endpoint whose every attempt failed for five days (no 2xx
 * since) is disabled by itself (reason `failing`); the environment's is not (it is not stored: its attempts tell).
 *
 * It runs beside the payment path, never in it: a committed change wakes it through the status hub, and its HTTP
 * calls are its own.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../lib/clock';
import type { DeliveryOutcome, RecordedAttempt, WebhookDelivery } from '../store/deliveries';
import { signingSecrets } from '../store/endpoints';
import type { StatusHub, Store } from '../store/types';
import { sendEvent, SEND_TIMEOUT_MS, type WebhookEndpoint } from './send';

export type { WebhookEndpoint } from './send';

/** The waits before the second, third… attempt; past the list, `RETRY_EVERY_MS`. */
export const RETRY_DELAYS_MS = [5_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000];
export const RETRY_EVERY_MS = 12 * 3_600_000;
/** How long an event is tried before its delivery is given up as failed: five days. */
export const RETRY_FOR_MS = 5 * 24 * 3_600_000;
/** How long an endpoint may fail every attempt (no 2xx) before it is disabled: five days. */
export const DISABLE_AFTER_MS = 5 * 24 * 3_600_000;

export interface DeliveryWorkerOptions {
  store: Store;
  hub: Pick<StatusHub, 'subscribeAll'>;
  /** The environment's endpoints (never stored); the store's are read besides them. */
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
  /**
   * Deliveries claimed in one pass (their attempts are recorded in one transaction). Default 64: larger batches
   * drain no faster and hold the event loop longer in one synchronous SQLite write, which the shoppers' status waits
   * behind (bench: 256 doubled status p50 during a backlog against 64).
   */
  batch?: number;
  /**
   * Requests in flight at once, over kept-alive connections. Default 16, as many as the worker sent at once before:
   * a distant receiver drains at about 16 ÷ its round trip; on loopback, 32 only bunched answers together.
   */
  concurrency?: number;
  /** How long the store's endpoints are kept before they are read again. Default 5 s. */
  endpointsTtlMs?: number;
  /** How long an endpoint fails every attempt before it is disabled. Default five days. */
  disableAfterMs?: number;
}

export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>;

export function createDeliveryWorker(options: DeliveryWorkerOptions) {
  const { store, hub, clock } = options;
  const environment = options.endpoints;
  const owner = `worker-${randomUUID()}`;
  const logger = options.logger ?? console;
  const delays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  let running: Promise<number> | undefined;
  let again = false;
  /** Set by `stop`: the pass in progress is not followed by another, so `stop` ends with no pass running. */
  let stopping = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  let unsubscribe: (() => void) | undefined;
  const inFlight = new Set<Promise<unknown>>();
  let stored: { endpoints: WebhookEndpoint[]; until: number } | undefined;
  /** Moved by `forget`: a read that began before it is used once, never kept. */
  let generation = 0;
  const forget = () => {
    stored = undefined;
    generation++;
  };

  /** The wait before attempt `n + 1`, with ±20 % jitter so a receiver's recovery is not met by everyone at once. */
  const delayAfter = (attempts: number) => {
    const base = delays[attempts - 1] ?? options.retryEveryMs ?? RETRY_EVERY_MS;
    return Math.round(base * (0.8 + Math.random() * 0.4));
  };

  /** Every endpoint that gets events now: the environment's, and the store's enabled ones (kept a few seconds). */
  async function endpoints(now: Date): Promise<WebhookEndpoint[]> {
    if (stored && performance.now() < stored.until) return [...environment, ...stored.endpoints];
    const reading = generation;
    const enabled = (await store.listWebhookEndpoints()).filter((endpoint) => !endpoint.disabled);
    const read = enabled.map((endpoint) => ({ ...endpoint, secrets: signingSecrets(endpoint, now) }));
    if (reading === generation) stored = { endpoints: read, until: performance.now() + (options.endpointsTtlMs ?? 5_000) };
    return [...environment, ...read];
  }

  /** One attempt of one delivery: what the store records of it. */
  async function attempt(endpoint: WebhookEndpoint, delivery: WebhookDelivery): Promise<RecordedAttempt> {
    const { event } = delivery;
    const sent = await sendEvent(endpoint, event, clock, options.timeoutMs ?? SEND_TIMEOUT_MS);
    const attempts = delivery.attempts + 1;
    const outcome: DeliveryOutcome = !sent.error
      ? { delivered: true }
      : clock.now().getTime() - Date.parse(event.createdAt) >= (options.retryForMs ?? RETRY_FOR_MS)
        ? { failed: true }
        : { retryAt: new Date(clock.now().getTime() + delayAfter(attempts)).toISOString() };
    if (sent.error) logger.warn(`merchant webhook ${event.id} to ${endpoint.id}: ${sent.error} (attempt ${attempts})`);
    return { seq: event.seq, endpointId: endpoint.id, attempt: sent, outcome };
  }

  /**
   * Tells the store how each endpoint fared in a batch (one write per endpoint, not per attempt): its last success,
   * and the first failure after it, if any, which starts its failing time.
   */
  async function noteEndpoints(recorded: RecordedAttempt[]) {
    for (const endpointId of new Set(recorded.map((r) => r.endpointId))) {
      const mine = recorded.filter((r) => r.endpointId === endpointId).sort((a, b) => a.attempt.at.localeCompare(b.attempt.at));
      const lastSuccess = mine.findLastIndex((r) => !r.attempt.error);
      const failure = mine.slice(lastSuccess + 1).find((r) => r.attempt.error);
      const notes = [lastSuccess >= 0 ? mine[lastSuccess] : undefined, failure].filter((r) => r !== undefined);
      for (const note of notes) {
        const cutoff = new Date(Date.parse(note.attempt.at) - (options.disableAfterMs ?? DISABLE_AFTER_MS)).toISOString();
        if (await store.noteEndpointAttempt(endpointId, note.attempt.at, !note.attempt.error, cutoff)) {
          logger.warn(`merchant webhook endpoint ${endpointId} disabled: every attempt failed since ${cutoff} or before`);
          forget();
        }
      }
    }
  }

  /** Sends `work`, `concurrency` at a time; resolves with every attempt made (a throwing one is logged and left to its lease). */
  async function sendAll(work: { endpoint: WebhookEndpoint; delivery: WebhookDelivery }[]) {
    const made: RecordedAttempt[] = [];
    let next = 0;
    const lane = async () => {
      while (next < work.length) {
        const { endpoint, delivery } = work[next++]!;
        await attempt(endpoint, delivery).then(
          (a) => made.push(a),
          (error: unknown) => logger.warn('merchant webhook:', error),
        );
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 16, work.length) }, lane));
    return made;
  }

  /** One pass: queue what is new, take what is due, send it. Resolves with how many were sent. */
  async function pass(): Promise<number> {
    const now = clock.now();
    const current = await endpoints(now);
    if (current.length === 0) return 0;
    const batch = options.batch ?? 64;
    for (const endpoint of current) await store.queueEndpointDeliveries(endpoint.id, endpoint.types ?? [], now.toISOString(), 2 * batch);
    const leaseUntil = new Date(now.getTime() + (options.leaseMs ?? 30_000)).toISOString();
    const ids = current.map((endpoint) => endpoint.id);
    const due = await store.claimDeliveries(ids, now.toISOString(), owner, leaseUntil, batch);
    // Read again (kept, unless changed meanwhile): a rotation or a disable made since the pass began is honoured. A
    // delivery whose endpoint went is left to its lease, and taken again once the endpoint is back.
    const byId = new Map((await endpoints(now)).map((endpoint) => [endpoint.id, endpoint]));
    const work = due.flatMap((delivery) => {
      const endpoint = byId.get(delivery.endpointId);
      return endpoint ? [{ endpoint, delivery }] : [];
    });
    const made = await sendAll(work);
    // One transaction for the batch; a crash before it leaves the batch to its leases, sent again (same webhook-id).
    const recorded = await store.recordAttempts(owner, made);
    await noteEndpoints(made.filter((_, i) => recorded[i]));
    // A full batch means more are due (a backlog, or a receiver back after an outage): the next pass starts at once.
    if (due.length === batch) again = true;
    return work.length;
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
        if (!stopping) track(runOnce());
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
    /** The environment's endpoints, which the back office lists and tests beside the stored ones. */
    environment,
    /** Reads the store's endpoints again at the next pass, and runs one now: after a change made here. */
    refresh() {
      forget();
      if (timer) track(runOnce());
    },
    start() {
      if (timer) return;
      stopping = false;
      // A committed change (the hub hears every one) is delivered at once, not at the next tick: right after the
      // shoppers' streams have written it (setImmediate), so the merchant's pass never holds up the shopper's byte.
      let woken = false;
      unsubscribe = hub.subscribeAll(() => {
        if (woken) return;
        woken = true;
        setImmediate(() => {
          woken = false;
          if (timer) track(runOnce());
        });
      });
      timer = setInterval(() => track(runOnce()), options.intervalMs ?? 1_000);
      timer.unref();
      track(runOnce());
    },
    /** Stops looking; resolves once the pass in progress has finished. */
    async stop() {
      clearInterval(timer);
      timer = undefined;
      unsubscribe?.();
      stopping = true;
      // A pass that ends may have started another meanwhile (a full batch): wait until none runs.
      while (running || inFlight.size > 0) await Promise.all([...inFlight, running?.catch(() => 0)]);
    },
  };
}
