/**
 * Payment links from the console, `POST /payment-links` `{ orderId, days? }` (operators and owners: it sends nothing
 * and moves nothing, but it hands out a way to pay). The order must exist at the order source, so a mistyped id is a
 * 404 `order_not_found` here rather than a dead page for the shopper. Answers `{ orderId, url, expiresAt }`; the audit
 * trail keeps who made a link for which order and for how long, never the link itself (its token lets anyone pay).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { Clock } from '../../lib/clock';
import { parseJson } from '../../http/json-body';
import { orderNotFound, ordersUnavailable } from '../../payments/errors';
import type { OrderResolver } from '../../payments/orders';
import { DEFAULT_LINK_DAYS, MAX_LINK_DAYS, paymentLink } from '../../pay-link';
import { ORDER_ID } from '../../pay-page';
import type { BackOfficeEnv } from '../actor';
import type { PaymentLink, PaymentLinkInput } from '../../../core/backoffice';
import { taking } from '../wire-check';

export interface PaymentLinkWiring {
  orders: OrderResolver;
  /** The order tokens' key, as the BFF's. */
  orderTokenSecret: string;
  /** Where shoppers reach the BFF (the public base URL). */
  publicBaseUrl: string;
}

const body = taking<PaymentLinkInput>()(
  z
    .object({
      orderId: z.string().regex(ORDER_ID, 'letters, digits and . _ : - only, at most 64'),
      days: z.number().int().min(1).max(MAX_LINK_DAYS).default(DEFAULT_LINK_DAYS),
    })
    .strict(),
);

export function paymentLinkRoutes({ links, clock }: { links: PaymentLinkWiring | undefined; clock: Clock }) {
  return new Hono<BackOfficeEnv>().post('/payment-links', async (c) => {
    const { orderId, days } = await parseJson(c, body);
    const audit = c.get('audit');
    if (!links) throw ordersUnavailable('this server has no order source');
    const order = await links.orders.resolve(orderId);
    if (!order) {
      await audit({ action: 'payment_link.create', target: orderId, outcome: 'refused', details: { code: 'order_not_found' } });
      throw orderNotFound(orderId);
    }
    const link = paymentLink({ base: links.publicBaseUrl, key: links.orderTokenSecret, orderId, days, now: clock.now() });
    await audit({ action: 'payment_link.create', target: orderId, outcome: 'ok', details: { days, expiresAt: link.expiresAt } });
    return c.json(link satisfies PaymentLink, 201);
  });
}
