/**
 * The webhooks' own HTTP: one POST, answered with its status, over Node's `http`/`https` with kept-alive connections
 * of its own (a transport per delivery worker, and one for the back office's test events). Two things set it apart
 * from the server's other outgoing HTTP (../lib/http-client.ts):
 *
 * - The receiver's answer body is never wanted. No compression is asked for and none is decoded; at most
 *   `ANSWER_READ_BYTES` of it are read (so a short answer leaves its connection reusable), then the connection is
 *   closed. A receiver answering 16 MiB, or a few KB of gzip that would inflate to gigabytes, costs a few KB.
 * - A stored endpoint's connections are checked (./endpoint-address.ts): refused before connecting when the URL is
 *   not allowed as written, and resolved through `guardedLookup`, so the address connected to is the one checked.
 *   Its connections are kept apart from the environment's (MERCHANT_WEBHOOK_URL, the operator's, not checked).
 *
 * A redirect is not followed (and is not a 2xx). Resolves at the answer's status line and headers: a body that
 * trickles in holds a connection (until the deadline at most), never the delivery.
 */
import http from 'node:http';
import https from 'node:https';
import { AddressNotAllowed, guardedLookup, refusedAsWritten, type EndpointAddressPolicy } from './endpoint-address';

/** How much of an answer body is read before its connection is closed: enough for any "ok" a receiver sends. */
export const ANSWER_READ_BYTES = 4 * 1024;

export interface WebhookPost {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** The status must come within this; past it, the call rejects with a `TimeoutError`. */
  timeoutMs: number;
  /** A stored endpoint's call, checked by the policy; the environment's is not. */
  checked: boolean;
}

export interface WebhookTransport {
  /** Resolves with the answer's HTTP status. */
  post(call: WebhookPost): Promise<number>;
  /** Closes the kept-alive connections. */
  close(): void;
}

/**
 * Idle connections close after 4 s, under the 5 s Node servers (and many proxies) keep them; the most recently used
 * is reused first, so few stay open.
 */
const agentOptions = { keepAlive: true, timeout: 4_000, scheduling: 'lifo' } as const;
const agentPair = () => ({ 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) });

const timeoutError = (ms: number) => new DOMException(`No answer within ${ms} ms`, 'TimeoutError');

export function webhookTransport(policy: EndpointAddressPolicy): WebhookTransport {
  const agents = { open: agentPair(), checked: agentPair() };
  const lookups = { 'http:': guardedLookup('http:', policy), 'https:': guardedLookup('https:', policy) };

  function post(call: WebhookPost): Promise<number> {
    const target = new URL(call.url);
    const protocol = target.protocol;
    if (protocol !== 'http:' && protocol !== 'https:') return Promise.reject(new TypeError(`Unsupported protocol ${protocol}`));
    if (call.checked && refusedAsWritten(target, policy)) {
      return Promise.reject(new AddressNotAllowed(`${target.host} is not an address a webhook endpoint may have`));
    }
    return new Promise((resolve, reject) => {
      const request = (protocol === 'https:' ? https : http).request(
        {
          protocol,
          hostname: target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname,
          port: target.port,
          path: target.pathname + target.search,
          method: 'POST',
          headers: { ...call.headers, 'content-length': String(Buffer.byteLength(call.body)) },
          agent: (call.checked ? agents.checked : agents.open)[protocol],
          // Called for a name only: an IP literal was checked above (Node resolves no literal).
          ...(call.checked && { lookup: lookups[protocol] }),
        },
        (response) => {
          resolve(response.statusCode ?? 0);
          let read = 0;
          response.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > ANSWER_READ_BYTES) response.destroy();
          });
          response.on('close', () => clearTimeout(timer));
          // Whatever befalls the answer's body now is not the delivery's: its status is known.
          response.on('error', () => undefined);
        },
      );
      // The deadline stays after the status for the body read, which it cuts short.
      const timer = setTimeout(() => request.destroy(timeoutError(call.timeoutMs)), call.timeoutMs);
      timer.unref();
      request.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      request.end(call.body);
    });
  }

  return {
    post,
    close() {
      for (const pair of Object.values(agents)) for (const agent of Object.values(pair)) agent.destroy();
    },
  };
}
