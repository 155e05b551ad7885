/** Defines `<pix-checkout>`: the entry of the drop-in bundle (`<script type="module" src="/widget/pix-checkout.js">`). */
import { PixCheckout } from './pix-checkout.component.js';

export { PixCheckout };

// Guarded so loading the bundle twice (or next to the package entry) does not throw at the page.
if (!customElements.get('pix-checkout')) customElements.define('pix-checkout', PixCheckout);

declare global {
  interface HTMLElementTagNameMap {
    'pix-checkout': PixCheckout;
  }
}
