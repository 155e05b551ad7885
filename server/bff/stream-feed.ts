/**
 * What the event streams of one checkout share (./stream.ts): one read of its events after a seq, with each event's
 * frame encoded once for every stream of that checkout at that seq. The feeds belong to the app that opens the
 * streams (`createStreamFeeds`, made once by the checkout routes), not to the module.
 */
import type { CheckoutReadStore } from '../store/checkout-store';
import type { Checkout, CheckoutEvent, CommittedChange } from '../store/types';
import { toView } from './view';

/** One `status` event of the stream, as the wire carries it. */
export function frame(view: object, seq: number): string {
  return `id: ${seq}\nevent: status\ndata: ${JSON.stringify(view)}\n\n`;
}

/** The view as it was at `event`: its state and date (and the receipt, once Completed). */
const viewAt = (checkout: Checkout, event: CheckoutEvent) => toView(checkout, event, { qr: false });

/** The events after one seq, the checkout read with them, and each event's frame, encoded once for every stream. */
export interface Batch {
  checkout: Checkout | undefined;
  events: CheckoutEvent[];
  frames: Buffer[];
}

/**
 * What the streams of one checkout share: one read of the events after a given seq, and its encoded frames, so a
 * change reaches ten thousand streams with one query and one JSON encoding rather than one of each per stream.
 * A read is shared only by wake-ups that came after it started: every notification of a newer seq (or a wake-up
 * of everything, seq 0) drops the reads made before it, so no stream is ever served a read older than its wake-up.
 */
export interface Feed {
  streams: number;
  notified: number;
  reads: Map<number, Promise<Batch>>;
  /** The newest change this instance committed, as the transaction left it (its notice carries it). */
  committed?: CommittedChange | undefined;
}

export function notify(feed: Feed, seq: number, committed?: CommittedChange) {
  if (seq !== 0 && seq <= feed.notified) return;
  if (seq !== 0) feed.notified = seq;
  feed.committed = committed;
  feed.reads.clear();
}

/**
 * The batch of a change committed here, when it is exactly the one event after `afterSeq` and the newest this
 * instance knows: its streams send it as the transaction left it, with no read of the store. Anything else (a
 * notice from another instance, a stream further behind, a wake-up of everything) is read from the store.
 */
function committedBatch(feed: Feed, afterSeq: number): Batch | undefined {
  const committed = feed.committed;
  if (!committed || committed.event.seq !== afterSeq + 1 || committed.event.seq !== feed.notified) return undefined;
  const { checkout, event } = committed;
  return { checkout, events: [event], frames: [Buffer.from(frame(viewAt(checkout, event), event.seq))] };
}

/** The feeds of one app's streams, by checkout: each lives while a stream of its checkout is open. */
export interface StreamFeeds {
  /** The checkout's feed, counting one more stream on it. */
  join(checkoutId: string): Feed;
  /** One stream fewer on `feed`; the last one drops it. */
  leave(checkoutId: string, feed: Feed): void;
  /** The events after `afterSeq`, read once for every stream of the checkout that woke up for it. */
  readAfter(feed: Feed, checkoutId: string, afterSeq: number): Promise<Batch>;
}

export function createStreamFeeds(store: CheckoutReadStore): StreamFeeds {
  const byCheckout = new Map<string, Feed>();
  return {
    join(checkoutId) {
      let feed = byCheckout.get(checkoutId);
      if (!feed) byCheckout.set(checkoutId, (feed = { streams: 0, notified: -1, reads: new Map() }));
      feed.streams++;
      return feed;
    },
    leave(checkoutId, feed) {
      if (--feed.streams > 0) return;
      if (byCheckout.get(checkoutId) === feed) byCheckout.delete(checkoutId);
    },
    readAfter(feed, checkoutId, afterSeq) {
      let read = feed.reads.get(afterSeq);
      if (!read) {
        const served = committedBatch(feed, afterSeq);
        read = served
          ? Promise.resolve(served)
          : (async (): Promise<Batch> => {
              const events = await store.eventsAfter(checkoutId, afterSeq);
              // The details change once more when it is paid (the receipt): read them with the events that show it.
              const checkout = events.length ? await store.getCheckout(checkoutId) : undefined;
              if (events.length && !checkout) throw new Error(`checkout ${checkoutId} has events but no row`);
              const frames = checkout ? events.map((event) => Buffer.from(frame(viewAt(checkout, event), event.seq))) : [];
              return { checkout, events, frames };
            })();
        const reads = feed.reads;
        reads.set(afterSeq, read);
        // A failed read is not shared: the next wake-up tries again.
        read.catch(() => reads.get(afterSeq) === read && reads.delete(afterSeq));
      }
      return read;
    },
  };
}
