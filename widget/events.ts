/** The DOM events of `<pix-checkout>`: their details, the one helper that fires them, and their typing. */
import type { Checkout, CheckoutState } from './api.js';

/** Detail of every checkout event: enough to update the page or call the merchant's own backend. */
export interface PixCheckoutDetail {
  checkoutId: string;
  orderId: string;
  state: CheckoutState;
  /** Decimal string, for example "10.50". */
  amount: string;
}

export function checkoutDetail(checkout: Checkout): PixCheckoutDetail {
  return { checkoutId: checkout.id, orderId: checkout.orderId, state: checkout.state, amount: checkout.amount };
}

/** Detail of `pix-checkout-error`: the checkout could not be started or resumed. */
export interface PixCheckoutErrorDetail {
  orderId: string;
  /** HTTP status; 0 when the request never got an answer. */
  status: number;
  /**
   * The BFF's stable `error.code` (for example `order_not_found`, `payer_refused`, `origin_not_allowed` when this
   * page's origin is not in the BFF's `ALLOWED_ORIGINS`), or the element's own when no usable answer came: `offline`,
   * `network_error`, `invalid_response`, `invalid_configuration`.
   */
  code: string;
  /** The server's message, for logs; the shopper sees the element's own words. */
  message: string;
}

/** Detail of `pix-checkout-redirect`, fired (cancelable) just before the browser goes to the bank page. */
export interface PixCheckoutRedirectDetail extends PixCheckoutDetail {
  url: string;
}

/** Detail of `pix-checkout-continue`, fired (cancelable) when the payer follows the receipt's continue link. */
export interface PixCheckoutContinueDetail extends PixCheckoutDetail {
  url: string;
}

export type PixCheckoutCreatedEvent = CustomEvent<PixCheckoutDetail>;
export type PixCheckoutStatusEvent = CustomEvent<PixCheckoutDetail>;
export type PixCheckoutCompletedEvent = CustomEvent<PixCheckoutDetail>;
export type PixCheckoutFailedEvent = CustomEvent<PixCheckoutDetail>;
export type PixCheckoutErrorEvent = CustomEvent<PixCheckoutErrorDetail>;
export type PixCheckoutRedirectEvent = CustomEvent<PixCheckoutRedirectDetail>;
export type PixCheckoutContinueEvent = CustomEvent<PixCheckoutContinueDetail>;

export interface PixCheckoutEventMap {
  'pix-checkout-created': PixCheckoutCreatedEvent;
  'pix-checkout-status': PixCheckoutStatusEvent;
  'pix-checkout-completed': PixCheckoutCompletedEvent;
  'pix-checkout-failed': PixCheckoutFailedEvent;
  'pix-checkout-error': PixCheckoutErrorEvent;
  'pix-checkout-redirect': PixCheckoutRedirectEvent;
  'pix-checkout-continue': PixCheckoutContinueEvent;
}

type DetailOf<K extends keyof PixCheckoutEventMap> = PixCheckoutEventMap[K]['detail'];

/**
 * Fires a bubbling, composed event from `target`. Returns false when a listener called `preventDefault()` on a
 * cancelable one. A listener that throws is reported by the browser and does not break the element.
 */
export function emit<K extends keyof PixCheckoutEventMap>(
  target: EventTarget,
  name: K,
  detail: DetailOf<K>,
  options: { cancelable?: boolean } = {},
): boolean {
  return target.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable: options.cancelable ?? false }));
}

declare global {
  // Typed once here so `el.addEventListener('pix-checkout-completed', (e) => e.detail.checkoutId)` type-checks.
  interface GlobalEventHandlersEventMap extends PixCheckoutEventMap {}
}
