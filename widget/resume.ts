/** Which checkout a page resumes for its order: what this tab remembers, or what the BFF knows of the order. */
import { CheckoutApiError, type Checkout, type CheckoutClient } from './api.js';
import { isLive } from '../core/states.js';
import { missingOrderToken } from './preflight.js';
import { forgetCheckout, rememberedCheckout } from './storage.js';

export interface ResumeOptions {
  client: CheckoutClient;
  endpoint: string;
  orderId: string;
  /** Empty when the page has none: the order lookup is then skipped. */
  orderToken: string;
  /**
   * False when the element will create at once (one method, no payer form): with nothing remembered, the lookup is
   * skipped, since `POST /checkouts` answers the order's live or paid checkout itself (a round trip and a CORS
   * preflight fewer before the QR).
   */
  lookUp?: boolean;
  /** The order lookup the page already sent for this order and token (`orderLookup`), used in place of a new one. */
  sent?: Promise<Response> | undefined;
}

/**
 * The checkout to resume, or undefined to offer the methods. The one this tab remembers comes first when it is live
 * or paid: a live one is the order's only live one, and a paid one (an expired code paid late, say) must stay on its
 * receipt. Otherwise the order's live or completed checkout as the BFF knows it (`GET /orders/:orderId/checkout`:
 * another tab or device may have made it), else the remembered one (to show how it ended). A page without a token,
 * or whose token the BFF refuses, still finds what this tab made; with nothing remembered, the refusal is thrown,
 * and a missing token is thrown without asking: the methods are never offered to a page that cannot pay.
 */
export async function findCheckout(options: ResumeOptions): Promise<Checkout | undefined> {
  const { client, endpoint, orderId, orderToken, lookUp = true, sent } = options;
  const remembered = await rememberedByTab(client, endpoint, orderId);
  if (remembered && (isLive(remembered.state) || remembered.state === 'Completed')) return remembered;
  if (!orderToken && !remembered) throw missingOrderToken();
  if (!remembered && !lookUp) return undefined;
  if (orderToken) {
    try {
      return (await (sent ? client.fromLookup(sent) : client.forOrder(orderId, orderToken))) ?? remembered;
    } catch (error) {
      if (!(error instanceof CheckoutApiError) || ![401, 403].includes(error.status) || !remembered) throw error;
    }
  }
  return remembered;
}

/** The checkout this tab remembers for the order, as the BFF has it now; undefined (and forgotten) when the BFF does not know it. */
async function rememberedByTab(client: CheckoutClient, endpoint: string, orderId: string): Promise<Checkout | undefined> {
  const id = rememberedCheckout(endpoint, orderId);
  if (!id) return undefined;
  try {
    return await client.get(id);
  } catch (error) {
    if (!(error instanceof CheckoutApiError && error.status === 404)) throw error;
    forgetCheckout(endpoint, orderId);
    return undefined;
  }
}
