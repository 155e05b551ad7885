/**
 * Server-sent events of one checkout, written by hand rather than with Hono's `streamSSE`: that helper ends the
 * stream when its callback returns, swallows write errors and sends error messages to the client. Here the
 * stream lives until a final state or the client leaves, and leaving releases everything (subscription, timer).
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
}

const encoder = new TextEncoder();

function frame(view: object, seq: number): string {
  return `id: ${seq}\nevent: status\ndata: ${JSON.stringify(view)}\n\n`;
}

/** The view as it was at `event`: only the state and its date change after creation. */
function viewAt(checkout: Checkout, event: CheckoutEvent) {
  return { ...toView(checkout), state: event.state, updatedAt: event.at };
}

export function checkoutEventStream(options: EventStreamOptions): ReadableStream<Uint8Array> {
  const { store, hub, checkout } = options;
  let lastSeq = options.lastEventId ?? -1;
  let closed = false;
  let unsubscribe: (() => void) | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  // Reads run one after another so two wake-ups never send the same event twice.
  let queue: Promise<void> = Promise.resolve();

  const release = () => {
    if (closed) return;
    closed = true;
    unsubscribe?.();
    clearInterval(heartbeat);
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
        for (const event of await store.eventsAfter(checkout.id, lastSeq)) {
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
