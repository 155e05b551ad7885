/**
 * One signed POST of an event to one endpoint, and what came of it: the worker's deliveries (./delivery) and the back
 * office's test events both go through here, over a transport of their own (./webhook-post.ts: kept-alive
 * connections, the answer's body dropped, a stored endpoint's addresses checked). A 2xx within the timeout is a
 * delivery; a redirect is not followed (and is not one).
 *
 * What is recorded of a failure, and answered to the back office, is one of a few words (`FAILURE_REASONS`), never
 * the socket's error: "refused", "reset" or "hang up" would tell whoever reads the attempts which ports answer on a
 * host. The cause itself goes to the server's log only.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../lib/clock';
import type { WebhookAttempt } from '../store/deliveries';
import { AddressNotAllowed } from './endpoint-address';
import { signedHeaders } from './signing';
import type { WebhookTransport } from './webhook-post';

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

/** Why an attempt failed, besides `HTTP <status>`: no status in time, none at all, or an address refused. */
export const FAILURE_REASONS = ['timeout', 'no answer', 'address not allowed'] as const;

/** The attempt as recorded, and the cause of its failure for the server's log (null when it was a 2xx). */
export interface SentAttempt {
  attempt: WebhookAttempt;
  cause: string | null;
}

const reasonOf = (cause: unknown): (typeof FAILURE_REASONS)[number] =>
  cause instanceof AddressNotAllowed
    ? 'address not allowed'
    : cause instanceof Error && cause.name === 'TimeoutError'
      ? 'timeout'
      : 'no answer';

/** Sends `event` to `endpoint`; `checked`: a stored endpoint, whose addresses the transport checks. */
export async function sendEvent(
  transport: WebhookTransport,
  endpoint: WebhookEndpoint & { checked: boolean },
  event: SentEvent,
  clock: Clock,
  timeoutMs = SEND_TIMEOUT_MS,
): Promise<SentAttempt> {
  const body = JSON.stringify(event);
  const started = clock.now();
  const headers = signedHeaders(endpoint.secrets, event.id, Math.floor(started.getTime() / 1000), body);
  let status: number | null = null;
  let error: string | null = null;
  let cause: string | null = null;
  const t0 = performance.now();
  try {
    status = await transport.post({
      url: endpoint.url,
      headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'pix-checkout-webhooks/1' },
      body,
      timeoutMs,
      checked: endpoint.checked,
    });
    if (status < 200 || status > 299) cause = error = `HTTP ${status}`;
  } catch (failure) {
    error = reasonOf(failure);
    cause = failure instanceof Error ? failure.message : String(failure);
  }
  return { attempt: { at: started.toISOString(), status, durationMs: Math.round(performance.now() - t0), error }, cause };
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
