/**
 * A body written straight to Node's response rather than through a Web stream, for the status streams: a change is
 * then one `write` of a Buffer shared by every stream of the checkout. The route answers with the headers only and
 * `defer`s its body; once every middleware has added its own headers (CORS, security headers, the stream limit's
 * release), the Node listener writes them and starts the body (server/node/raw-body.ts). The listener registers a
 * `RawBody` on the env of each request it serves; without one (`app.request`, another server) a route answers with
 * a Web stream instead.
 */
import type { Context } from 'hono';

/** Where a deferred body's bytes go. */
export interface BodySink {
  write(bytes: Uint8Array): void;
  /** Ends the body, after `last` when given (one socket write for a final frame and the end of the body). */
  end(last?: Uint8Array): void;
}

/** Starts writing a body into `sink`; returns the release its owner calls when the client leaves (idempotent). */
export type OpenBody = (sink: BodySink) => () => void;

export interface RawBody {
  /** Has the listener write `open`'s body once the app's answer (a 200 without a body) has its final headers. */
  defer(open: OpenBody): void;
  /** Runs `done` once when the deferred body ends, or when it never starts; false when the request deferred none. */
  onEnd(done: () => void): boolean;
}

/** The request's `RawBody`, when the Node listener serves it. */
export const rawBodyOf = (c: Context): RawBody | undefined => (c.env as { rawBody?: RawBody } | undefined)?.rawBody;
