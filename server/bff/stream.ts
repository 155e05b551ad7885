/**
 * Server-sent events of one checkout, written by hand rather than with Hono's `streamSSE`: that helper ends the
 * stream when its callback returns, swallows write errors and sends error messages to the client. Here the
 * stream lives until a final state or the client leaves, and leaving releases everything (subscription, timers).
 * `Expired` is not final: the stream stays open, so a late payment of the expired code still reaches the page.
 */
import type { Context } from 'hono';
import { rawBodyOf, type BodySink } from '../http/raw-body';
import type { Checkout, StatusHub } from '../store/types';
import { isFinal } from '../../core/states';
import { frame, notify, type StreamFeeds } from './stream-feed';
import { toView } from './view';

export interface EventStreamOptions {
  /** The reads the streams of each checkout share (one per app: ./stream-feed.ts). */
  feeds: StreamFeeds;
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

/** setTimeout takes at most 2^31 - 1 ms; a window further away than that (24 days) is left to the reconciler. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const HEARTBEAT = Buffer.from(': heartbeat\n\n');

/**
 * Opens one checkout's event stream into `sink` (Node's response, or a Web stream where there is none): the `retry:` hint, the current state (or the events after
 * `lastEventId`), every change after it, heartbeats, and the end after a final state. Returns the release that the
 * owner calls when the client leaves (idempotent; the stream also releases itself when it ends).
 */
function openCheckoutEvents(options: EventStreamOptions, sink: BodySink): () => void {
  const { feeds, hub } = options;
  /** The checkout as last read: its details change once more when it is paid (the receipt). */
  let checkout = options.checkout;
  let lastSeq = options.lastEventId ?? -1;
  let closed = false;
  const feed = feeds.join(checkout.id);
  /** What the stream holds once it is open, released when it ends. */
  const held: {
    unsubscribe?: () => void;
    heartbeat?: ReturnType<typeof setInterval>;
    expiryTimer?: ReturnType<typeof setTimeout>;
  } = {};
  // Reads run one after another so two wake-ups never send the same event twice.
  let queue: Promise<void> = Promise.resolve();

  const release = () => {
    if (closed) return;
    closed = true;
    held.unsubscribe?.();
    feeds.leave(checkout.id, feed);
    clearInterval(held.heartbeat);
    clearTimeout(held.expiryTimer);
  };
  const write = (bytes: Uint8Array) => {
    if (closed) return;
    try {
      sink.write(bytes);
    } catch {
      release();
    }
  };
  const finish = (last?: Uint8Array) => {
    if (closed) return;
    release();
    try {
      sink.end(last);
    } catch {
      // Already closed by the client leaving at the same time.
    }
  };

  // Each wake-up reads the events after the last one sent, shared with the checkout's other streams.
  const pump = async () => {
    if (closed) return;
    const batch = await feeds.readAfter(feed, checkout.id, lastSeq);
    if (closed) return;
    if (batch.checkout) checkout = batch.checkout;
    for (let i = 0; i < batch.events.length; i++) {
      const event = batch.events[i]!;
      lastSeq = event.seq;
      if (isFinal(event.state)) return finish(batch.frames[i]);
      write(batch.frames[i]!);
    }
    // A resumed stream of a checkout that had already ended has nothing more to wait for.
    if (isFinal(checkout.state) && lastSeq >= checkout.seq) finish();
  };
  const schedule = () => {
    queue = queue.then(pump).catch(() => finish());
  };

  write(Buffer.from(`retry: ${options.retryMs}\n\n`));
  if (lastSeq < 0) {
    lastSeq = checkout.seq;
    write(Buffer.from(frame(toView(checkout, undefined, { qr: false }), checkout.seq)));
  }
  if (closed) return release;
  // Subscribed before the catch-up read, so an event stored in between is read by one or the other.
  held.unsubscribe = hub.subscribe(checkout.id, (seq, committed) => {
    notify(feed, seq, committed);
    schedule();
  });
  held.heartbeat = setInterval(() => write(HEARTBEAT), options.heartbeatMs);
  const { expiry } = options;
  if (expiry && expiry.inMs <= MAX_TIMER_MS) {
    // A failed expiry is left to the reconciler; the stream goes on either way.
    held.expiryTimer = setTimeout(() => void expiry.expire().catch(() => undefined), Math.max(0, expiry.inMs));
  }
  schedule();
  return release;
}

/** The stream as a Web stream, for a server without Node's response at hand (`app.request` in tests). */
export function checkoutEventStream(options: EventStreamOptions): ReadableStream<Uint8Array> {
  let release: (() => void) | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      release = openCheckoutEvents(options, {
        write: (bytes) => controller.enqueue(bytes),
        end: (last) => {
          if (last) controller.enqueue(last);
          controller.close();
        },
      });
    },
    cancel() {
      release?.();
    },
  });
}

/**
 * The route's answer. Under the Node listener, the stream's headers now and its bytes straight to Node's response once
 * every middleware has added its headers (a change is then one `write` of a Buffer shared by every stream of the
 * checkout: server/http/raw-body.ts); elsewhere a Web stream. A HEAD (which Hono routes to the GET handler) gets the
 * headers alone and an answer that ends at once: nothing is opened, subscribed or counted for it, so no number of
 * HEADs holds a connection or a slot of the stream limits.
 */
export function eventStreamResponse(c: Context, options: EventStreamOptions): Response {
  if (c.req.method === 'HEAD') return new Response(null, { headers: HEAD_HEADERS });
  const raw = rawBodyOf(c);
  if (!raw) return new Response(checkoutEventStream(options), { headers: SSE_HEADERS });
  raw.defer((sink) => openCheckoutEvents(options, sink));
  return new Response(null, { headers: SSE_HEADERS });
}

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-store, no-transform',
  'x-accel-buffering': 'no',
  connection: 'keep-alive',
};

/** A HEAD's: a stream's, but for `Connection`, left to Node, so an answer that ends closes when the client asks. */
const HEAD_HEADERS = Object.fromEntries(Object.entries(SSE_HEADERS).filter(([name]) => name !== 'connection'));
