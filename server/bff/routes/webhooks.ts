/**
 * The provider's webhooks as the app's `POST /webhooks/provider` route (mounted under `/api`): the receiver
 * (../webhook-receiver.ts) as it is. Its plain case is answered before the app, by server/node/webhook-route.ts.
 */
import { Hono } from 'hono';
import type { WebhookReceive } from '../webhook-receiver';

export function webhookRoutes(receive: WebhookReceive) {
  return new Hono().post('/provider', async (c) => {
    const answer = await receive({ header: (name) => c.req.header(name), text: () => c.req.text() });
    return c.json(answer.body, answer.status);
  });
}
