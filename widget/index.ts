/** Package entry (`pix-checkout/widget`): defines `<pix-checkout>` and exports its class and event types. */
export { PixCheckout } from './pix-checkout.js';
export type {
  PixCheckoutCompletedEvent,
  PixCheckoutContinueDetail,
  PixCheckoutContinueEvent,
  PixCheckoutCreatedEvent,
  PixCheckoutDetail,
  PixCheckoutErrorDetail,
  PixCheckoutErrorEvent,
  PixCheckoutEventMap,
  PixCheckoutFailedEvent,
  PixCheckoutRedirectDetail,
  PixCheckoutRedirectEvent,
  PixCheckoutStatusEvent,
} from './events.js';
export type { Checkout, CheckoutMethod, CheckoutState } from './api.js';
