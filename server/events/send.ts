/**
 * One signed POST of an event to one endpoint, and what came of it: the worker's deliveries (./delivery) and the back
 * office's test events both go through here. A 2xx within the timeout is a delivery; a redirect is not followed (and
 * is not one). Sent over Node's `http` with kept-alive connections (server/lib/http-client.ts), not `fetch`: a
 * backlog drains at thousands a second, and `fetch` costs about three times as much per request.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../lib/clock';
import { sendWithNodeHttp } from '../lib/http-client';
import type { WebhookAttempt } from '../store/deliveries';
import { signedHeaders } from './signing';

/** Where the merchant wants its events, and the secrets that sign them (two while rotating). */
export interface WebhookEndpoint {
  id: string;
  url: string;
  secrets: readonly string[];
  /** The event types it wants; none or empty: every type. */
  types?: readonly string[];
}

/** What a delivery carries: a merchant event, or a test event (`webhook.test`, seq 0, not in the feed). */
export interface SentEvent {
  id: string;
  seq: number;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

/** How long a 2xx may take, unless told. */
export const SEND_TIMEOUT_MS = 10_000;

export async function sendEvent(
  endpoint: WebhookEndpoint,
  event: SentEvent,
  clock: Clock,
  timeoutMs = SEND_TIMEOUT_MS,
): Promise<WebhookAttempt> {
  const body = JSON.stringify(event);
  const started = clock.now();
  const headers = signedHeaders(endpoint.secrets, event.id, Math.floor(started.getTime() / 1000), body);
  let status: number | null = null;
  let error: string | null = null;
  const t0 = performance.now();
  try {
    const answer = await sendWithNodeHttp({
      method: 'POST',
      url: endpoint.url,
      headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'pix-checkout-webhooks/1' },
      body,
      timeoutMs,
    });
    status = answer.status;
    if (status < 200 || status > 299) error = `HTTP ${status}`;
  } catch (cause) {
    error = cause instanceof Error ? (cause.name === 'TimeoutError' ? 'timeout' : cause.message) : String(cause);
  }
  return { at: started.toISOString(), status, durationMs: Math.round(performance.now() - t0), error };
}

/** A test event for the endpoint: its own id, so a receiver that discards repeats takes each one. */
export function testEvent(endpointId: string, clock: Clock): SentEvent {
  return {
    id: `evt_${randomBytes(16).toString('base64url')}`,
    seq: 0,
    type: 'webhook.test',
    createdAt: clock.now().toISOString(),
    data: { endpointId },
  };
}
