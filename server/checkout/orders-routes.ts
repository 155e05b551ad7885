/**
 * The order's checkout for any tab of the shopper: `GET /orders/:orderId/checkout` with the order token in the
 * `X-Order-Token` header answers the checkout in the order's one-per-order place (live or completed, never a
 * duplicate), so a second tab or a reload resumes it without creating anything. When the order has none (never
 * started, or its last one Expired, failed or was cancelled) it is `204 No Content`: the element then offers the
 * methods. (An empty answer, not a 404: "nothing to resume yet" is the usual case on a fresh page, and browsers log
 * every 4xx as a failed load in the merchant's console.)
 */
import { Hono } from 'hono';
import { CREATING, RESERVING_STATES } from '../../core/states';
import type { Clock } from '../lib/clock';
import type { Store } from '../store/types';
import { requireOrderToken } from './checkouts';
import type { CheckoutService } from './service';
import { toView } from './view';

/** The header that carries the order token on a GET (a GET has no body, and a query string ends up in logs). */
export const ORDER_TOKEN_HEADER = 'X-Order-Token';

export interface OrderRoutesOptions {
  service: CheckoutService;
  store: Store;
  /** The key order tokens are signed with (`ORDERS_TOKEN`), as for `POST /checkouts`. */
  orderTokenSecret: string;
  clock: Clock;
}

export function orderRoutes(options: OrderRoutesOptions) {
  const { service, store } = options;
  return new Hono().get('/:orderId/checkout', async (c) => {
    const orderId = c.req.param('orderId');
    // Checked before anything is read: without the order's token, nobody learns whether it has a checkout.
    requireOrderToken(options, orderId, c.req.header(ORDER_TOKEN_HEADER));
    const holder = (await store.findCheckoutsByOrder(orderId)).find(
      (checkout) => !checkout.duplicateOf && (RESERVING_STATES as readonly string[]).includes(checkout.state),
    );
    // A reservation still waiting for the provider reads as none, as it reads as not found everywhere.
    if (!holder || holder.state === CREATING) return c.body(null, 204);
    const current = await service.expireIfDue(holder, 'read');
    if (!(RESERVING_STATES as readonly string[]).includes(current.state)) return c.body(null, 204);
    return c.json(toView(current));
  });
}
