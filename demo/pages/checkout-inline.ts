/**
 * The checkout page's inline script, written by the server right after the page's <pix-checkout> (demo/checkout-page.ts;
 * built by scripts/build-demo.mjs as a classic script), so it runs while the page is parsed, before the element's
 * script has come. It takes the order token from the address fragment (and wipes it from the address), hands it to
 * the element, and sends the element's order lookup at once: the answer is there when the element first renders, a
 * round trip earlier than if the element asked. The page's own module (checkout.ts: the sandbox panel and the
 * delivery log, tools for developers) is loaded only after the element has drawn its first checkout, or once the
 * page has been idle a while: nothing of it comes between the shopper and the first QR.
 */
import { sendOrderLookup } from '../../widget/api';
import type { PixCheckout } from '../../widget/index';
import { takeOrderToken } from './common';

/** The page's module: the sandbox panel and the delivery log. */
const PAGE_MODULE = '/assets/checkout.js';
/** How long after the page's load the module comes anyway, when the element has said nothing (a shopper who waits). */
const IDLE_MS = 1_000;
/** What the element says once it has drawn something of a checkout, or could not. */
const FIRST_WORDS = ['pix-checkout-created', 'pix-checkout-status', 'pix-checkout-error'] as const;

/** Adds the page's module once: after the element's next frame, so the shopper's screen is drawn first. */
function loadPageModuleAfter(element: HTMLElement): void {
  let loaded = false;
  const load = () => {
    if (loaded) return;
    loaded = true;
    const script = document.createElement('script');
    script.type = 'module';
    script.src = PAGE_MODULE;
    document.head.append(script);
  };
  const soon = () => requestAnimationFrame(() => setTimeout(load));
  for (const name of FIRST_WORDS) element.addEventListener(name, soon, { once: true });
  addEventListener('load', () => setTimeout(load, IDLE_MS), { once: true });
}

const element = document.querySelector<PixCheckout>('#payment-slot pix-checkout');
const orderId = element?.getAttribute('order-id');
if (element && orderId) {
  // Taken first, so the token leaves the address before anything else runs or is requested.
  const orderToken = takeOrderToken(orderId);
  // The receipt's way back to the shop.
  element.setAttribute('continue-url', new URL('./', location.href).href);
  // Without it the element can still resume a checkout this tab made, but not start one: it says so itself.
  if (orderToken) {
    element.setAttribute('order-token', orderToken);
    const lookup = sendOrderLookup('/api', orderId, orderToken);
    // Handled by the element; this only keeps a failure from being reported twice if the element never runs.
    lookup.catch(() => undefined);
    element.orderLookup = lookup;
  }
  // The shop reacts like a merchant would: the title tells the outcome, so it shows in the tab strip too.
  element.addEventListener('pix-checkout-completed', () => (document.title = 'Pagamento confirmado · Armazém Cerrado'));
  loadPageModuleAfter(element);
}
