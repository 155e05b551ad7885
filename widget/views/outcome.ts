/**
 * How a checkout ended (or paused): the receipt, Error, Cancelled, Reversed and Expired, each with its picture and way
 * on. In the lazy chunk (views/screens.ts): none of these draws the first QR, so the entry hands them Lit and its helpers.
 */
import type { TemplateResult } from 'lit';
import type { Method } from '../../core/methods.js';
import type { Checkout } from '../api.js';
import type { Strings } from '../i18n.js';
import type { FinalCheckoutState } from '../../core/states.js';
import type { ViewContext } from './common.js';
import type { Kit } from './kit.js';
import { METHOD_FORM_UI } from '../method-forms.js';
import { outcomeIcons } from './outcome-icons.js';
import { saveReceiptButton } from './receipt.js';

export interface OutcomeView {
  /** The `continue-url` attribute, when it is an http(s) address. */
  continueUrl: string | undefined;
  /** The continue link was clicked; the handler fires `pix-checkout-continue` and may cancel the navigation. */
  onContinue: (event: MouseEvent) => void;
  /** A new checkout of the same method. */
  onRenew: () => void;
  /** Back to the method chooser (offered when the page offers more than one method). */
  onChooseOther: () => void;
}

type FailedState = Exclude<FinalCheckoutState, 'Completed'>;

const FAILURE: Record<FailedState, [title: keyof Strings, text: keyof Strings, action: keyof Strings]> = {
  // The text of Error is the method's own: what was refused, and where (ERROR_TEXT below).
  Error: ['errorTitle', 'errorTextPix', 'tryAgain'],
  Cancelled: ['cancelledTitle', 'cancelledText', 'payAgain'],
  Reversed: ['reversedTitle', 'reversedText', 'payAgain'],
};

/** An address of the payer's bank is linked; anything else (an authentication code) is shown as text. */
const voucherLink = (voucher: string) => (/^https:\/\//i.test(voucher) ? voucher : undefined);

/** A checkout in Error was refused where the payer pays: by the bank for a Pix, at the payer's own bank for Open Finance. */
const ERROR_TEXT: Record<Method, keyof Strings> = { pix: 'errorTextPix', openfinance: 'errorTextOpenFinance' };

/** The outcome screens, drawn with the entry's Lit and helpers (`k`). */
export function outcomeScreens(k: Kit) {
  const { html, nothing, heading, money, fill, dateFormat } = k;
  const { OUTCOME_ICON, clockIcon } = outcomeIcons(k);

  function renderActions(ctx: ViewContext, primary: string, view: OutcomeView): TemplateResult {
    return html`<div class="actions stacked">
      <button type="button" part="button" @click=${view.onRenew}>${primary}</button>
      ${
        ctx.offered.length > 1
          ? html`<button type="button" part="button secondary-button" class="secondary" @click=${view.onChooseOther}>
              ${ctx.t.chooseOther}</button>`
          : nothing
      }
    </div>`;
  }

  /** The receipt: amount, when (by paidAt), order, transaction, the payer's bank and its voucher when known, then the way on. */
  function renderReceipt(ctx: ViewContext, checkout: Checkout, view: OutcomeView): TemplateResult {
    const { t, locale, merchantName } = ctx;
    const paidAt = new Date(checkout.paidAt ?? checkout.updatedAt);
    const when = Number.isNaN(paidAt.getTime()) ? '' : dateFormat(locale, 'dateTime').format(paidAt);
    const voucher = checkout.receiptVoucher;
    const row = (label: string, value: unknown) => html`<div class="receipt-row"><dt>${label}</dt><dd>${value}</dd></div>`;
    const voucherValue =
      voucher && voucherLink(voucher) ? html`<a href=${voucher} target="_blank" rel="noopener">${t.receiptVoucherLink}</a>` : voucher;
    const continueLink = view.continueUrl
      ? html`<a part="button continue-button" class="button" href=${view.continueUrl} @click=${view.onContinue}>${t.continue}</a>`
      : nothing;
    return html`<section part="result" class="result success" data-state="Completed" aria-labelledby="screen-title">
      <span class="icon" aria-hidden="true">${OUTCOME_ICON.Completed()}</span>
      ${heading(t.completedTitle)}
      <p part="message" class="message">${merchantName ? fill(t.completedTextMerchant, { merchant: merchantName }) : t.completedText}</p>
      <dl part="receipt" class="receipt">
        ${row(t.receiptAmount, money(checkout, locale))} ${when ? row(t.receiptDate, when) : nothing} ${row(t.receiptOrder, checkout.orderId)}
        ${checkout.transactionId ? row(t.receiptTransaction, html`<span class="mono">${checkout.transactionId}</span>`) : nothing}
        ${checkout.payerBank ? row(t.receiptPayerBank, checkout.payerBank) : nothing} ${voucher ? row(t.receiptVoucher, voucherValue) : nothing}
      </dl>
      <div class="actions stacked"><slot name="continue">${continueLink}</slot>${saveReceiptButton(k, t)}</div>
    </section>`;
  }

  function renderFailure(ctx: ViewContext, state: FailedState, view: OutcomeView, method: Method): TemplateResult {
    const [title, stateText, action] = FAILURE[state];
    const text = state === 'Error' ? ERROR_TEXT[method] : stateText;
    return html`<section part="result" class="result failure" data-state=${state} aria-labelledby="screen-title">
      <span class="icon" aria-hidden="true">${OUTCOME_ICON[state]()}</span>
      ${heading(ctx.t[title])}
      <p part="message" class="message">${ctx.t[text]}</p>
      ${renderActions(ctx, ctx.t[action], view)}
    </section>`;
  }

  /** The window closed. The checkout is still followed: a late payment replaces this screen with the receipt. */
  function renderExpired(ctx: ViewContext, checkout: Checkout, view: OutcomeView): TemplateResult {
    const { t } = ctx;
    return html`<section part="result" class="result expired" data-state="Expired" aria-labelledby="screen-title">
      <span class="icon" aria-hidden="true">${clockIcon()}</span>
      ${heading(t.expiredTitle)}
      <p part="message" class="message">${t.expiredText}</p>
      ${renderActions(ctx, t[METHOD_FORM_UI[checkout.method].renew], view)}
      <p class="hint">${t.expiredLate}</p>
    </section>`;
  }

  return { renderReceipt, renderFailure, renderExpired };
}
