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

export function checkoutEventStream(options: EventStreamOptions): ReadableStream<Uint8Array> {
  const { store, hub } = options;
  /** The checkout as last read: its details change once more when it is paid (the receipt). */
  let checkout = options.checkout;
  let lastSeq = options.lastEventId ?? -1;
  let closed = false;
  let unsubscribe: (() => void) | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let expiryTimer: ReturnType<typeof setTimeout> | undefined;
  // Reads run one after another so two wake-ups never send the same event twice.
  let queue: Promise<void> = Promise.resolve();

  const release = () => {
    if (closed) return;
    closed = true;
    unsubscribe?.();
    clearInterval(heartbeat);
    clearTimeout(expiryTimer);
  };

  return new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
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

      // Each wake-up costs one query: the events after the last one sent.
      const pump = async () => {
        if (closed) return;
        const events = await store.eventsAfter(checkout.id, lastSeq);
        // A payment brings its receipt into the details: read them once, for the events that show it.
        if (events.some((event) => event.state === 'Completed')) checkout = (await store.getCheckout(checkout.id)) ?? checkout;
        for (const event of events) {
          lastSeq = event.seq;
          write(frame(viewAt(checkout, event), event.seq));
          if (isFinal(event.state)) return finish();
        }
        // A resumed stream of a checkout that had already ended has nothing more to wait for.
        if (isFinal(checkout.state) && lastSeq >= checkout.seq) finish();
      };
      const schedule = () => {
        queue = queue.then(pump).catch(() => finish());
      };

      write(`retry: ${options.retryMs}\n\n`);
      if (lastSeq < 0) {
        lastSeq = checkout.seq;
        write(frame(toView(checkout), checkout.seq));
      }
      // Subscribed before the catch-up read, so an event stored in between is read by one or the other.
      unsubscribe = hub.subscribe(checkout.id, schedule);
      heartbeat = setInterval(() => write(': heartbeat\n\n'), options.heartbeatMs);
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
