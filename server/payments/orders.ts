/**
 * The merchant's side of pricing: the BFF asks it for the amount of an order and never trusts a browser's.
 * In a library, pass any `OrderResolver`; the standalone BFF uses `httpOrders`, which asks the merchant's backend.
 */
import { z } from 'zod';
import { ordersTimeout, ordersUnavailable } from './errors';

export interface PricedOrder {
  /** Integer cents, for example 1050 for R$ 10,50. */
  amountCents: number;
  description: string;
  /** The shop's name, when the order source gives one: the payment link's page (server/pay-page.ts) shows it. */
  shopName?: string;
}

export interface OrderResolver {
  /** The order's amount and description, or undefined when the order does not exist (or may not be paid). */
  resolve(orderId: string): Promise<PricedOrder | undefined>;
}

/**
 * The order contract's answer: `{ "amountCents": 7980, "description": "Pedido 1001" }`, optionally with the shop's name
 * (`"shopName": "Armazém Cerrado"`, shown by the payment link's page); other fields are ignored, and so is a shop name
 * that is not a short text.
 */
export const PricedOrderSchema = z.object({
  amountCents: z.int().positive().max(Number.MAX_SAFE_INTEGER),
  description: z.string().trim().min(1).max(140),
  shopName: z.string().trim().min(1).max(80).optional().catch(undefined),
});

export interface HttpOrdersOptions {
  /** Base address: the BFF asks `GET <url>/<orderId>`. */
  url: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token: string;
  /** How long to wait for the merchant's backend. Default 5 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/**
 * Orders from the merchant's backend over HTTP. 404 (or 410) means no such payable order; a 5xx, a refusal or an
 * answer off the contract is a 502 `orders_unavailable`, and no answer in time a 504 `orders_timeout`, so the
 * shopper reads "try again" and nothing is created.
 */
export function httpOrders({ url, token, timeoutMs = 5_000, fetch: fetchImpl = fetch }: HttpOrdersOptions): OrderResolver {
  const base = url.replace(/\/+$/, '');
  return {
    async resolve(orderId) {
      let response: Response;
      try {
        response = await fetchImpl(`${base}/${encodeURIComponent(orderId)}`, {
          headers: { accept: 'application/json', authorization: `Bearer ${token}` },
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        if (error instanceof Error && error.name === 'TimeoutError') {
          throw ordersTimeout();
        }
        throw ordersUnavailable(`order source unreachable: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (response.status === 404 || response.status === 410) {
        await response.body?.cancel();
        return undefined;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw ordersUnavailable(`order source answered HTTP ${response.status}`);
      }
      const body: unknown = await response.json().catch(() => undefined);
      const parsed = PricedOrderSchema.safeParse(body);
      if (!parsed.success)
        throw ordersUnavailable(`order source answer off the contract: ${parsed.error.issues[0]?.message ?? 'not JSON'}`);
      return parsed.data;
    },
  };
}
