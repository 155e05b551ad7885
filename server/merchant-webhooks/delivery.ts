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
 * A stored endpoint's connections go only where ./endpoint-address.ts allows, checked at each one.
 *
 * Each endpoint has a lane of its own: at most `lane` of its deliveries in flight, claimed for it alone
 * (`claimDeliveries` seeks each endpoint's due deliveries apart). An endpoint that hangs fills its own lane and
 * waits out its timeouts there; the others are claimed, sent and recorded meanwhile, as if it were not there. The
 * attempts are recorded as they finish, in one transaction for all that finished together, and a lane's freed room
 * is claimed again at once while it has more due.
 *
 * It runs beside the payment path, never in it: a committed change wakes it through the status hub, and its HTTP
 * calls are its own.
 */
import { randomUUID } from 'node:crypto';
import type { DeliveryOutcome, RecordedAttempt, WebhookDelivery } from '../store/deliveries';
import {
  DISABLE_AFTER_MS,
  RETRY_DELAYS_MS,
  RETRY_EVERY_MS,
  RETRY_FOR_MS,
  type DeliveryWorker,
  type DeliveryWorkerOptions,
} from './delivery-options';
import { deliveryLog, tellAttempt } from './attempt-line';
import { attemptRecorder } from './delivery-record';
import { signable } from './endpoint-secrets';
import { endpointLanes } from './lanes';
import { sendEvent, SEND_TIMEOUT_MS, type WebhookEndpoint } from './send';
import { webhookTransport } from './webhook-post';

export type { WebhookEndpoint } from './send';
export type { DeliveryWorker, DeliveryWorkerOptions, DeliveryWorkerStore } from './delivery-options';

/** Attempts answered and not yet recorded past which the worker claims no more until the recorder catches up. */
const RECORDS_BEHIND = 256;

/** An endpoint as the worker sends to it: `checked` for a stored one, whose addresses the policy checks. */
type Target = WebhookEndpoint & { checked: boolean };

export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { store, hub, clock } = options;
  const environment = options.endpoints;
  const fromEnvironment: Target[] = environment.map((endpoint) => ({ ...endpoint, checked: false }));
  const owner = `worker-${randomUUID()}`;
  const logger = deliveryLog(options.logger ?? console);
  const delays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  const batch = options.batch ?? 64;
  const lane = options.lane ?? 16;
  const transport = webhookTransport(options.addresses);
  /** Set by `stop`: nothing claims again by itself, so `stop` ends with nothing in flight. */
  let stopping = false;
  /** Set by `stop` once its grace is over: the sends still waiting for an answer are cut, and not recorded. */
  let cut = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  let unsubscribe: (() => void) | undefined;
  const inFlight = new Set<Promise<unknown>>();
  let stored: { endpoints: Target[]; until: number } | undefined;
  /** Moved by `forget`: a read that began before it is used once, never kept. */
  let generation = 0;
  const forget = () => {
    stored = undefined;
    generation++;
  };
  /** Endpoints that may have more due than their lane took: room made in their lane claims again. */
  const waiting = new Set<string>();
  /** Every delivery claimed here, until its attempt is recorded. */
  const sending = new Set<Promise<void>>();
  /**
   * A lane holds twice what it sends at once (with the default lease and timeout): the second half waits, sent as
   * soon as the first is answered, so a fast endpoint's backlog is claimed in batches of a lane's size or more, not
   * one by one; and a hanging one's last attempt still ends within its lease (two timeouts of 10 s in a lease of 30 s).
   */
  const holds = lane * Math.max(1, Math.floor((options.leaseMs ?? 30_000) / (options.timeoutMs ?? SEND_TIMEOUT_MS)) - 1);
  const lanes = endpointLanes({
    sends: lane,
    holds,
    // Claims again once a lane that may have more due has room for a lane's worth (or is empty).
    onLeave: (endpointId, held) => {
      if (held <= holds - lane && waiting.delete(endpointId)) claimAgain();
    },
  });
  /** Set when a claim gave way to the attempts still to be recorded: the recorder's next write claims again. */
  let recordsBehind = false;
  /** A lane's room claimed again: what is already queued is taken first (`ahead`), the feed read only when it runs low. */
  const claimAgain = () => {
    if (!stopping) track(run(false));
  };
  /** Per endpoint, the deliveries this worker queued and has not claimed since: what a refill can take unqueued. */
  const ahead = new Map<string, number>();
  /** Whether the next claim queues every endpoint's new events first (a wake-up, a tick, a direct call). */
  let queueAll = true;

  /** The wait before attempt `n + 1`, with ±20 % jitter so a receiver's recovery is not met by everyone at once. */
  const delayAfter = (attempts: number) => {
    const base = delays[attempts - 1] ?? options.retryEveryMs ?? RETRY_EVERY_MS;
    return Math.round(base * (0.8 + Math.random() * 0.4));
  };

  /** Every endpoint that gets events now: the environment's, and the store's enabled ones (kept a few seconds). */
  async function endpoints(now: Date): Promise<Target[]> {
    if (stored && performance.now() < stored.until) return [...fromEnvironment, ...stored.endpoints];
    const reading = generation;
    const enabled = (await store.listWebhookEndpoints()).filter((endpoint) => !endpoint.disabled);
    const read = signable(options.sealer, enabled, now, logger).map((endpoint) => ({ ...endpoint, checked: true }));
    if (reading === generation) stored = { endpoints: read, until: performance.now() + (options.endpointsTtlMs ?? 5_000) };
    return [...fromEnvironment, ...read];
  }

  /** One attempt of one delivery: what the store records of it. */
  async function attempt(endpoint: Target, delivery: WebhookDelivery): Promise<RecordedAttempt | undefined> {
    const { event } = delivery;
    const { attempt: sent, cause } = await sendEvent(transport, endpoint, event, clock, options.timeoutMs ?? SEND_TIMEOUT_MS);
    // Cut by `stop`, not the receiver's failure: handed back unrecorded, sent again (same `webhook-id`) by whoever takes it.
    if (cut) return undefined;
    const attempts = delivery.attempts + 1;
    const outcome: DeliveryOutcome = !sent.error
      ? { delivered: true }
      : clock.now().getTime() - Date.parse(event.createdAt) >= (options.retryForMs ?? RETRY_FOR_MS)
        ? { failed: true }
        : { retryAt: new Date(clock.now().getTime() + delayAfter(attempts)).toISOString() };
    options.onAttempt?.('delivered' in outcome ? 'delivered' : 'failed' in outcome ? 'failed' : 'retrying');
    tellAttempt(logger, { event, endpointId: endpoint.id, attempts, status: sent.status, outcome, cause });
    return { seq: event.seq, endpointId: endpoint.id, attempt: sent, outcome };
  }

  const recorder = attemptRecorder({
    store,
    owner,
    batch,
    logger,
    disableAfterMs: options.disableAfterMs ?? DISABLE_AFTER_MS,
    onDisabled: forget,
    onWritten: () => {
      if (!recordsBehind) return;
      recordsBehind = false;
      claimAgain();
    },
  });

  /** Sends one claimed delivery in its endpoint's lane; resolves once its attempt is recorded (a throw: left to its lease). */
  function dispatch(endpoint: Target, delivery: WebhookDelivery): Promise<void> {
    const done = lanes
      // Stopping, one still waiting in its lane is not sent: `stop` hands its lease back.
      .run(endpoint.id, () => (stopping ? Promise.resolve(undefined) : attempt(endpoint, delivery)))
      .then((made) => made && recorder.record(made, endpoint.checked))
      .catch((error: unknown) => logger.warn('merchant webhook:', error))
      .finally(() => sending.delete(done));
    sending.add(done);
    return done;
  }

  /** Queues what is new, and claims for each endpoint as many due deliveries as its lane has room for, and sends them. */
  async function claim(): Promise<Promise<void>[]> {
    const now = clock.now();
    const current = await endpoints(now);
    if (current.length === 0) return [];
    // Answered faster than they are recorded (a slow store): the recorder catches up before more are taken.
    if (recorder.backlog() >= RECORDS_BEHIND) {
      recordsBehind = true;
      return [];
    }
    const everyEndpoint = queueAll;
    queueAll = false;
    const unqueued = new Set<string>();
    for (const { id, types } of current) {
      if (!everyEndpoint && (ahead.get(id) ?? 0) >= lanes.room(id)) {
        unqueued.add(id);
        continue;
      }
      const count = await store.queueEndpointDeliveries(id, types ?? [], now.toISOString(), 2 * batch);
      ahead.set(id, (ahead.get(id) ?? 0) + count);
    }
    const rooms: Record<string, number> = {};
    for (const { id } of current) {
      const room = lanes.room(id);
      if (room > 0) rooms[id] = room;
      else waiting.add(id);
    }
    if (Object.keys(rooms).length === 0) return [];
    const leaseUntil = new Date(now.getTime() + (options.leaseMs ?? 30_000)).toISOString();
    const due = await store.claimDeliveries(rooms, now.toISOString(), owner, leaseUntil);
    const taken = new Map<string, number>();
    for (const { endpointId } of due) taken.set(endpointId, (taken.get(endpointId) ?? 0) + 1);
    for (const [id, room] of Object.entries(rooms)) {
      const count = taken.get(id) ?? 0;
      ahead.set(id, Math.max(0, (ahead.get(id) ?? 0) - count));
      if (count === room) waiting.add(id);
      // Fewer than counted on (another instance took some, or they were retries not due): the feed is read at once.
      else if (unqueued.has(id)) {
        ahead.delete(id);
        queueAll = true;
        claimAgain();
      }
    }
    // Read again (kept, unless changed meanwhile): a rotation or a disable made since the claim began is honoured. A
    // delivery whose endpoint went is left to its lease, and taken again once the endpoint is back.
    const byId = new Map((await endpoints(now)).map((endpoint) => [endpoint.id, endpoint]));
    return due.flatMap((delivery) => {
      const endpoint = byId.get(delivery.endpointId);
      return endpoint ? [dispatch(endpoint, delivery)] : [];
    });
  }

  let claiming: Promise<Promise<void>[]> | undefined;
  let queued: Promise<Promise<void>[]> | undefined;
  /** One claim at a time: a call during one gets the claim right after it (one for all such calls). */
  function claimTurn(): Promise<Promise<void>[]> {
    if (!claiming) {
      claiming = claim().finally(() => (claiming = undefined));
      return claiming;
    }
    queued ??= claiming
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        queued = undefined;
        return claimTurn();
      });
    return queued;
  }

  /** Claims (after the claim in progress, if one runs); resolves, with how many it sent, once they are recorded. */
  async function run(everyEndpoint: boolean): Promise<number> {
    if (everyEndpoint) queueAll = true;
    const sending = await claimTurn();
    await Promise.all(sending);
    return sending.length;
  }

  /** Queues what is new and claims what is due now (or right after the claim in progress), and sends it. */
  const runOnce = () => run(true);

  const track = (work: Promise<unknown>) => {
    const tracked = work.catch((error: unknown) => logger.warn('merchant webhooks:', error)).finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  };

  return {
    runOnce,
    /** The environment's endpoints, which the back office lists and tests beside the stored ones. */
    environment,
    /** Where stored endpoints may point: the back office checks an endpoint's URL by it when one is added. */
    addresses: options.addresses,
    /** Reads the store's endpoints again at the next claim, and claims now: after a change made here. */
    refresh() {
      forget();
      if (timer) track(runOnce());
    },
    start() {
      if (timer) return;
      stopping = false;
      // A committed change (the hub hears every one) is delivered at once, not at the next tick: right after the
      // shoppers' streams have written it (setImmediate), so the merchant's claim never holds up the shopper's byte.
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
    /**
     * Stops claiming; resolves once every delivery in flight has been recorded, those unanswered after `stopGraceMs`
     * cut, and the leases of those cut or claimed and not sent handed back, for another instance to take at once.
     */
    async stop() {
      clearInterval(timer);
      timer = undefined;
      unsubscribe?.();
      stopping = true;
      cut = false;
      const grace = setTimeout(() => ((cut = true), transport.close()), options.stopGraceMs ?? 500);
      // A claim in progress still sends what it took: wait until nothing runs.
      while (inFlight.size > 0 || claiming || queued || sending.size > 0) {
        await Promise.all([...inFlight, ...sending, claiming?.catch(() => []), queued?.catch(() => [])]);
      }
      clearTimeout(grace);
      await store.releaseDeliveries(owner).catch((error: unknown) => logger.warn('merchant webhooks: leases not handed back:', error));
      transport.close();
    },
  };
}
