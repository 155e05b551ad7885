/**
 * The listener's part of a graceful stop (server/shutdown.ts runs the whole sequence): no new connection is accepted,
 * every request in flight is answered (its answer closes its connection, so a load balancer's kept-alive connection
 * goes with it), and every event stream ends with a `retry:` hint, so the page's EventSource reconnects, through the
 * load balancer, to another instance. Connections still open past the deadline are cut.
 */
import type { Server, ServerResponse } from 'node:http';

export interface Drain {
  /** Follows an answer until it is sent: an event stream among them is ended by `start`. */
  track(outgoing: ServerResponse): void;
  draining(): boolean;
  /** Resolves once every connection has closed, those still open after `cutAfterMs` cut. */
  start(cutAfterMs: number): Promise<void>;
}

/** The wait the ended streams are told before they reconnect: spread over 1–3 s, so they don't all arrive at once. */
const retryFrame = () => Buffer.from(`retry: ${1_000 + Math.floor(Math.random() * 2_000)}\n\n`);

/**
 * Whether an answer whose headers are out is an event stream. Read from the head as sent: headers given to `writeHead`
 * as an object (as the app's answers are) never reach `getHeader`'s table.
 */
const isEventStream = (outgoing: ServerResponse) =>
  /\r\ncontent-type: *text\/event-stream/i.test((outgoing as ServerResponse & { _header?: string | null })._header ?? '');

export function drainAnswers(server: Server): Drain {
  const open = new Set<ServerResponse>();
  let draining = false;
  /** An answer done while draining leaves its connection idle: it is closed at once. */
  const closeIdle = () => setImmediate(() => server.closeIdleConnections());

  /** Writes the hint after the stream's last whole event and ends it; the stream's owner is released on 'close'. */
  const endStream = (outgoing: ServerResponse) => {
    if (outgoing.writableEnded || outgoing.destroyed) return;
    outgoing.end(retryFrame());
  };

  return {
    track(outgoing) {
      if (draining) outgoing.setHeader('connection', 'close');
      open.add(outgoing);
      outgoing.once('close', () => {
        open.delete(outgoing);
        if (draining) closeIdle();
      });
    },
    draining: () => draining,
    async start(cutAfterMs) {
      if (draining) return;
      draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const outgoing of open) {
        if (!outgoing.headersSent) outgoing.setHeader('connection', 'close');
        else if (isEventStream(outgoing)) endStream(outgoing);
      }
      server.closeIdleConnections();
      const cut = setTimeout(() => server.closeAllConnections(), cutAfterMs);
      // Streams whose headers were not out yet at the start (their first read still running), or opened since on a
      // connection kept from before, are ended as they open.
      const late = setInterval(() => {
        for (const outgoing of open) if (outgoing.headersSent && isEventStream(outgoing)) endStream(outgoing);
      }, 50);
      try {
        await closed;
      } finally {
        clearTimeout(cut);
        clearInterval(late);
      }
    },
  };
}
