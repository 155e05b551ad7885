/**
 * The demo: a small storefront API (products, server-priced orders), the sandbox panel's API (drive outcomes,
 * read the BFF's webhook log) and the static pages. Mounted at `/demo`; pages are also served at `/`.
 */
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import { ApiError, errorBody, sendError } from '../server/checkout/errors';
import { parseJson } from '../server/checkout/validate';
import type { OrderResolver } from '../server/checkout/orders';
import type { Clock } from '../server/lib/clock';
import { formatCents } from '../server/lib/money';
import type { ProviderClient } from '../server/provider';
import type { Store } from '../server/store/types';
import { PRODUCTS } from './catalog';

const orderBody = z.object({
  items: z
    .array(z.object({ sku: z.string().max(64), quantity: z.int().min(1).max(20) }))
    .min(1)
    .max(20),
});

const OUTCOMES = {
  pix: ['complete', 'error', 'cancel', 'reverse'],
  openfinance: ['complete', 'error'],
} as const;

/** Orders of the demo shop resolve from the store: the amount was computed when the order was placed. */
export function demoOrders(store: Store): OrderResolver {
  return {
    async resolve(orderId) {
      const order = await store.getOrder(orderId);
      return order && { amountCents: order.amountCents, description: order.description };
    },
  };
}

export function demoApi({ store, provider, clock }: { store: Store; provider: ProviderClient; clock: Clock }) {
  return new Hono()
    // Mounted outside the BFF, so its error handler does not apply here: without this an unknown order is a 500.
    .onError((error, c) => {
      if (error instanceof ApiError) return sendError(c, error);
      throw error;
    })
    .get('/products', (c) =>
      c.json({ items: PRODUCTS.map(({ priceCents, ...p }) => ({ ...p, price: formatCents(BigInt(priceCents)) })) }),
    )
    .post('/orders', async (c) => {
      const { items } = await parseJson(c, orderBody);
      let amountCents = 0;
      const lines = items.map(({ sku, quantity }) => {
        const product = PRODUCTS.find((p) => p.sku === sku);
        if (!product) throw new ApiError(400, 'unknown_product', `Unknown product ${sku}.`);
        amountCents += product.priceCents * quantity;
        return { sku, name: product.name, quantity, unitPrice: formatCents(BigInt(product.priceCents)) };
      });
      const orderId = `A-${randomBytes(5).toString('hex').toUpperCase()}`;
      const description = lines.map((l) => `${l.quantity}× ${l.name}`).join(', ').slice(0, 140);
      await store.putOrder({ orderId, amountCents, description, items: lines, createdAt: clock.now().toISOString() });
      return c.json({ orderId, amount: formatCents(BigInt(amountCents)), description, items: lines }, 201);
    })
    .get('/orders/:orderId', async (c) => {
      const order = await store.getOrder(c.req.param('orderId'));
      if (!order) throw new ApiError(404, 'order_not_found', 'Order not found.');
      const checkouts = await store.findCheckoutsByOrder(order.orderId);
      return c.json({
        orderId: order.orderId,
        amount: formatCents(BigInt(order.amountCents)),
        description: order.description,
        items: order.items,
        checkouts: checkouts.map((k) => ({ id: k.id, state: k.state, method: k.method, transactionId: k.transactionId })),
      });
    })
    .get('/webhooks', async (c) => {
      const after = Number(c.req.query('after') ?? 0);
      const entries = await store.listWebhookLog(Number.isSafeInteger(after) && after > 0 ? after : 0, 100);
      return c.json({ items: entries });
    })
    .post('/sandbox/:method/:operation/:transactionId', async (c) => {
      const { method, operation, transactionId } = c.req.param();
      const allowed: readonly string[] = OUTCOMES[method as keyof typeof OUTCOMES] ?? [];
      if (!allowed.includes(operation)) throw new ApiError(404, 'not_found', 'Unknown sandbox operation.');
      const sandbox = method === 'pix' ? provider.sandbox.pix : provider.sandbox.openFinance;
      const run = sandbox[operation as keyof typeof sandbox] as (id: string) => Promise<unknown>;
      try {
        return c.json({ statusCode: 'Done', data: await run(transactionId) });
      } catch (error) {
        const status = (error as { status?: number }).status;
        const message = error instanceof Error ? error.message : 'Sandbox operation failed.';
        return c.json(errorBody('SandboxError', 'sandbox_refused', message), status === 404 ? 404 : 409);
      }
    });
}
