/** The screens of `<pix-checkout>` as pure render functions: data and callbacks in, template out. */
import { adoptStyles, html, nothing, type LitElement, type TemplateResult } from 'lit';
import { unreachable } from '../../core/methods.js';
import type { Checkout } from '../api.js';
import { errorMessage, stateTitle } from '../i18n.js';
import { screensAsked, screensChunk, screensFailed, loadScreens, redrawWithScreens } from '../screens-chunk.js';
import { METHOD_UI } from '../methods.js';
import { isDeadEnd, wayBack } from '../preflight.js';
import type { PixCheckout } from '../pix-checkout.component.js';
import type { CheckoutSession } from '../session.js';
import type { Screen } from '../session-state.js';
import { EXPIRED, isFinal, type CheckoutState } from '../../core/states.js';
import { heading, renderLoading, renderSpinnerLine, type ViewContext } from './common.js';
import { renderPix, type PixUi } from './pending.js';
import { renderChooser, renderStartFailed } from './start.js';

export type { ViewContext } from './common.js';
export type { CopyResult, PixUi } from './pending.js';
export type { OutcomeView } from './outcome.js';
export type { PayerFormView } from './payer-form.js';
export { renderChooser } from './start.js';
export { renderPix } from './pending.js';
export { kit } from './kit.js';

export interface ScreenView {
  ctx: ViewContext;
  screen: Screen;
  checkout: Checkout | undefined;
  /** The checkout's state as shown (Expired once the clock ran out). */
  state: CheckoutState | undefined;
  /** Ms left in the payment window, when the checkout has one and waits for the payer. */
  remainingMs: number | undefined;
  pix: PixUi;
  /** The `continue-url` attribute, when it is an http(s) address. */
  continueUrl: string | undefined;
  /** The flow: the screens of the lazy chunk drive it themselves (views/screens-view.ts). */
  session: CheckoutSession;
  /** Focus goes to `selector` rather than the heading on the next screen. */
  focusNext: (selector: string) => void;
  /** The element: drawn again once the lazy chunk of screens came (or failed), and given the chunk's styles. */
  host: PixCheckout;
}

const styled = new WeakSet<LitElement>();

/**
 * The chunk's styles after the element's own, once per element (its shadow root keeps them): the same place the
 * print styles had in the element's static styles, so they still have the last word.
 */
function adoptPayerReceiptStyles(host: LitElement): void {
  const screens = screensChunk();
  if (!screens || styled.has(host)) return;
  styled.add(host);
  const own = (host.constructor as typeof LitElement).elementStyles;
  adoptStyles(host.renderRoot as ShadowRoot, [...own, screens.styles]);
}

/**
 * A screen of the lazy chunk; before it came, its heading (`title`), then a spinner, or once it failed, a retry of the
 * chunk (none for a `final` state, which says what happened by its heading alone).
 */
function renderChunkScreen(view: ScreenView, title: string, final: boolean): TemplateResult | typeof nothing {
  const screens = screensChunk();
  if (screens) return screens.render(view) ?? nothing;
  const { t } = view.ctx;
  redrawWithScreens(view.host);
  const retry = () => void loadScreens();
  const rest = !screensFailed()
    ? renderSpinnerLine(t.loading)
    : final
      ? nothing
      : html`<p part="message" class="message">${t.errNetwork}</p>
          <div class="actions stacked"><button type="button" part="button" @click=${retry}>${t.retry}</button></div>`;
  return html`<section part="result" class="result" aria-labelledby="screen-title">${heading(title)}${rest}</section>`;
}

/** A name for what is on screen: when it changes, focus moves to the new heading. */
export function screenKey(view: { screen: Screen; checkout?: Checkout | undefined; state?: CheckoutState | undefined }): string {
  const { screen, checkout, state } = view;
  if (screen.name !== 'checkout' || !checkout) return screen.name;
  return `${checkout.id}:${state === 'Created' || state === 'Registered' ? 'pending' : state}`;
}

export function renderScreen(view: ScreenView): TemplateResult | typeof nothing {
  const { ctx, screen, checkout, state } = view;
  const { t } = ctx;
  // Asked for from here so that every way to a first screen (a new checkout, a resumed one, the chooser) asks, and
  // only once that screen is drawn: the first QR's request goes first.
  if (screen.name !== 'loading' && !screensAsked()) void loadScreens();
  adoptPayerReceiptStyles(view.host);
  switch (screen.name) {
    case 'choose':
      return renderChooser(ctx, (method) => view.session.choose(method));
    case 'payer':
      return renderChunkScreen(view, t[METHOD_UI[screen.method].payerTitle], false);
    case 'loading':
      // Only the chunk's flow sets `confirming` (session-steps.ts), so Portuguese's words for it are there.
      return screen.confirming ? renderSpinnerLine(t.confirming) : renderLoading(t);
    case 'refused':
      return renderChunkScreen(view, t.refusedTitle, false);
    case 'conflict':
      if (!checkout) return nothing;
      return renderChunkScreen(view, t.conflictTitle, false);
    case 'start-failed':
      // The words of most codes come with the lazy chunk: none until it came, the generic ones of the status class
      // if it cannot be had.
      redrawWithScreens(view.host);
      return renderStartFailed(t, {
        message: screensChunk() || screensFailed() ? errorMessage(t, screen.error) : undefined,
        deadEnd: isDeadEnd(screen.error),
        back: wayBack(view.continueUrl ?? ''),
        onRetry: () => view.session.retry(),
      });
    case 'checkout':
      if (!checkout || !state) return nothing;
      if (!isFinal(state) && state !== EXPIRED) {
        const { method } = checkout;
        switch (method) {
          case 'pix':
            return renderPix(ctx, checkout, view.remainingMs, view.pix);
          case 'openfinance':
            return renderChunkScreen(view, t.openFinanceTitle, false);
          default:
            return unreachable(method);
        }
      }
      return renderChunkScreen(view, stateTitle(t, state), true);
    default:
      return nothing;
  }
}
