/** The screens of `<pix-checkout>` as pure render functions: data and callbacks in, template out. */
import { adoptStyles, html, nothing, type LitElement, type TemplateResult } from 'lit';
import type { Method } from '../../core/methods.js';
import type { Checkout } from '../api.js';
import { loadChunk } from '../chunks.js';
import { errorMessage, stateTitle } from '../i18n.js';
import { METHOD_UI } from '../methods.js';
import { isDeadEnd, wayBack } from '../preflight.js';
import type { Screen } from '../session-state.js';
import { EXPIRED, isFinal, type CheckoutState } from '../../core/states.js';
import { heading, renderLoading, renderSpinnerLine, type ViewContext } from './common.js';
import { kit } from './kit.js';
import type { OutcomeView } from './outcome.js';
import { renderPending, type PixUi } from './pending.js';
import { renderChooser, renderStartFailed } from './start.js';
import type { PayerFormView } from './start-later.js';

export type { ViewContext } from './common.js';
export type { CopyResult, PixUi } from './pending.js';
export type { OutcomeView } from './outcome.js';
export type { PayerFormView } from './start-later.js';
export { renderChooser } from './start.js';
export { renderPending } from './pending.js';
export { kit } from './kit.js';

type LaterScreens = ReturnType<typeof import('./later.js').default>;

/**
 * The lazy chunk of screens (views/later.ts): asked for once the first screen after "loading" shows (the QR, the
 * chooser, the payer form), so the first QR's request goes first and the chunk is there long before a payment ends.
 * Until it comes, or if it cannot be had, a screen of the chunk shows its heading (the same words and focus target
 * as the real one: "Pagamento confirmado") and a spinner, or, once the chunk failed, a line that says so and a retry.
 */
let later: LaterScreens | undefined;
let laterLoad: Promise<void> | undefined;
let laterFailed = false;
/** Elements showing a stand-in for a screen of the chunk: each is drawn again when it comes or fails, whoever asked. */
const waiting = new Set<LitElement>();

function redrawWaiting(): void {
  for (const host of waiting) host.requestUpdate();
  waiting.clear();
}

/** Loads the chunk once (again after a failure); resolves when it is there or has failed. */
export function loadLaterScreens(): Promise<void> {
  laterLoad ??= loadChunk('later', () => import('./later.js')).then(
    (module) => {
      later = module.default(kit);
      laterFailed = false;
      redrawWaiting();
    },
    (error: unknown) => {
      console.error(error);
      laterFailed = true;
      // Asked again on the next retry: the network may be back.
      laterLoad = undefined;
      redrawWaiting();
    },
  );
  return laterLoad;
}

/** True once the chunk was asked for (or is there). */
export const laterAsked = (): boolean => Boolean(later || laterLoad || laterFailed);

export interface ScreenView {
  ctx: ViewContext;
  screen: Screen;
  checkout: Checkout | undefined;
  /** The checkout's state as shown (Expired once the clock ran out). */
  state: CheckoutState | undefined;
  /** Ms left in the payment window, when the checkout has one and waits for the payer. */
  remainingMs: number | undefined;
  pix: PixUi;
  payer: Omit<PayerFormView, 'method'>;
  outcome: OutcomeView;
  onChoose: (method: Method) => void;
  onRetry: () => void;
  onUseAnotherCpf: () => void;
  onPayWithPix: () => void;
  onContinueLive: () => void;
  /** The element: drawn again once the lazy chunk of screens came (or failed), and given the chunk's styles. */
  host: LitElement;
}

const styled = new WeakSet<LitElement>();

/**
 * The chunk's styles after the element's own, once per element (its shadow root keeps them): the same place the
 * print styles had in the element's static styles, so they still have the last word.
 */
function adoptLaterStyles(host: LitElement): void {
  if (!later || styled.has(host)) return;
  styled.add(host);
  const own = (host.constructor as typeof LitElement).elementStyles;
  adoptStyles(host.renderRoot as ShadowRoot, [...own, later.styles]);
}

/** A screen of the lazy chunk before it came: its heading, then a spinner, or once it failed, a retry of the chunk. */
function renderWaiting(view: ScreenView, title: string, final: boolean): TemplateResult {
  const { t } = view.ctx;
  waiting.add(view.host);
  const retry = () => void loadLaterScreens();
  // A settled payment says what happened by its heading alone; nothing more to wait for.
  const rest = !laterFailed
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
  if (screen.name !== 'loading' && !laterAsked()) void loadLaterScreens();
  adoptLaterStyles(view.host);
  switch (screen.name) {
    case 'choose':
      return renderChooser(ctx, view.onChoose);
    case 'payer':
      return later
        ? later.renderPayerForm(t, { ...view.payer, method: screen.method })
        : renderWaiting(view, t[METHOD_UI[screen.method].payerTitle], false);
    case 'loading':
      return screen.confirming ? renderSpinnerLine(t.confirming) : renderLoading(t);
    case 'refused':
      if (!later) return renderWaiting(view, t.refusedTitle, false);
      return later.renderRefused(ctx, {
        method: screen.method,
        message: errorMessage(t, { status: 422, code: screen.code }),
        onUseAnotherCpf: view.onUseAnotherCpf,
        onPayWithPix: view.onPayWithPix,
      });
    case 'conflict':
      if (!checkout) return nothing;
      return later ? later.renderConflict(ctx, checkout, view.onContinueLive) : renderWaiting(view, t.conflictTitle, false);
    case 'start-failed':
      return renderStartFailed(t, {
        message: errorMessage(t, screen.error),
        deadEnd: isDeadEnd(screen.error),
        back: wayBack(view.outcome.continueUrl ?? ''),
        onRetry: view.onRetry,
      });
    case 'checkout':
      if (!checkout || !state) return nothing;
      if (!isFinal(state) && state !== EXPIRED) return renderPending(ctx, checkout, view.remainingMs, view.pix);
      if (!later) return renderWaiting(view, stateTitle(t, state), true);
      if (state === EXPIRED) return later.renderExpired(ctx, checkout, view.outcome);
      if (state === 'Completed') return later.renderReceipt(ctx, checkout, view.outcome);
      return later.renderFailure(ctx, state, view.outcome, checkout.method);
    default:
      return nothing;
  }
}
