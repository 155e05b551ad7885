/**
 * Status hubs: how an SSE stream learns that its checkout has a new event. The local hub is a Map of Sets (no
 * EventEmitter, so ten thousand streams raise no max-listener warning). The PostgreSQL hub adds LISTEN/NOTIFY so a
 * webhook applied by one BFF instance wakes the streams held by every other instance.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { z } from 'zod';
import type { CommittedChange, StatusHub } from './types';

type Listener = (seq: number, committed?: CommittedChange) => void;
type ErrorReporter = (error: unknown) => void;

export const HUB_CHANNEL = 'checkout_events';
/** Set on the LISTEN connection so operators (and tests) can find it in pg_stat_activity. */
export const HUB_APPLICATION_NAME = 'checkout-status-hub';

const reportToConsole: ErrorReporter = (error) => console.error('status hub:', error);

/** Subscriptions of one process. Each is its own object, so the same function subscribed twice is two subscriptions. */
function createRegistry(onError: ErrorReporter) {
  const byCheckout = new Map<string, Set<{ listener: Listener }>>();
  /** Listeners of every publish (the back-office's live lists). */
  const everything = new Set<{ listener: (checkoutId: string, seq: number) => void }>();
  let count = 0;

  // One throwing listener (a stream whose socket just died) must not keep the event from the others.
  const call = (subscription: { listener: Listener }, seq: number, committed?: CommittedChange) => {
    try {
      if (committed) subscription.listener(seq, committed);
      else subscription.listener(seq);
    } catch (error) {
      onError(error);
    }
  };

  return {
    subscribe: (checkoutId: string, listener: Listener): (() => void) => {
      const subscription = { listener };
      let set = byCheckout.get(checkoutId);
      if (!set) byCheckout.set(checkoutId, (set = new Set()));
      set.add(subscription);
      count++;
      return () => {
        const current = byCheckout.get(checkoutId);
        if (!current?.delete(subscription)) return;
        count--;
        if (current.size === 0) byCheckout.delete(checkoutId);
      };
    },
    subscribeAll: (listener: (checkoutId: string, seq: number) => void): (() => void) => {
      const subscription = { listener };
      everything.add(subscription);
      count++;
      return () => {
        if (everything.delete(subscription)) count--;
      };
    },
    dispatch: (checkoutId: string, seq: number, committed?: CommittedChange): void => {
      const set = byCheckout.get(checkoutId);
      if (set) for (const subscription of [...set]) call(subscription, seq, committed);
      for (const subscription of [...everything]) call({ listener: (n) => subscription.listener(checkoutId, n) }, seq);
    },
    wakeAll: (): void => {
      for (const set of [...byCheckout.values()]) for (const subscription of [...set]) call(subscription, 0);
      for (const subscription of [...everything]) call({ listener: () => subscription.listener('*', 0) }, 0);
    },
    count: () => count,
    clear: (): void => {
      byCheckout.clear();
      everything.clear();
      count = 0;
    },
  };
}

export interface LocalHubOptions {
  /** Receives errors thrown by listeners. */
  onError?: ErrorReporter;
}

export function createLocalHub({ onError = reportToConsole }: LocalHubOptions = {}): StatusHub {
  const registry = createRegistry(onError);
  return {
    subscribe: registry.subscribe,
    subscribeAll: registry.subscribeAll,
    publish: registry.dispatch,
    subscriberCount: registry.count,
    async close() {
      registry.clear();
    },
  };
}

export interface PostgresHubOptions {
  connectionString: string;
  /** First delay before reconnecting the LISTEN connection; doubles per failed attempt up to 10 s. */
  reconnectDelayMs?: number;
  /** Receives connection errors, failed notifies and errors thrown by listeners. */
  onError?: ErrorReporter;
}

/** The most notices one NOTIFY statement carries, so a burst never makes one huge statement. */
const NOTICES_PER_STATEMENT = 500;

/**
 * Sends the notices of publishes without queueing them on the connection: while one statement is on its way, the
 * notices published meanwhile wait in memory and then go together in the next one (pg_notify over unnest). So 200
 * requests publishing at once cost one or two round trips, not 200 statements queued one behind the other on the
 * hub's single connection, and `publish` never waits for a connection. Each notice is still its own notification,
 * in publish order, so the LISTEN side reads them as before.
 */
function createNotifier(publisher: pg.Pool, onError: ErrorReporter) {
  let pending: string[] = [];
  let sending = false;
  let done: Promise<void> = Promise.resolve();
  const send = async () => {
    // Publishes of the same tick join the first statement.
    await Promise.resolve();
    while (pending.length > 0) {
      const batch = pending.slice(0, NOTICES_PER_STATEMENT);
      pending = pending.slice(batch.length);
      await publisher.query('SELECT pg_notify($1, notice) FROM unnest($2::text[]) AS notice', [HUB_CHANNEL, batch]).catch(onError);
    }
    // In the same step as the last look at `pending`, so a notice published now starts the next send.
    sending = false;
  };
  return {
    notify(notice: string): void {
      pending.push(notice);
      if (sending) return;
      sending = true;
      done = send();
    },
    /** Resolves once every notice published so far has been sent (or has failed). */
    sent: async (): Promise<void> => {
      while (sending) await done;
    },
  };
}

const NotificationSchema = z.object({ instance: z.string(), checkoutId: z.string(), seq: z.int().nonnegative() });

/**
 * Resolves once the LISTEN connection is up, so nothing published after that is missed. Own events are delivered
 * locally at once and skipped when they come back through NOTIFY, so local streams keep working while the
 * connection is down.
 */
export async function createPostgresHub({
  connectionString,
  reconnectDelayMs = 500,
  onError = reportToConsole,
}: PostgresHubOptions): Promise<StatusHub> {
  const registry = createRegistry(onError);
  const instance = randomUUID();
  // A pool (of one) reconnects by itself on the next query, so publishing survives a dropped connection.
  const publisher = new pg.Pool({ connectionString, max: 1 });
  publisher.on('error', onError);
  const notifier = createNotifier(publisher, onError);

  let listening: pg.Client | undefined;
  let closed = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;

  const onNotification = (message: pg.Notification) => {
    const parsed = NotificationSchema.safeParse(JSON.parse(message.payload ?? 'null'));
    if (!parsed.success) return onError(new Error(`unexpected ${HUB_CHANNEL} payload: ${message.payload}`));
    if (parsed.data.instance !== instance) registry.dispatch(parsed.data.checkoutId, parsed.data.seq);
  };

  const scheduleReconnect = () => {
    if (closed || timer) return;
    const delay = Math.min(reconnectDelayMs * 2 ** failures, 10_000);
    failures++;
    timer = setTimeout(() => {
      timer = undefined;
      listen().then(registry.wakeAll, onError);
    }, delay);
  };

  /** Connects and LISTENs; rejects when that fails, and on any loss of the connection schedules the next attempt. */
  const listen = async (): Promise<void> => {
    const client = new pg.Client({ connectionString, application_name: HUB_APPLICATION_NAME });
    let dropped = false;
    const drop = (error?: unknown) => {
      if (dropped) return;
      dropped = true;
      if (error && !closed) onError(error);
      if (listening === client) listening = undefined;
      client.end().catch(() => undefined);
      scheduleReconnect();
    };
    client.on('error', drop);
    client.on('end', () => drop());
    client.on('notification', onNotification);
    try {
      await client.connect();
      await client.query(`LISTEN ${HUB_CHANNEL}`);
    } catch (error) {
      drop();
      throw error;
    }
    if (closed) return void (await client.end());
    listening = client;
    failures = 0;
  };

  await listen().catch(async (error) => {
    closed = true;
    clearTimeout(timer);
    await publisher.end();
    throw error;
  });

  return {
    subscribe: registry.subscribe,
    subscribeAll: registry.subscribeAll,
    publish(checkoutId, seq, committed) {
      registry.dispatch(checkoutId, seq, committed);
      notifier.notify(JSON.stringify({ instance, checkoutId, seq }));
    },
    subscriberCount: registry.count,
    async close() {
      closed = true;
      clearTimeout(timer);
      registry.clear();
      await listening?.end();
      await notifier.sent();
      await publisher.end();
    },
  };
}
