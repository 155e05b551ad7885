/**
 * Check before asking, and no dead ends. Before the element offers the methods it knows whether the page can pay at
 * all: a missing order token is known without asking anyone, and the order lookup (`POST /orders/:id/checkout`, made
 * at start) answers a bad or expired token, an unknown order and a page the BFF does not allow, as well as a live
 * checkout of another method made in another tab. Those failures no retry can fix lead back to the shop instead:
 * the `continue-url` attribute when the page gave one, else the browser's history.
 */
import { CheckoutApiError, webUrl } from './api.js';

/** The codes a "Tentar novamente" cannot fix: the page, the token or the order is wrong, not the moment. */
const DEAD_ENDS: ReadonlySet<string> = new Set([
  'order_token_required',
  'order_token_invalid',
  'order_token_expired',
  'order_not_found',
  'origin_not_allowed',
  'invalid_configuration',
]);

export const isDeadEnd = (error: { code: string }): boolean => DEAD_ENDS.has(error.code);

/** A page without `order-token`: the BFF would refuse every request as `401 order_token_required`, so none is sent. */
export const missingOrderToken = (): CheckoutApiError =>
  new CheckoutApiError(401, 'order_token_required', 'The order-token attribute is missing: the BFF refuses an order without it.');

/** The way back to the shop: a link to `continue-url`, else the previous page; none when the tab has no history. */
export type WayBack = { href: string } | { onBack: () => void };

export function wayBack(continueUrl: string): WayBack | undefined {
  const href = webUrl(continueUrl.trim());
  if (href) return { href };
  if (history.length > 1) return { onBack: () => history.back() };
  return undefined;
}
