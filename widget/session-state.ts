/**
 * What the checkout flow of one `<pix-checkout>` holds (`SessionState`, with the `Screen` on show) and what it reads
 * from its element (`SessionHost`). The flow itself is `CheckoutSession` in ./session.ts; the views render this state.
 */
import type { ReactiveControllerHost } from 'lit';
import type { Method } from '../core/methods.js';
import type { CheckoutApiError, Checkout } from './api.js';
import type { CpfProblem } from './cpf-input.js';
import type { Strings } from './i18n.js';

export type RefusalCode = 'payer_cpf_invalid' | 'payer_refused';

/** Which screen the element shows; the `checkout` screens depend on the checkout's method and state. */
export type Screen =
  | { name: 'idle' }
  /** `confirming`: the BFF said the payment is still being prepared; the element asks again by itself. */
  | { name: 'loading'; confirming?: boolean }
  | { name: 'choose'; methods: readonly Method[] }
  | { name: 'payer'; method: Method }
  | { name: 'refused'; method: Method; code: RefusalCode }
  | { name: 'conflict'; wanted: Method }
  | { name: 'checkout' }
  | { name: 'start-failed'; error: CheckoutApiError };

export interface SessionState {
  screen: Screen;
  /** The checkout on screen (or last on screen, behind the chooser). */
  checkout?: Checkout | undefined;
  /** Id of a live checkout whose window closed by the (server-corrected) clock, before the BFF said so. */
  expiredLocally?: string | undefined;
  cpf: string;
  payerName: string;
  cpfProblem?: CpfProblem | undefined;
  /** The polite live region's text. */
  announcement: string;
}

/** What the flow reads from its element. */
export interface SessionHost extends ReactiveControllerHost, HTMLElement {
  endpoint: string;
  orderId: string;
  orderToken: string;
  methods: string;
  collectPayer: boolean;
  returnUrl: string;
  /** The order lookup the page sent before the element's script arrived; the session takes it once. */
  orderLookup: Promise<Response> | undefined;
  readonly strings: Strings;
}
