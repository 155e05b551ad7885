/**
 * What a delivery worker (./delivery.ts) is told: the store and hub it works from, the endpoints of the environment,
 * where stored endpoints may point, and its timings (retries, leases, lanes, batches), each with its default here.
 */
import type { Clock } from '../lib/clock';
import type { Sealer } from '../lib/sealer';
import type { DeliveryStore } from '../store/deliveries';
import type { DeliveryLogStore, EndpointStore } from '../store/endpoints';
import type { StatusHub } from '../store/types';
import type { DeliveryLog } from './attempt-line';
import type { EndpointAddressPolicy } from './endpoint-address';
import type { WebhookEndpoint } from './send';

/** The waits before the second, third… attempt; past the list, `RETRY_EVERY_MS`. */
export const RETRY_DELAYS_MS = [5_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000];
export const RETRY_EVERY_MS = 12 * 3_600_000;
/** How long an event is tried before its delivery is given up as failed: five days. */
export const RETRY_FOR_MS = 5 * 24 * 3_600_000;
/** How long an endpoint may fail every attempt (no 2xx) before it is disabled: five days. */
export const DISABLE_AFTER_MS = 5 * 24 * 3_600_000;

/** The deliveries it claims and records, the endpoints it reads and notes, and their queues it fills. */
export type DeliveryWorkerStore = DeliveryStore & EndpointStore & Pick<DeliveryLogStore, 'queueEndpointDeliveries'>;

export interface DeliveryWorkerOptions {
  store: DeliveryWorkerStore;
  hub: Pick<StatusHub, 'subscribeAll'>;
  /** The environment's endpoints (never stored, nor checked: the operator's); the store's are read besides them. */
  endpoints: readonly WebhookEndpoint[];
  /** Where the stored endpoints' connections may go (./endpoint-address.ts). */
  addresses: EndpointAddressPolicy;
  /** Opens the stored endpoints' sealed secrets to sign (./endpoint-secrets.ts). */
  sealer: Sealer;
  clock: Clock;
  logger?: DeliveryLog;
  /** How often it looks for due deliveries besides the wake-ups of the hub. Default 1 s. */
  intervalMs?: number;
  /** How long `stop` waits for the answers of the sends in flight before it cuts them and hands them back. Default 0.5 s. */
  stopGraceMs?: number;
  /** How long a delivery is held by this instance while it sends. Default 30 s. */
  leaseMs?: number;
  /** A 2xx must come within this. Default 10 s. */
  timeoutMs?: number;
  retryDelaysMs?: readonly number[];
  retryEveryMs?: number;
  retryForMs?: number;
  /**
   * Attempts recorded at most in one transaction, and events queued per endpoint at most in one claim (twice this).
   * Default 64: larger batches drain no faster and hold the event loop longer in one synchronous SQLite write, which
   * the shoppers' status waits behind (bench: 256 doubled status p50 during a backlog against 64).
   */
  batch?: number;
  /**
   * One endpoint's deliveries in flight at once, over kept-alive connections: its lane. Default 16, as many as the
   * worker sent at once to its one endpoint before lanes: a distant receiver drains at about 16 ÷ its round trip;
   * on loopback, 32 only bunched answers together. An endpoint that hangs holds this many connections (and twice as
   * many leases, see `holds`), no more.
   */
  lane?: number;
  /** How long the store's endpoints are kept before they are read again. Default 5 s. */
  endpointsTtlMs?: number;
  /** How long an endpoint fails every attempt before it is disabled. Default five days. */
  disableAfterMs?: number;
  /** Told of each attempt's outcome once it is answered (the product's metrics). */
  onAttempt?: (outcome: AttemptOutcome) => void;
}

/** What became of one attempt: delivered, to be tried again, or given up. */
export type AttemptOutcome = 'delivered' | 'retrying' | 'failed';

/** A delivery worker, in the request thread (./delivery.ts) or in a thread of its own (./thread.ts): the same either way. */
export interface DeliveryWorker {
  /** One pass now over every endpoint; resolves with how many deliveries were sent. */
  runOnce(): Promise<number>;
  /** The environment's endpoints, which the back office lists and tests beside the stored ones. */
  readonly environment: readonly WebhookEndpoint[];
  /** Where stored endpoints may point: the back office checks an endpoint's URL by it when one is added. */
  readonly addresses: EndpointAddressPolicy;
  /** Reads the store's endpoints again: after the back office changed them. */
  refresh(): void;
  start(): void;
  /** Stops claiming; resolves once every delivery in flight has been recorded. */
  stop(): Promise<void>;
}
