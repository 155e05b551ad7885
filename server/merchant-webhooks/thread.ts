/**
 * The delivery worker (./delivery) in a thread of its own, so that draining a backlog (claiming, signing, sending and
 * recording thousands of deliveries a second) never holds up the request thread, where the shoppers' status is
 * written. The thread has its own store connection and kept-alive connections (./thread-entry.ts); the request thread
 * only forwards the hub's wake-ups and the back office's `refresh`, and logs the thread's warnings.
 *
 * Which one runs: the thread for a store on disk or in PostgreSQL with the system clock (`npm run serve`, `npm start`);
 * in-thread otherwise, since a ManualClock cannot cross a thread and an in-memory SQLite database cannot be opened
 * twice (`deliveryWorkerFor`).
 */
import type { Worker } from 'node:worker_threads';
import type { Clock } from '../lib/clock';
import { systemClock } from '../lib/clock';
import { startTypeScriptWorker } from '../lib/ts-worker';
import type { DeliveryLogStore, EndpointStore } from '../store/endpoints';
import type { StatusHub } from '../store/types';
import { releaseBackgroundTurn, writeTurnsOf } from '../store/write-turns';
import { sealerOfKeys } from './endpoint-secrets';
import { createDeliveryWorker, type DeliveryWorker, type DeliveryWorkerStore } from './delivery';
import type { AttemptOutcome } from './delivery-options';
import { deliveryLog, type DeliveryLog } from './attempt-line';
import type { EndpointAddressPolicy } from './endpoint-address';
import type { WebhookEndpoint } from './send';

/** Where the thread finds the store, and what it delivers: passed once, in `workerData` (never logged). */
export interface ThreadData {
  file?: string;
  /** The request thread's write-turn counters of `file` (../store/write-turns.ts), shared, not copied. */
  writeTurns?: SharedArrayBuffer;
  databaseUrl?: string;
  endpoints: WebhookEndpoint[];
  /** SECRETS_KEY and the previous keys (base64url), the first the current: the stored endpoints' secrets open with them. */
  secretsKeys: string[];
  /** Where stored endpoints' connections may go (names resolve with the system's resolver, in either place). */
  addresses: Pick<EndpointAddressPolicy, 'loopback'>;
  retryDelaysMs?: readonly number[];
}

export type ToThread = { op: 'start' | 'wake' | 'refresh' | 'stop' } | { op: 'run'; id: number };
type FromThread =
  | { op: 'warn' | 'log'; fields?: Record<string, unknown>; line: string }
  | { op: 'failed'; line: string }
  | { op: 'ran'; id: number; count: number }
  | { op: 'attempts'; counts: Partial<Record<AttemptOutcome, number>> }
  | { op: 'stopped' };

export interface ThreadedDeliveryOptions extends Omit<ThreadData, 'endpoints'> {
  /** The request thread's store: only to start the endpoints' cursors (see `start`). */
  store: Pick<EndpointStore, 'listWebhookEndpoints'> & Pick<DeliveryLogStore, 'queueEndpointDeliveries'>;
  hub: Pick<StatusHub, 'subscribeAll'>;
  endpoints: readonly WebhookEndpoint[];
  logger?: DeliveryLog;
  /** Told of the thread's attempts' outcomes, `count` of each at a time (the product's metrics). */
  onAttempts?: (outcome: AttemptOutcome, count: number) => void;
}

export function createThreadedDeliveryWorker(options: ThreadedDeliveryOptions): DeliveryWorker {
  const logger = deliveryLog(options.logger ?? console);
  const environment = options.endpoints;
  let thread: { worker: Worker; stopped: Promise<void> } | undefined;
  let unsubscribe: (() => void) | undefined;
  let started = false;
  let starting: Promise<void> | undefined;
  const runs = new Map<number, (count: number) => void>();
  let nextRun = 0;

  function spawn() {
    if (thread) return thread.worker;
    const data: ThreadData = {
      endpoints: environment.map((endpoint) => ({ ...endpoint, secrets: [...endpoint.secrets] })),
      addresses: { loopback: options.addresses.loopback },
      secretsKeys: [...options.secretsKeys],
      ...(options.file && { file: options.file, writeTurns: writeTurnsOf(options.file) }),
      ...(options.databaseUrl && { databaseUrl: options.databaseUrl }),
      ...(options.retryDelaysMs && { retryDelaysMs: [...options.retryDelaysMs] }),
    };
    // The thread runs TypeScript (../lib/ts-worker.ts).
    const worker = startTypeScriptWorker(new URL('./thread-entry.ts', import.meta.url), data);
    const stopped = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.on('message', (message: FromThread) => {
      if (message.op === 'warn' || message.op === 'log') {
        const tell = message.op === 'warn' ? logger.warn : logger.log;
        if (message.fields) tell?.(message.fields, message.line);
        else tell?.(message.line);
      } else if (message.op === 'failed') logger.warn(`merchant webhooks: the delivery thread could not start: ${message.line}`);
      else if (message.op === 'attempts') {
        for (const [outcome, count] of Object.entries(message.counts)) options.onAttempts?.(outcome as AttemptOutcome, count);
      } else if (message.op === 'ran') {
        runs.get(message.id)?.(message.count);
        runs.delete(message.id);
      } else if (message.op === 'stopped') void worker.terminate();
    });
    worker.on('error', (error) => logger.warn('merchant webhooks: the delivery thread failed:', error));
    const mine = { worker, stopped };
    void stopped.then(() => {
      if (data.writeTurns) releaseBackgroundTurn(data.writeTurns);
      for (const resolve of runs.values()) resolve(0);
      runs.clear();
      if (thread !== mine) return;
      thread = undefined;
      // Died while it should run (a crash, not a stop): another takes over, and the leases of the first run out.
      if (started) setTimeout(() => started && spawn().postMessage({ op: 'start' }), 1_000).unref();
    });
    thread = mine;
    return worker;
  }

  const post = (message: ToThread) => thread?.worker.postMessage(message);

  /**
   * An endpoint's queue starts at the newest event when it is first seen (no history replayed). The thread takes a
   * second or two to load, so its first pass would start the cursors past the events committed meanwhile: they are
   * started here instead, as soon as `start` is called (limit 0: nothing is queued here).
   */
  async function startCursors() {
    const now = new Date().toISOString();
    const stored = (await options.store.listWebhookEndpoints()).filter((endpoint) => !endpoint.disabled);
    for (const endpoint of [...environment, ...stored])
      await options.store.queueEndpointDeliveries(endpoint.id, endpoint.types ?? [], now, 0);
  }

  return {
    /** One pass in the thread; resolves with how many were sent (0 if the thread ended meanwhile). */
    runOnce(): Promise<number> {
      const id = nextRun++;
      const ran = new Promise<number>((resolve) => runs.set(id, resolve));
      spawn().postMessage({ op: 'run', id });
      return ran;
    },
    environment,
    addresses: options.addresses,
    refresh() {
      post({ op: 'refresh' });
    },
    start() {
      if (started) return;
      started = true;
      // As in-thread: woken right after the shoppers' streams have the change (setImmediate), once per turn.
      let woken = false;
      unsubscribe = options.hub.subscribeAll(() => {
        if (woken) return;
        woken = true;
        setImmediate(() => {
          woken = false;
          post({ op: 'wake' });
        });
      });
      starting = startCursors()
        .catch((error: unknown) => logger.warn('merchant webhooks:', error))
        .then(() => {
          if (started) spawn().postMessage({ op: 'start' });
        });
    },
    /** Stops the thread once its pass in progress has recorded its attempts, and its store connection is closed. */
    async stop() {
      started = false;
      unsubscribe?.();
      unsubscribe = undefined;
      await starting;
      const current = thread;
      if (!current) return;
      current.worker.postMessage({ op: 'stop' });
      await current.stopped;
    },
  };
}

/** The worker for this store and clock: the thread when it can have one (see above), else in-thread. */
export function deliveryWorkerFor(
  options: ThreadedDeliveryOptions & { store: DeliveryWorkerStore; hub: StatusHub; clock: Clock },
): DeliveryWorker {
  const { store, clock, hub, endpoints, addresses, logger, retryDelaysMs, onAttempts } = options;
  if (clock === systemClock && (options.databaseUrl || options.file)) return createThreadedDeliveryWorker(options);
  return createDeliveryWorker({
    store,
    clock,
    hub,
    endpoints,
    addresses,
    sealer: sealerOfKeys(options.secretsKeys),
    ...(logger && { logger }),
    ...(retryDelaysMs && { retryDelaysMs }),
    ...(onAttempts && { onAttempt: (outcome: AttemptOutcome) => onAttempts(outcome, 1) }),
  });
}
