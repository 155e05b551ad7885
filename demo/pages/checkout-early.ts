/**
 * What the checkout page starts before any of its files has come: the order token taken from the address (and wiped
 * from it), the element's order lookup, and the read of the order's summary. The page runs this from a small script
 * of its own, written into the page (demo/pages/checkout-inline.ts, built as a classic script and allowed by its hash:
 * demo/checkout-page.ts), so both requests travel while the stylesheets and the scripts download: the element finds
 * its answer there when it first renders, a round trip earlier than if the page's module sent them. The page's module
 * (checkout.ts) takes what was started; without the inline script (the page served by some other server) its own call
 * starts it, as before.
 */
import { sendOrderLookup } from '../../widget/api';
import { jsonRequest, takeOrderToken } from './common';

export interface EarlyCheckout {
  /** The order named in the address (`?order=`); null when it names none. */
  orderId: string | null;
  /** The order's token, from the fragment or as this tab kept it. */
  orderToken: string | undefined;
  /** `POST /api/orders/:orderId/checkout`, for the element (its `orderLookup`); only with a token. */
  lookup: Promise<Response> | undefined;
  /** `GET /demo/api/orders/:orderId`: the summary the page shows. */
  order: Promise<Response> | undefined;
}

/** Where the inline script leaves what it started for the page's module: one name on the window, the shop's own. */
const KEY = 'armazemCerradoCheckout';

function start(): EarlyCheckout {
  const orderId = new URLSearchParams(location.search).get('order');
  // Taken first, so the token leaves the address before anything else runs or is requested.
  const orderToken = orderId ? takeOrderToken(orderId) : undefined;
  if (!orderId) return { orderId, orderToken, lookup: undefined, order: undefined };
  const lookup = orderToken ? sendOrderLookup('/api', orderId, orderToken) : undefined;
  // Handled by the element and the page; this only keeps a failure from being reported twice if neither ever runs.
  lookup?.catch(() => undefined);
  const order = fetch(`/demo/api/orders/${encodeURIComponent(orderId)}`, jsonRequest());
  order.catch(() => undefined);
  return { orderId, orderToken, lookup, order };
}

/** What the page started for its order: the first call starts it, every later one gets the same. */
export function earlyCheckout(): EarlyCheckout {
  const slot = window as unknown as Record<typeof KEY, EarlyCheckout | undefined>;
  return (slot[KEY] ??= start());
}
