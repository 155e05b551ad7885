/**
 * The checkout page's inline script, written by the server at the top of the page's head, on a page with an order
 * (demo/checkout-page.ts; built by scripts/build-demo.mjs as a classic script). It runs as soon as the parser meets
 * it, before anything else of the page: it takes the order token from the address fragment (and wipes it from the
 * address) and sends the element's order lookup, so the answer travels beside the element's script and is there when
 * the element first renders. The element itself is further down the page: once the page is parsed, and before any
 * module script runs (the document turns "interactive" first: HTML's "the end" steps), it gets the token and the
 * lookup. The page's own module (checkout.ts: the sandbox panel and the delivery log, tools for developers) is loaded
 * only after the element has drawn its first checkout, or once the page has been idle a while: nothing of it comes
 * between the shopper and the first QR.
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

/** Hands the page's element what this script started; the title tells the outcome. */
function setUp(element: PixCheckout, orderToken: string | undefined, lookup: Promise<Response> | undefined): void {
  // The receipt's way back to the shop.
  element.setAttribute('continue-url', new URL('./', location.href).href);
  // Without it the element can still resume a checkout this tab made, but not start one: it says so itself.
  if (orderToken) element.setAttribute('order-token', orderToken);
  if (lookup) element.orderLookup = lookup;
  // The shop reacts like a merchant would: the title tells the outcome, so it shows in the tab strip too.
  element.addEventListener('pix-checkout-completed', () => (document.title = 'Pagamento confirmado · Armazém Cerrado'));
  loadPageModuleAfter(element);
}

const orderId = new URLSearchParams(location.search).get('order');
if (orderId) {
  // Taken first, so the token leaves the address before anything else runs or is requested.
  const orderToken = takeOrderToken(orderId);
  const lookup = orderToken ? sendOrderLookup('/api', orderId, orderToken) : undefined;
  // Handled by the element; this only keeps a failure from being reported twice if the element never runs.
  lookup?.catch(() => undefined);
  document.addEventListener(
    'readystatechange',
    () => {
      const element = document.querySelector<PixCheckout>('#payment-slot pix-checkout');
      if (element?.getAttribute('order-id') === orderId) setUp(element, orderToken, lookup);
    },
    { once: true },
  );
}
