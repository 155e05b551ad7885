/** The screens of `<pix-checkout>` as pure render functions: data and callbacks in, template out. */
import { nothing, type TemplateResult } from 'lit';
import type { Method } from '../../core/methods.js';
import type { Checkout } from '../api.js';
import { errorMessage } from '../i18n.js';
import { isDeadEnd, wayBack } from '../preflight.js';
import type { Screen } from '../session-state.js';
import { EXPIRED, isFinal, type CheckoutState } from '../../core/states.js';
import { renderLoading, renderSpinnerLine, type ViewContext } from './common.js';
import { renderExpired, renderFailure, renderReceipt, type OutcomeView } from './outcome.js';
import { renderPending, type PixUi } from './pending.js';
import { renderChooser, renderConflict, renderPayerForm, renderRefused, renderStartFailed, type PayerFormView } from './start.js';

export type { ViewContext } from './common.js';
export type { CopyResult, PixUi } from './pending.js';
export type { OutcomeView } from './outcome.js';
export type { PayerFormView } from './start.js';
export { renderChooser, renderPayerForm } from './start.js';
export { renderPending } from './pending.js';
export { renderExpired, renderFailure, renderReceipt } from './outcome.js';

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
}

/** A name for what is on screen: when it changes, focus moves to the new heading. */
export function screenKey(view: { screen: Screen; checkout?: Checkout | undefined; state?: CheckoutState | undefined }): string {
  const { screen, checkout, state } = view;
  if (screen.name !== 'checkout' || !checkout) return screen.name;
  return `${checkout.id}:${state === 'Created' || state === 'Registered' ? 'pending' : state}`;
}

export function renderScreen(view: ScreenView): TemplateResult | typeof nothing {
  const { ctx, screen, checkout, state } = view;
  switch (screen.name) {
    case 'choose':
      return renderChooser(ctx, view.onChoose);
    case 'payer':
      return renderPayerForm(ctx.t, { ...view.payer, method: screen.method });
    case 'loading':
      return screen.confirming ? renderSpinnerLine(ctx.t.confirming) : renderLoading(ctx.t);
    case 'refused':
      return renderRefused(ctx, {
        method: screen.method,
        message: errorMessage(ctx.t, { status: 422, code: screen.code }),
        onUseAnotherCpf: view.onUseAnotherCpf,
        onPayWithPix: view.onPayWithPix,
      });
    case 'conflict':
      return checkout ? renderConflict(ctx, checkout, view.onContinueLive) : nothing;
    case 'start-failed':
      return renderStartFailed(ctx.t, {
        message: errorMessage(ctx.t, screen.error),
        deadEnd: isDeadEnd(screen.error),
        back: wayBack(view.outcome.continueUrl ?? ''),
        onRetry: view.onRetry,
      });
    case 'checkout':
      if (!checkout || !state) return nothing;
      if (state === EXPIRED) return renderExpired(ctx, checkout, view.outcome);
      if (state === 'Completed') return renderReceipt(ctx, checkout, view.outcome);
      if (isFinal(state)) return renderFailure(ctx, state, view.outcome, checkout.method);
      return renderPending(ctx, checkout, view.remainingMs, view.pix);
    default:
      return nothing;
  }
}
