/**
 * The pull feed of the merchant's events, `GET /webhook-events?after=&type=&limit=`: oldest first from a cursor, for
 * a backend that was down, or that reconciles from the feed instead of (or besides) receiving webhooks. Each event is
 * the one a webhook carries (server/store/merchant-events.ts), with where its delivery stands at each endpoint;
 * `nextCursor` is the `after` of the next page. `GET /webhook-events/:id/attempts` is its log (every attempt, to
 * every endpoint), and `POST /webhook-events/:id/redeliver?endpoint=` sends it again: a new pending delivery, due now,
 * with the same `webhook-id`. Events are never deleted (nor their attempts), so all of this reaches back at least 30
 * days; a pruning, if one comes, must keep that.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { Clock } from '../../lib/clock';
import { FAILURE_REASONS } from '../../merchant-webhooks/send';
import type { MerchantEventStore } from '../../store/checkout-store';
import type { DeliveryLogStore, EndpointStore, EventAttempt, EventDelivery } from '../../store/endpoints';
import type { MerchantEvent } from '../../store/merchant-events';
import { webhookEndpointDisabled, webhookEventNotFound } from '../../payments/errors';
import { parseQuery } from '../../http/json-body';
import { MERCHANT_EVENT_TYPES, type MerchantEventPage } from '../../../core/backoffice';
import { storedEndpoint, type WebhookWiring } from './webhook-endpoints';

const feedQuery = z.object({
  /** The `seq` of the last event already read; none: from the first. */
  after: z
    .string()
    .regex(/^\d{1,15}$/, 'A cursor from nextCursor')
    .optional(),
  /** Comma-separated event types. */
  type: z
    .string()
    .max(500)
    .transform((list) => list.split(',').filter(Boolean))
    .pipe(z.array(z.enum(MERCHANT_EVENT_TYPES)))
    .optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
const redeliverQuery = z.object({ endpoint: z.string().max(100).optional() });
const EVENT_ID = /^evt_[A-Za-z0-9_-]{1,100}$/;

/** A delivery as the back office shows it (its event is the item it is listed under). */
const deliveryView = ({ eventSeq: _seq, ...delivery }: EventDelivery) => delivery;

const REASONS: readonly string[] = FAILURE_REASONS;
/** An attempt as the back office shows it: its failure an HTTP status or one of the reasons, whatever the row held. */
const attemptView = (attempt: EventAttempt) =>
  attempt.error === null || /^HTTP \d{3}$/.test(attempt.error) || REASONS.includes(attempt.error)
    ? attempt
    : { ...attempt, error: 'no answer' };

/** The merchant's feed, where each event's deliveries stand, and the endpoints they go to. */
export type WebhookEventStore = MerchantEventStore & DeliveryLogStore & EndpointStore;

export function webhookEventRoutes({ store, clock, webhooks }: { store: WebhookEventStore; clock: Clock; webhooks: WebhookWiring }) {
  const eventOr404 = async (id: string): Promise<MerchantEvent> => {
    const event = EVENT_ID.test(id) ? await store.getMerchantEvent(id) : undefined;
    if (!event) throw webhookEventNotFound();
    return event;
  };

  /** Where a redelivery goes: the endpoint named (enabled), else every enabled endpoint whose filter takes the event. */
  async function redeliveryTargets(event: MerchantEvent, named: string | undefined): Promise<string[]> {
    const environment = webhooks.environment.map((endpoint) => endpoint.id);
    if (named !== undefined) {
      if (environment.includes(named)) return [named];
      const endpoint = await storedEndpoint(store, webhooks, named);
      if (endpoint.disabled) throw webhookEndpointDisabled();
      return [endpoint.id];
    }
    const stored = (await store.listWebhookEndpoints()).filter(
      (endpoint) => !endpoint.disabled && (endpoint.types.length === 0 || endpoint.types.includes(event.type)),
    );
    return [...environment, ...stored.map((endpoint) => endpoint.id)];
  }

  return new Hono()
    .get('/webhook-events', async (c) => {
      const { after, type, limit } = parseQuery(c, feedQuery);
      const events = await store.merchantEventsAfter(Number(after ?? 0), limit, type);
      const deliveries = new Map<number, ReturnType<typeof deliveryView>[]>();
      for (const delivery of await store.deliveriesOfEvents(events.map((event) => event.seq))) {
        const list = deliveries.get(delivery.eventSeq);
        if (list) list.push(deliveryView(delivery));
        else deliveries.set(delivery.eventSeq, [deliveryView(delivery)]);
      }
      const items = events.map((event) => ({ ...event, deliveries: deliveries.get(event.seq) ?? [] }));
      return c.json({ items, nextCursor: items.length ? String(items.at(-1)!.seq) : (after ?? null) } satisfies MerchantEventPage);
    })
    .get('/webhook-events/:id/attempts', async (c) => {
      const event = await eventOr404(c.req.param('id'));
      return c.json({ items: ((await store.attemptsOfEvent(event.id)) ?? []).map(attemptView) });
    })
    .post('/webhook-events/:id/redeliver', async (c) => {
      const { endpoint } = parseQuery(c, redeliverQuery);
      const event = await eventOr404(c.req.param('id'));
      const targets = await redeliveryTargets(event, endpoint);
      const deliveries = (await store.redeliverMerchantEvent(event.id, targets, clock.now().toISOString())) ?? [];
      webhooks.refresh();
      return c.json({ deliveries: deliveries.map(deliveryView) }, 202);
    });
}
