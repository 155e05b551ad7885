/**
 * The checkout page's inline script (demo/checkout-page.ts writes it into the page, built by scripts/build-demo.mjs as
 * a classic script): it starts the page's first requests while the parser is still in the page's head.
 */
import { earlyCheckout } from './checkout-early';

earlyCheckout();
