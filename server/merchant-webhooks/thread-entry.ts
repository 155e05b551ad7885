/**
 * What runs inside the delivery thread (./thread.ts): its own store connection (SQLite: a second connection on the
 * same WAL file; PostgreSQL: a small pool of its own) and the same delivery worker (./delivery) as in-thread, with its
 * own kept-alive connections. The request thread wakes it with a message when a commit publishes; its warnings go back
 * there to be logged. Nothing here writes the secrets anywhere: they (and the keys that open the stored ones) come in `workerData` and
 * go out only as signatures.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { systemClock } from '../lib/clock';
import { createLocalHub, openStore, type StoreConnection } from '../store';
import { createDeliveryWorker, type DeliveryWorkerStore } from './delivery';
import type { AttemptOutcome } from './delivery-options';
import { sealerOfKeys } from './endpoint-secrets';
import type { ThreadData, ToThread } from './thread';
import { DELIVERY_THREAD_NAME, lowerThreadPriority, nameThread } from './thread-priority';

const data = workerData as ThreadData;
const port = parentPort!;

/** Errors cross as their message (and stack): the request thread's logger prints the same line as in-thread. */
const line = (values: unknown[]) => values.map((v) => (v instanceof Error ? (v.stack ?? v.message) : String(v))).join(' ');
/** A first argument that is a plain object is the line's fields (./attempt-line.ts), sent as they are. */
const tell =
  (op: 'warn' | 'log') =>
  (...values: unknown[]) => {
    const [first, ...rest] = values;
    const fields = typeof first === 'object' && first !== null && Object.getPrototypeOf(first) === Object.prototype;
    port.postMessage(fields ? { op, fields: first, line: line(rest) } : { op, line: line(values) });
  };
const logger = { warn: tell('warn'), log: tell('log') };

// Before the store opens: the threads it starts (its reader's, its checkpoints') inherit the lower priority.
try {
  lowerThreadPriority();
} catch (error) {
  logger.warn("merchant webhooks: the delivery thread runs at the request thread's priority:", error);
}

async function open(): Promise<DeliveryWorkerStore & StoreConnection> {
  // Its own hub, which no stream listens to: the worker's writes are deliveries, never a checkout's change.
  const hub = createLocalHub();
  if (data.databaseUrl) {
    // Two connections: one for the pass's reads and writes, one spare for the endpoint notes; no more are ever used.
    const postgres = { maxConnections: 2, onError: (error: unknown) => logger.warn('postgres store:', error) };
    return (await openStore({ databaseUrl: data.databaseUrl, hub, postgres })).store;
  }
  // Its writes give way to the request thread's (../store/write-turns.ts).
  const sqlite = data.writeTurns ? { writeTurns: { buffer: data.writeTurns, role: 'background' as const } } : {};
  return (await openStore({ file: data.file!, hub, sqlite })).store;
}

/** The hub as the worker sees it: a wake-up from the request thread (the worker reads nothing of what changed). */
type Waker = (checkoutId: string, seq: number) => void;
const wakers = new Set<Waker>();
const hub = {
  subscribeAll(listener: Waker) {
    wakers.add(listener);
    return () => void wakers.delete(listener);
  },
};

/** The attempts' outcomes since the last report, sent back once a turn (one message for a batch, not one per attempt). */
const attempts: Partial<Record<AttemptOutcome, number>> = {};
let reporting = false;
const onAttempt = (outcome: AttemptOutcome) => {
  attempts[outcome] = (attempts[outcome] ?? 0) + 1;
  if (reporting) return;
  reporting = true;
  setImmediate(() => {
    reporting = false;
    port.postMessage({ op: 'attempts', counts: { ...attempts } });
    for (const key of Object.keys(attempts) as AttemptOutcome[]) delete attempts[key];
  });
};

const ready = open().then((store) => {
  // Named once the store's threads are started, so only this one bears the name.
  nameThread(DELIVERY_THREAD_NAME);
  const worker = createDeliveryWorker({
    store,
    hub,
    endpoints: data.endpoints,
    addresses: data.addresses,
    sealer: sealerOfKeys(data.secretsKeys),
    clock: systemClock,
    logger,
    onAttempt,
    ...(data.retryDelaysMs && { retryDelaysMs: data.retryDelaysMs }),
  });
  return { store, worker };
});
ready.catch((error: unknown) => port.postMessage({ op: 'failed', line: line([error]) }));

port.on('message', (message: ToThread) => {
  void ready.then(async ({ store, worker }) => {
    switch (message.op) {
      case 'start':
        worker.start();
        break;
      case 'wake':
        for (const wake of wakers) wake('', 0);
        break;
      case 'refresh':
        worker.refresh();
        break;
      case 'run':
        port.postMessage({ op: 'ran', id: message.id, count: await worker.runOnce().catch(() => 0) });
        break;
      case 'stop':
        // The pass in progress finishes and records its attempts before the connection closes.
        await worker.stop();
        await store.close();
        port.postMessage({ op: 'stopped' });
        port.close();
        break;
    }
  });
});
