/**
 * Webhook delivery: one compact JSON POST of the current state's event to `webhook.url`, with the integrator's
 * custom header. Simulations deliver synchronously and succeed only if that works; state changes nobody waits for
 * (cash-out registration, the bank page) are delivered in the background and retried with backoff and jitter, and so
 * is a simulation's event whose own delivery failed.
 */
import type { Clock } from '../lib/clock';
import type { HttpSend } from '../lib/http-client';
import { signWebhook, WEBHOOK_SIGNATURE_HEADER } from '../provider/webhook-signature';
import { webhookEventOf, type StoredTransaction } from './model';
import type { TransactionStore } from './store';

export type DeliveryResult = { ok: true } | { ok: false; reason: string };

export interface WebhookDispatcher {
  /** One attempt with the transaction as given (not yet saved); the caller decides what to do with the result. */
  send(tx: StoredTransaction): Promise<DeliveryResult>;
  /**
   * Delivers the current state now and keeps retrying on failure; later successful deliveries cancel the retries.
   * Resolves after the first attempt.
   */
  deliverInBackground(id: string): Promise<void>;
  /** Retries, as after a failed first attempt of `deliverInBackground`, the current state whose delivery just failed. */
  retry(id: string): void;
  /** Stops retrying for a transaction whose newer state was delivered. */
  settle(id: string): void;
  close(): void;
}

export interface WebhookOptions {
  store: TransactionStore;
  clock: Clock;
  send: HttpSend;
  timeoutMs: number;
  delaysMs: readonly number[];
  /** The portal's signing key in force, if any: each delivery then carries `X-Webhook-Signature` (fresh nonce and TS). */
  signingKey?: () => string | undefined;
}

/** Jitter in the range (delay / 2) to (delay), so many failing receivers do not retry in lockstep. */
const jitter = (delay: number) => delay / 2 + Math.random() * (delay / 2);

export function createWebhookDispatcher(options: WebhookOptions): WebhookDispatcher {
  const { store, clock } = options;
  const timers = new Map<string, NodeJS.Timeout>();
  const shutdown = new AbortController();
  let closed = false;

  async function send(tx: StoredTransaction): Promise<DeliveryResult> {
    const { url, customHeaderName, customHeaderValue } = tx.record.webhook;
    if (!url) return { ok: false, reason: 'The transaction has no webhook address' };
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (customHeaderName) headers[customHeaderName] = customHeaderValue ?? '';
    const body = JSON.stringify(webhookEventOf(tx));
    const key = options.signingKey?.();
    if (key) headers[WEBHOOK_SIGNATURE_HEADER] = signWebhook(key, body, clock.now().getTime() / 1000);
    try {
      const response = await options.send({
        method: 'POST',
        url,
        headers,
        body,
        signal: AbortSignal.any([AbortSignal.timeout(options.timeoutMs), shutdown.signal]),
      });
      const ok = response.status >= 200 && response.status < 300;
      return ok ? { ok: true } : { ok: false, reason: `The webhook address answered HTTP ${response.status}` };
    } catch (error) {
      const timedOut = (error as Error | undefined)?.name === 'TimeoutError';
      return { ok: false, reason: timedOut ? 'The webhook address did not answer in time' : 'The webhook address could not be reached' };
    }
  }

  function settle(id: string) {
    clearTimeout(timers.get(id));
    timers.delete(id);
  }

  async function attempt(id: string, retry: number): Promise<void> {
    timers.delete(id);
    const tx = store.get(id);
    if (closed || !tx) return;
    const result = await send(tx);
    // A simulation may have moved the transaction while we waited; its own delivery then owns the status.
    if (closed) return;
    const now = store.get(id);
    if (!now || now.record.transaction.state !== tx.record.transaction.state) return;
    const delay = options.delaysMs[retry];
    now.record.webhook.deliveryTime = clock.now().toISOString();
    now.record.webhook.deliveryStatus = result.ok ? 'Success' : delay === undefined ? 'Failed' : 'Pending';
    store.save(now);
    if (!result.ok && delay !== undefined) schedule(id, retry + 1, jitter(delay));
  }

  function schedule(id: string, retry: number, delay: number) {
    settle(id);
    if (closed) return;
    timers.set(
      id,
      setTimeout(() => void attempt(id, retry), delay),
    );
  }

  return {
    send,
    settle,
    retry(id) {
      const delay = options.delaysMs[0];
      if (delay !== undefined) return schedule(id, 1, jitter(delay));
      const tx = store.get(id);
      if (!tx) return;
      tx.record.webhook.deliveryStatus = 'Failed';
      store.save(tx);
    },
    deliverInBackground(id) {
      settle(id);
      return attempt(id, 0);
    },
    close() {
      closed = true;
      shutdown.abort();
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}
