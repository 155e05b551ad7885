/**
 * Open Finance once its checkout exists: the screen that says the payer is on the way to their bank, and the way
 * there. In the lazy chunk (views/screens.ts): Open Finance always asks for the payer's CPF first, on the chunk's form,
 * so the chunk is there before its checkout is made.
 */
import type { TemplateResult } from 'lit';
import type { Checkout } from '../api.js';
import type { SessionHost } from '../session-state.js';
import type { ViewContext } from './common.js';
import type { Kit } from './kit.js';

export function openFinanceScreens(k: Kit) {
  const { html, nothing, heading, renderSummary, renderSpinnerLine, webUrl, emit, checkoutDetail } = k;

  function renderOpenFinancePending(ctx: ViewContext, checkout: Checkout, remainingMs: number | undefined): TemplateResult {
    const { t } = ctx;
    const url = webUrl(checkout.checkoutUrl);
    return html`<section class="pending openfinance" data-method="openfinance" aria-labelledby="screen-title">
      ${heading(t.openFinanceTitle)} ${renderSummary(ctx, checkout, remainingMs)}
      <p class="hint">${t.openFinanceRedirecting}</p>
      ${url ? html`<a part="button" class="button" href=${url}>${t.openFinanceGoToBank}</a>` : nothing}
      ${renderSpinnerLine(t.awaitingPayment)}
    </section>`;
  }

  /** Goes to the bank page, unless the page cancels `pix-checkout-redirect` to navigate itself. */
  function redirect(host: SessionHost, checkout: Checkout): void {
    const url = webUrl(checkout.checkoutUrl);
    if (url && emit(host, 'pix-checkout-redirect', { ...checkoutDetail(checkout), url }, { cancelable: true })) {
      window.location.assign(url);
    }
  }

  return { renderOpenFinancePending, redirect };
}
