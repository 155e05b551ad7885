/**
 * Server-sent events of one checkout, written by hand rather than with Hono's `streamSSE`: that helper ends the
 * stream when its callback returns, swallows write errors and sends error messages to the client. Here the
 * stream lives until a final state or the client leaves, and leaving releases everything (subscription, timers).
 * `Expired` is not final: the stream stays open, so a late payment of the expired code still reaches the page.
 */
import type { Checkout, CheckoutEvent, StatusHub, Store } from '../store/types';
import { isFinal } from '../../core/states';
import { toView } from './view';

export interface EventStreamOptions {
  store: Store;
  hub: StatusHub;
  /** The checkout as just read; only its state changes later, and those changes come from its events. */
  checkout: Checkout;
  /** The client's `Last-Event-ID`: resume after it. Without it, the first event is the current state. */
  lastEventId?: number;
  heartbeatMs: number;
  retryMs: number;
  /**
   * The end of the payment window of a live checkout: `expire` is called `inMs` from now (it moves the checkout to
   * `Expired` when it is due, and its event comes through the hub like any other), so the page hears of it on time
   * rather than at the reconciler's next pass.
   */
  expiry?: { inMs: number; expire: () => Promise<unknown> };
}

const encoder = new TextEncoder();

function frame(view: object, seq: number): string {
  return `id: ${seq}\nevent: status\ndata: ${JSON.stringify(view)}\n\n`;
}

/** The view as it was at `event`: its state and date (and the receipt, once Completed). */
const viewAt = (checkout: Checkout, event: CheckoutEvent) => toView(checkout, event);

/** setTimeout takes at most 2^31 - 1 ms; a window further away than that (24 days) is left to the reconciler. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const HEARTBEAT = encoder.encode(': heartbeat\n\n');

/** The events after one seq, the checkout read with them, and each event's frame, encoded once for every stream. */
interface Batch {
  checkout: Checkout | undefined;
  events: CheckoutEvent[];
  frames: Uint8Array[];
}

/**
 * What the streams of one checkout share: one read of the events after a given seq, and its encoded frames, so a
 * change reaches ten thousand streams with one query and one JSON encoding rather than one of each per stream.
 * A read is shared only by wake-ups that came after it started: every notification of a newer seq (or a wake-up
 * of everything, seq 0) drops the reads made before it, so no stream is ever served a read older than its wake-up.
 */
interface Feed {
  streams: number;
  notified: number;
  reads: Map<number, Promise<Batch>>;
}

const feeds = new WeakMap<Store, Map<string, Feed>>();

function feedOf(store: Store, checkoutId: string): Feed {
  let byCheckout = feeds.get(store);
  if (!byCheckout) feeds.set(store, (byCheckout = new Map<string, Feed>()));
  let feed = byCheckout.get(checkoutId);
  if (!feed) byCheckout.set(checkoutId, (feed = { streams: 0, notified: -1, reads: new Map() }));
  return feed;
}

function leaveFeed(store: Store, checkoutId: string, feed: Feed) {
  if (--feed.streams > 0) return;
  const byCheckout = feeds.get(store);
  if (byCheckout?.get(checkoutId) === feed) byCheckout.delete(checkoutId);
}

function notify(feed: Feed, seq: number) {
  if (seq !== 0 && seq <= feed.notified) return;
  if (seq !== 0) feed.notified = seq;
  feed.reads.clear();
}

function readAfter(store: Store, feed: Feed, checkoutId: string, afterSeq: number): Promise<Batch> {
  let read = feed.reads.get(afterSeq);
  if (!read) {
    read = (async (): Promise<Batch> => {
      const events = await store.eventsAfter(checkoutId, afterSeq);
      // The details change once more when it is paid (the receipt): read them with the events that show it.
      const checkout = events.length ? await store.getCheckout(checkoutId) : undefined;
      if (events.length && !checkout) throw new Error(`checkout ${checkoutId} has events but no row`);
      const frames = checkout ? events.map((event) => encoder.encode(frame(viewAt(checkout, event), event.seq))) : [];
      return { checkout, events, frames };
    })();
    const reads = feed.reads;
    reads.set(afterSeq, read);
    // A failed read is not shared: the next wake-up tries again.
    read.catch(() => reads.get(afterSeq) === read && reads.delete(afterSeq));
  }
  return read;
}

export function checkoutEventStream(options: EventStreamOptions): ReadableStream<Uint8Array> {
  const { store, hub } = options;
  /** The checkout as last read: its details change once more when it is paid (the receipt). */
  let checkout = options.checkout;
  let lastSeq = options.lastEventId ?? -1;
  let closed = false;
  const feed = feedOf(store, checkout.id);
  feed.streams++;
  let unsubscribe: (() => void) | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let expiryTimer: ReturnType<typeof setTimeout> | undefined;
  // Reads run one after another so two wake-ups never send the same event twice.
  let queue: Promise<void> = Promise.resolve();

  const release = () => {
    if (closed) return;
    closed = true;
    unsubscribe?.();
    leaveFeed(store, checkout.id, feed);
    clearInterval(heartbeat);
    clearTimeout(expiryTimer);
  };

  return new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (bytes: Uint8Array) => {
        if (closed) return;
        try {
          controller.enqueue(bytes);
        } catch {
          release();
        }
      };
      const finish = () => {
        if (closed) return;
        release();
        try {
          controller.close();
        } catch {
          // Already closed by a cancel racing with us.
        }
      };

      // Each wake-up reads the events after the last one sent, shared with the checkout's other streams.
      const pump = async () => {
        if (closed) return;
        const batch = await readAfter(store, feed, checkout.id, lastSeq);
        if (closed) return;
        if (batch.checkout) checkout = batch.checkout;
        for (let i = 0; i < batch.events.length; i++) {
          const event = batch.events[i]!;
          lastSeq = event.seq;
          write(batch.frames[i]!);
          if (isFinal(event.state)) return finish();
        }
        // A resumed stream of a checkout that had already ended has nothing more to wait for.
        if (isFinal(checkout.state) && lastSeq >= checkout.seq) finish();
      };
      const schedule = () => {
        queue = queue.then(pump).catch(() => finish());
      };

      write(encoder.encode(`retry: ${options.retryMs}\n\n`));
      if (lastSeq < 0) {
        lastSeq = checkout.seq;
        write(encoder.encode(frame(toView(checkout), checkout.seq)));
      }
      // Subscribed before the catch-up read, so an event stored in between is read by one or the other.
      unsubscribe = hub.subscribe(checkout.id, (seq) => {
        notify(feed, seq);
        schedule();
      });
      heartbeat = setInterval(() => write(HEARTBEAT), options.heartbeatMs);
      const { expiry } = options;
      if (expiry && expiry.inMs <= MAX_TIMER_MS) {
        // A failed expiry is left to the reconciler; the stream goes on either way.
        expiryTimer = setTimeout(() => void expiry.expire().catch(() => undefined), Math.max(0, expiry.inMs));
      }
      schedule();
    },
    cancel() {
      release();
    },
  });
}

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-store, no-transform',
  'x-accel-buffering': 'no',
  connection: 'keep-alive',
};
