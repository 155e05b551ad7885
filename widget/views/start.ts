/**
 * The screens before a checkout exists that the entry draws: the method chooser and a failed start (which must show
 * even when nothing more can be fetched). The payer form, a refused CPF and another method live are in the lazy chunk
 * (payer-form.ts).
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { Method } from '../../core/methods.js';
import { fill, type Strings } from '../i18n.js';
import { METHOD_UI } from '../methods.js';
import type { WayBack } from '../preflight.js';
import { heading, type ViewContext } from './common.js';
import { METHOD_MARK, alertIcon, pixSymbol } from './icons.js';

/** One button per offered method, in the order given, each with its mark; the payee's name when the page gave it. */
export function renderChooser(ctx: ViewContext, onChoose: (method: Method) => void): TemplateResult {
  const { t } = ctx;
  const option = (method: Method) =>
    html`<button type="button" part="method-button" class="method" data-method=${method} @click=${() => onChoose(method)}>
      <span class="method-mark">${method === 'pix' ? pixSymbol(t.methodPix) : METHOD_MARK[method]()}</span>
      <span class="method-text"><span class="method-name" aria-hidden=${method === 'pix' ? 'true' : nothing}>${t[METHOD_UI[method].name]}</span>
        <span class="method-hint">${t[METHOD_UI[method].hint]}</span></span>
    </button>`;
  return html`<fieldset part="chooser" class="chooser">
    <legend class="legend">${heading(t.chooseMethod)}</legend>
    ${ctx.merchantName ? html`<p part="merchant" class="merchant">${fill(t.payingTo, { merchant: ctx.merchantName })}</p>` : nothing}
    ${ctx.offered.map(option)}
  </fieldset>`;
}

export interface StartFailedView {
  /** Undefined while the words of the code are on their way (the lazy chunk). */
  message: string | undefined;
  /** No retry can fix it (a bad token, an unknown order, a page not allowed): the way back to the shop comes first. */
  deadEnd: boolean;
  /** Where "Voltar para a loja" leads: `continue-url`, else the previous page; undefined when there is neither. */
  back: WayBack | undefined;
  onRetry: () => void;
}

/**
 * The checkout could not start. A failure a retry may fix offers the retry; one no retry can fix offers the way back
 * to the shop instead (and the retry only when the tab has no way back). The page's own fallback (the
 * element's children, which showed before the element was defined) shows again below: for example a link to the
 * shop's payment page.
 */
export function renderStartFailed(t: Strings, view: StartFailedView): TemplateResult {
  const { back, deadEnd } = view;
  const backAction =
    !deadEnd || !back
      ? nothing
      : 'href' in back
        ? html`<a part="button back-button" class="button" href=${back.href}>${t.backToShop}</a>`
        : html`<button type="button" part="button back-button" @click=${back.onBack}>${t.backToShop}</button>`;
  const retry = deadEnd && back ? nothing : html`<button type="button" part="button" @click=${view.onRetry}>${t.retry}</button>`;
  return html`<section part="result" class="result failure" data-state="start-failed" aria-labelledby="screen-title">
    <span class="icon" aria-hidden="true">${alertIcon()}</span>
    ${heading(t.startFailedTitle)}
    ${view.message === undefined ? nothing : html`<p part="message" class="message">${view.message}</p>`}
    <div class="actions stacked">${backAction}${retry}</div>
    <div class="fallback"><slot></slot></div>
  </section>`;
}
