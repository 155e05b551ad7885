/**
 * The order's checkout for any tab of the shopper: `GET /orders/:orderId/checkout` with the order token in the
 * `X-Order-Token` header answers the checkout in the order's one-per-order place (live or completed, never a
 * duplicate), so a second tab or a reload resumes it without creating anything. When the order has none (never
 * started, or its last one Expired, failed or was cancelled) it is `204 No Content`: the element then offers the
 * methods. (An empty answer, not a 404: "nothing to resume yet" is the usual case on a fresh page, and browsers log
 * every 4xx as a failed load in the merchant's console.) Before that empty answer the order itself is looked up in the
 * merchant's order source (one read, the one a create would make): an order it does not know, or will not have paid,
 * is `404 order_not_found`, so the element says so at once instead of after the shopper chose a method or typed a CPF.
 *
 * `POST /orders/:orderId/checkout` with `{ "orderToken": "…" }` is the same lookup with the token in the body. The
 * element uses it: from a storefront on another origin it goes as `text/plain`, a CORS "simple" request, where the
 * GET's custom header would cost a preflight, whose cache is per URL, so per order.
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { CREATING, RESERVING_STATES } from '../../../core/states';
import { parseJson } from '../../http/json-body';
import type { Clock } from '../../lib/clock';
import { orderNotFound } from '../../payments/errors';
import type { OrderResolver } from '../../payments/orders';
import type { CheckoutService } from '../../payments/service';
import type { CheckoutReadStore } from '../../store/checkout-store';
import { toView } from '../view';
import { requireOrderToken } from './checkouts';

/** The header that carries the order token on a GET (a GET has no body, and a query string ends up in logs). */
export const ORDER_TOKEN_HEADER = 'X-Order-Token';

export interface OrderRoutesOptions {
  service: CheckoutService;
  store: CheckoutReadStore;
  /** The merchant's order source: an order with nothing to resume must exist (and be payable) to read as 204. */
  orders: OrderResolver;
  /** The key order tokens are signed with (`ORDERS_TOKEN`), as for `POST /checkouts`. */
  orderTokenSecret: string;
  clock: Clock;
  /** Storefront origins whose `text/plain` lookup body is read as JSON (`ALLOWED_ORIGINS`). */
  allowedOrigins: readonly string[];
}

/** Checked by `verifyOrderToken`, which refuses anything but a well-formed string with its own codes. */
const lookupBody = z.object({ orderToken: z.unknown().optional() });

export function orderRoutes(options: OrderRoutesOptions) {
  const { service, store, orders } = options;
  /** Nothing to resume: 204 for an order the shop will have paid, else `order_not_found` (the element's dead end). */
  const nothingToResume = async (c: Context, orderId: string) => {
    if (!(await orders.resolve(orderId))) throw orderNotFound(orderId);
    return c.body(null, 204);
  };
  const answer = async (c: Context, orderId: string, orderToken: unknown) => {
    // Checked before anything is read: without the order's token, nobody learns whether it has a checkout.
    requireOrderToken(options, orderId, orderToken);
    const holder = (await store.findCheckoutsByOrder(orderId)).find(
      (checkout) => !checkout.duplicateOf && (RESERVING_STATES as readonly string[]).includes(checkout.state),
    );
    // A reservation still waiting for the provider reads as none, as it reads as not found everywhere.
    if (!holder || holder.state === CREATING) return nothingToResume(c, orderId);
    const current = await service.expireIfDue(holder, 'read');
    if (!(RESERVING_STATES as readonly string[]).includes(current.state)) return nothingToResume(c, orderId);
    return c.json(toView(current));
  };
  return new Hono()
    .get('/:orderId/checkout', (c) => answer(c, c.req.param('orderId'), c.req.header(ORDER_TOKEN_HEADER)))
    .post('/:orderId/checkout', async (c) => {
      const body = await parseJson(c, lookupBody, { plainTextFrom: options.allowedOrigins });
      return answer(c, c.req.param('orderId'), body.orderToken);
    });
}
