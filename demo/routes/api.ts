/**
 * The demo's API under `/demo/api`: the shop (products, server-priced orders), the order contract the BFF prices
 * with (the same one a merchant's backend answers at ORDERS_URL), and the sandbox panel's API (drive outcomes at the
 * emulator, read the webhook log). The sandbox portal's proxy to the emulator's admin routes is `sandbox-admin.ts`.
 * Mounted only when the embedded emulator is the provider.
 */
import { randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { isMethod, type Method } from '../../core/methods';
import { formatCents } from '../../core/money';
import { EXPIRED } from '../../core/states';
import { ApiError, invalidRequest } from '../../server/payments/errors';
import { errorBody } from '../../server/http/error-envelope';
import { signOrderToken } from '../../server/bff/order-token';
import type { OrderResolver } from '../../server/payments/orders';
import { parseJson } from '../../server/http/json-body';
import type { Clock } from '../../server/lib/clock';
import { safeEqual } from '../../server/lib/secrets';
import type { ProviderClient } from '../../server/provider';
import { SANDBOX_PAYER } from '../../server/sandbox';
import type { CheckoutReadStore } from '../../server/store/checkout-store';
import { PRODUCTS } from '../catalog';
import type { DemoStore } from '../store';

const orderBody = z.object({
  items: z
    .array(z.object({ sku: z.string().max(64), quantity: z.int().min(1).max(20) }))
    .min(1)
    .max(20),
});

/** How long the shopper's page may start the order's payment: the checkout token the shop hands it lasts this long. */
const ORDER_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

/** What the sandbox panel may make happen to a payment of each method. */
const OUTCOMES: Record<Method, readonly string[]> = {
  pix: ['complete', 'error', 'cancel', 'reverse'],
  openfinance: ['complete', 'error'],
};

/**
 * The order id of the address, or a 400 for one no order has (the demo's are `A-` and hex digits; the BFF's rule is
 * letters, digits and `. _ : -`): U+0000 or another control character never reaches a query.
 */
function orderIdParam(c: Context): string {
  const orderId = c.req.param('orderId') ?? '';
  if (!/^[\w.:-]{1,64}$/.test(orderId)) throw invalidRequest('Not an order id.');
  return orderId;
}

/** The demo shop's pricing for the BFF: the amount was computed on the server when the order was placed. */
/**
 * What the panel hears of an emulator operation that failed. A 424 is no refusal: the emulator made the change and
 * only its webhook was not delivered (it retries it, docs/spec-gaps.md), so it is a 202 with the state reached.
 */
function sandboxRefusal(c: Context, error: unknown): Response {
  const { status, details } = error as { status?: number; details?: unknown };
  if (status === 424) {
    const reached = (details as { transactionState?: unknown } | undefined)?.transactionState;
    return c.json(
      { statusCode: 'Done', data: { transactionState: typeof reached === 'string' ? reached : undefined, webhookDelivered: false } },
      202,
    );
  }
  const message = error instanceof Error ? error.message : 'Sandbox operation failed.';
  return c.json(errorBody('SandboxError', 'sandbox_refused', message), status === 404 ? 404 : 409);
}

export function demoOrders(demo: DemoStore): OrderResolver {
  return {
    async resolve(orderId) {
      const order = demo.getOrder(orderId);
      // The shop's name rides along, as a merchant's order source may send it: the payment link's page shows it.
      return order && { amountCents: order.amountCents, description: order.description, shopName: 'Armazém Cerrado' };
    },
  };
}

export interface DemoApiOptions {
  store: CheckoutReadStore;
  demo: DemoStore;
  orders: OrderResolver;
  /** Bearer token of the order contract route, and the key of the order tokens the shop gives the checkout page. */
  ordersToken: string;
  provider: ProviderClient;
  clock: Clock;
}

export function demoApi({ store, demo, orders, ordersToken, provider, clock }: DemoApiOptions) {
  /**
   * The payer pays a PIX code at the emulator. The contract wants the payer named when the code was anonymous: the
   * checkout's own payer when the shopper gave one, else the sandbox's.
   */
  const payPix = async (transactionId: string) => {
    const checkout = await store.findCheckoutByTransaction(transactionId);
    return provider.sandbox.pix.complete(transactionId, {
      name: checkout?.payerName ?? SANDBOX_PAYER.name,
      taxNumber: checkout?.payerCpf ?? SANDBOX_PAYER.taxNumber,
    });
  };
  return (
    new Hono()
      .get('/products', (c) => c.json({ items: PRODUCTS.map(({ priceCents, ...p }) => ({ ...p, price: formatCents(priceCents) })) }))
      .post('/orders', async (c) => {
        const { items } = await parseJson(c, orderBody);
        const unknown = items.find(({ sku }) => !PRODUCTS.some((p) => p.sku === sku));
        // The demo shop's own refusal, outside the BFF's contract.
        if (unknown) return c.json(errorBody('ApiError', 'unknown_product', `Unknown product ${unknown.sku}.`), 400);
        let amountCents = 0;
        const lines = items.map(({ sku, quantity }) => {
          const product = PRODUCTS.find((p) => p.sku === sku)!;
          amountCents += product.priceCents * quantity;
          return { sku, name: product.name, quantity, unitPrice: formatCents(product.priceCents) };
        });
        const orderId = `A-${randomBytes(5).toString('hex').toUpperCase()}`;
        const description = lines
          .map((l) => `${l.quantity}× ${l.name}`)
          .join(', ')
          .slice(0, 140);
        const now = clock.now();
        demo.putOrder({ orderId, amountCents, description, items: lines, createdAt: now.toISOString() });
        // Only the shopper who placed the order gets its token (never GET /orders/:id, which anyone may call): with it,
        // and only with it, the BFF starts or steers the order's payment.
        const orderToken = signOrderToken(ordersToken, orderId, new Date(now.getTime() + ORDER_TOKEN_TTL_MS));
        return c.json({ orderId, orderToken, amount: formatCents(amountCents), description, items: lines }, 201);
      })
      .get('/orders/:orderId', async (c) => {
        const order = demo.getOrder(c.req.param('orderId'));
        if (!order) throw new ApiError('order_not_found', 'Order not found.');
        const checkouts = await store.findCheckoutsByOrder(order.orderId);
        return c.json({
          orderId: order.orderId,
          amount: formatCents(order.amountCents),
          description: order.description,
          items: order.items,
          // What the shop knows from the product's signed webhooks alone (demo/routes/merchant-webhooks.ts).
          status: demo.orderStatus(order.orderId),
          checkouts: checkouts.map((k) => ({ id: k.id, state: k.state, method: k.method, transactionId: k.transactionId })),
        });
      })
      // The order contract (`GET <ORDERS_URL>/<orderId>`), so a standalone BFF can price the demo's orders too.
      .get('/priced-orders/:orderId', async (c) => {
        const header = c.req.header('authorization') ?? '';
        if (!safeEqual(header.startsWith('Bearer ') ? header.slice(7) : undefined, ordersToken)) {
          return c.json(errorBody('AuthenticationError', 'orders_unauthorized', 'A valid order-source token is required.'), 401);
        }
        const order = await orders.resolve(c.req.param('orderId'));
        if (!order) throw new ApiError('order_not_found', 'Order not found.');
        return c.json(order);
      })
      .get('/webhooks', (c) => {
        const after = Number(c.req.query('after') ?? 0);
        return c.json({ items: demo.listWebhookLog(Number.isSafeInteger(after) && after > 0 ? after : 0, 100) });
      })
      .post('/sandbox/:method/:operation/:transactionId', async (c) => {
        const { method, operation, transactionId } = c.req.param();
        if (!isMethod(method) || !OUTCOMES[method].includes(operation)) {
          throw new ApiError('not_found', 'Unknown sandbox operation.');
        }
        const operations: Record<Method, Record<string, (id: string) => Promise<unknown>>> = {
          pix: { ...provider.sandbox.pix, complete: payPix },
          openfinance: provider.sandbox.openFinance,
        };
        const run = operations[method][operation]!;
        try {
          return c.json({ statusCode: 'Done', data: await run(transactionId) });
        } catch (error) {
          return sandboxRefusal(c, error);
        }
      })
      // A late payment: the order's most recent expired code is paid after all, as by a shopper who scanned it in time
      // and paid after the window. The BFF hears it through the webhook like any payment, completes that checkout
      // (late), and keeps it as the duplicate of the order's new checkout when there is one.
      .post('/orders/:orderId/pay-expired', async (c) => {
        const expired = (await store.findCheckoutsByOrder(orderIdParam(c))).filter((k) => k.state === EXPIRED && k.transactionId).at(-1);
        if (!expired?.transactionId) throw new ApiError('checkout_not_found', 'This order has no expired code to pay.');
        const complete = expired.method === 'pix' ? payPix : (id: string) => provider.sandbox.openFinance.complete(id);
        try {
          const data = await complete(expired.transactionId);
          return c.json({ statusCode: 'Done', data: { ...data, checkoutId: expired.id } });
        } catch (error) {
          return sandboxRefusal(c, error);
        }
      })
  );
}
