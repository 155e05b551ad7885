/**
 * What the page's developer reads in the console about a page set up wrong, beside what the shopper reads in the
 * element (its own words, widget/i18n.ts): which attribute is missing, which origin the BFF refuses and which setting
 * lets it in. The shopper never sees these lines. In the lazy chunk (views/screens.ts): the flow asks for it when a
 * page turns out to be set up wrong, so the first QR of a page set up right never loads these words.
 */
import type { CheckoutApiError } from './api.js';

const TAG = '<pix-checkout>';

/** Elements already warned about a missing token, with the order they were warned for (once per order). */
const warnedNoToken = new WeakMap<object, string>();

/**
 * Warns once per order when `order-token` is missing: the BFF refuses to start or look up the order's payment without
 * it, and only a checkout this tab remembers can be resumed.
 */
export function warnMissingToken(host: { orderId: string; orderToken: string }): void {
  if (host.orderToken || warnedNoToken.get(host) === host.orderId) return;
  warnedNoToken.set(host, host.orderId);
  console.warn(
    `${TAG}: the order-token attribute is missing for order-id "${host.orderId}". The BFF needs the token your server ` +
      'signed for this order to start or look up its payment (README, "Order token"); without it, only a checkout ' +
      'this tab already made can be resumed.',
  );
}

/** The console's explanation of a start failure that only the page's setup can fix; nothing for the others. */
export function setupProblem(error: CheckoutApiError, endpoint: string): string | undefined {
  if (error.code === 'origin_not_allowed') {
    const { origin, href } = location;
    return (
      `${TAG}: the payment service at ${new URL(endpoint, href).href} does not take payments from pages on ${origin}: add ${origin} to ` +
      "the BFF's ALLOWED_ORIGINS setting (comma-separated origins) and restart it."
    );
  }
  if (error.code === 'invalid_configuration') {
    return `${TAG}: the endpoint and order-id attributes are required (endpoint="${endpoint}").`;
  }
  return undefined;
}

/** Tells the console why the checkout could not start or go on, when the page's setup is the cause. */
export function explainError(host: { endpoint: string }, error: CheckoutApiError): void {
  const problem = setupProblem(error, host.endpoint);
  if (problem) console.error(problem);
}
