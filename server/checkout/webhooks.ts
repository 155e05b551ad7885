/**
 * Receiver of the provider's webhooks. The custom header proves the sender; the payload is only a hint:
 * the transaction is re-read from the provider and only a forward move is applied. Anything already applied,
 * replayed or late still gets a 2xx so the provider stops retrying.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Clock } from '../lib/clock';
import { webhookEvent } from '../provider';
import type { Store } from '../store/types';
import { ApiError, errorBody } from './errors';
import type { CheckoutService, WebhookTarget } from './service';

/** Constant-time comparison; hashing first makes the compared lengths equal whatever was sent. */
export function secretMatches(given: string | undefined, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return given !== undefined && timingSafeEqual(digest(given), digest(expected));
}

export interface WebhookRoutesOptions {
  service: CheckoutService;
  store: Store;
  clock: Clock;
  webhook: WebhookTarget;
}

export function webhookRoutes({ service, store, clock, webhook }: WebhookRoutesOptions) {
  const receivedAt = () => clock.now().toISOString();
  const done = (outcome: string) => ({ statusCode: 'Done' as const, data: { outcome } });

  return new Hono().post(
    '/provider',
    // Checked before the body is read, so an unauthenticated sender can't make us parse anything.
    async (c, next) => {
      if (!secretMatches(c.req.header(webhook.headerName), webhook.secret)) {
        return c.json(errorBody('AuthenticationError', 'webhook_unauthorized', 'Missing or wrong webhook header.'), 401);
      }
      await next();
    },
    bodyLimit({
      maxSize: 64 * 1024,
      onError: (c) => c.json(errorBody('ApiError', 'payload_too_large', 'Webhook body too large.'), 413),
    }),
    async (c) => {
      let payload: unknown;
      try {
        payload = await c.req.json();
      } catch {
        throw new ApiError(400, 'invalid_json', 'The webhook body must be JSON.');
      }
      const parsed = webhookEvent.safeParse(payload);
      if (!parsed.success) {
        await store.logWebhook({ receivedAt: receivedAt(), transactionId: null, checkoutId: null, state: null, outcome: 'invalid', payload });
        throw new ApiError(400, 'invalid_webhook', 'The webhook payload does not match the expected event.');
      }
      const event = parsed.data;
      const entry = { receivedAt: receivedAt(), transactionId: event.id, state: event.transactionState, payload };
      const checkout = await store.findCheckoutByTransaction(event.id);
      if (!checkout) {
        await store.logWebhook({ ...entry, checkoutId: null, outcome: 'ignored' });
        return c.json(done('ignored'));
      }
      await store.markWebhookSeen(checkout.id, entry.receivedAt);
      // A failed re-read answers 503: the provider retries, and the reconciler catches it meanwhile.
      const result = await service.refresh(checkout, 'webhook').catch(() => {
        throw new ApiError(503, 'provider_unavailable', 'Could not confirm the transaction with the provider.');
      });
      const outcome = result.changed ? 'applied' : 'ignored';
      await store.logWebhook({ ...entry, checkoutId: checkout.id, outcome });
      return c.json(done(outcome));
    },
  );
}
