/**
 * The provider's webhook answered straight from Node's request, before the app: the status path's first step, which
 * every payment takes. The Hono app would wrap the request and the answer in Web objects and run the API's middleware
 * for it, none of which a provider's POST needs; here the receiver (server/bff/webhooks.ts, the same one the app
 * mounts, handed in by the composition root) gets the request and its body from Node, and its answer is written with
 * the headers `securityHeaders` would add and the request log's line.
 *
 * Only the plain case is taken: `POST` at the route's exact address with a `Content-Length` within the JSON limit and
 * no `Transfer-Encoding`. Anything else goes on to the app, which answers it as before (a 411, 413, 404 or 405 in its
 * envelope). The body has the app's deadline: past it, a 408 `body_timeout`, and the connection is closed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { envelopeOf, storeUnavailableAnswer } from '../http/error-envelope';
import { logRequest } from '../http/request-log';
import { jsonAnswerHeaders } from '../http/security-headers';
import { readIncoming } from '../lib/node-body';
import { requestIdHeader } from '../lib/request-scope';
import { bodyTimeout, internalError } from '../payments/errors';

/** A route Node answers before the app: true when it took the request. */
export type NodeRoute = (incoming: IncomingMessage, outgoing: ServerResponse) => boolean;

/** A receiver's answer: a status and its JSON body. */
export interface ReceiverAnswer {
  status: number;
  body: object;
  /** Seconds for `Retry-After` (the database away for a moment: the provider sends the webhook again). */
  retryAfter?: string;
}

/** What the route runs: a receiver given the request's headers and its body as text (server/bff/webhooks.ts). */
export type Receive = (call: { header(name: string): string | undefined; text(): Promise<string> }) => Promise<ReceiverAnswer>;

export interface NodeWebhookRouteOptions {
  receive: Receive;
  /** The route's address, as the app mounts it: `/api/webhooks/provider`. */
  path: string;
  /** The app's JSON body limit: a longer body goes to the app, which refuses it. */
  maxBytes: number;
  /** The app's body deadline (`BODY_TIMEOUT_MS`). */
  bodyTimeoutMs: number;
  /** Whether the public address is https (Strict-Transport-Security, as on every answer). */
  https: boolean;
  /** The request log's line (server/http/request-log.ts), and where an unexpected failure is told. */
  log: Pick<Console, 'log' | 'error'>;
}

export function nodeWebhookRoute({ receive, path, maxBytes, bodyTimeoutMs, https, log }: NodeWebhookRouteOptions): NodeRoute {
  const headers = { ...jsonAnswerHeaders(path, { https }), 'content-type': 'application/json' };
  const header = (incoming: IncomingMessage, name: string) => {
    const value = incoming.headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  const send = (outgoing: ServerResponse, { status, body, retryAfter }: ReceiverAnswer, close: boolean) => {
    const text = JSON.stringify(body);
    outgoing.writeHead(status, {
      ...headers,
      ...requestIdHeader(),
      ...(retryAfter && { 'retry-after': retryAfter }),
      'content-length': Buffer.byteLength(text),
      // The rest of a late body may still be on its way: don't keep the connection for it.
      ...(close && { connection: 'close' }),
    });
    outgoing.end(text);
  };

  return (incoming, outgoing) => {
    if (incoming.method !== 'POST' || incoming.url !== path || incoming.headers['transfer-encoding'] !== undefined) return false;
    const length = Number(incoming.headers['content-length']);
    if (!(length > 0 && length <= maxBytes)) return false;
    const started = performance.now();
    let expired = false;
    const text = readIncoming(incoming, {
      ms: bodyTimeoutMs,
      onTimeout: () => {
        expired = true;
        return bodyTimeout();
      },
    });
    // Read (or not, when the sender is refused first) by the receiver; never an unhandled rejection.
    text.catch(() => undefined);
    void receive({ header: (name) => header(incoming, name), text: () => text })
      .catch((error: unknown): ReceiverAnswer => {
        const away = storeUnavailableAnswer(error);
        if (away) return { status: away.error.status, body: envelopeOf(away.error), retryAfter: away.retryAfter };
        log.error('checkout api:', error);
        const failure = internalError();
        return { status: failure.status, body: envelopeOf(failure) };
      })
      .then((answer) => {
        send(outgoing, answer, expired);
        logRequest(log, 'POST', path, answer.status, performance.now() - started);
      });
    return true;
  };
}
