/** The screens before a checkout exists: method chooser, payer form, a refused CPF, another method live, a failed start. */
import { html, nothing, type TemplateResult } from 'lit';
import { PAYER_CPF, type Method } from '../../core/methods.js';
import type { Checkout } from '../api.js';
import type { CpfProblem } from '../cpf-input.js';
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

export interface PayerFormView {
  method: Method;
  cpf: string;
  name: string;
  problem?: CpfProblem | undefined;
  canGoBack: boolean;
  onCpfInput: (event: InputEvent) => void;
  onNameInput: (event: InputEvent) => void;
  /** May be async: Lit ignores the promise, and the handler deals with its own failures. */
  onSubmit: (event: SubmitEvent) => void | Promise<void>;
  onBack: () => void;
}

export function renderPayerForm(t: Strings, view: PayerFormView): TemplateResult {
  const ui = METHOD_UI[view.method];
  const cpfRequired = PAYER_CPF[view.method] === 'required';
  return html`<form part="form" class="form" novalidate aria-labelledby="screen-title" @submit=${view.onSubmit}>
    ${heading(t[ui.payerTitle])}
    <p class="hint">${t[ui.payerIntro]}</p>
    <div class="field">
      <label part="label" for="cpf">${cpfRequired ? t.cpfLabel : t.cpfOptionalLabel}</label>
      <input part="input" id="cpf" name="cpf" inputmode="numeric" autocomplete="off" maxlength="14"
        ?required=${cpfRequired} aria-invalid=${view.problem ? 'true' : 'false'}
        aria-describedby=${view.problem ? 'cpf-error' : nothing} .value=${view.cpf} @input=${view.onCpfInput} />
      ${view.problem ? html`<p part="field-error" class="field-error" id="cpf-error" role="alert">${t[view.problem]}</p>` : nothing}
    </div>
    <div class="field">
      <label part="label" for="name">${t.nameLabel}</label>
      <input part="input" id="name" name="name" autocomplete="name" .value=${view.name} @input=${view.onNameInput} />
    </div>
    <div class="actions">
      ${
        view.canGoBack
          ? html`<button type="button" part="button secondary-button" class="secondary" @click=${view.onBack}>${t.back}</button>`
          : nothing
      }
      <button type="submit" part="button">${t[ui.submit]}</button>
    </div>
  </form>`;
}

export interface RefusedView {
  method: Method;
  message: string;
  onUseAnotherCpf: () => void;
  onPayWithPix: () => void;
}

/** The BFF refused the payer's CPF: another CPF, or PIX (anonymous when the refused one was an identified PIX). */
export function renderRefused(ctx: ViewContext, view: RefusedView): TemplateResult {
  const { t } = ctx;
  const pixLabel = view.method === 'pix' ? t.payWithPixNoCpf : t.payWithPix;
  return html`<section part="result" class="result failure" data-state="refused" aria-labelledby="screen-title">
    <span class="icon" aria-hidden="true">${alertIcon()}</span>
    ${heading(t.refusedTitle)}
    <p part="message" class="message">${view.message}</p>
    <div class="actions stacked">
      <button type="button" part="button" @click=${view.onUseAnotherCpf}>${t.useAnotherCpf}</button>
      ${
        ctx.offered.includes('pix')
          ? html`<button type="button" part="button secondary-button" class="secondary" @click=${view.onPayWithPix}>
              ${pixLabel}</button>`
          : nothing
      }
    </div>
  </section>`;
}

/** The shopper chose one method while another tab or device has a checkout of another one live: say so, offer it. */
export function renderConflict(ctx: ViewContext, live: Checkout, onContinue: () => void): TemplateResult {
  const { t } = ctx;
  const ui = METHOD_UI[live.method];
  return html`<section part="result" class="result notice" data-state="conflict" aria-labelledby="screen-title">
    <span class="icon" aria-hidden="true">${METHOD_MARK[live.method]()}</span>
    ${heading(t.conflictTitle)}
    <p part="message" class="message">${t[ui.conflict]}</p>
    <p class="hint">${t.conflictWait}</p>
    <div class="actions stacked"><button type="button" part="button" @click=${onContinue}>${t[ui.continueWith]}</button></div>
  </section>`;
}

export interface StartFailedView {
  message: string;
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
    <p part="message" class="message">${view.message}</p>
    <div class="actions stacked">${backAction}${retry}</div>
    <div class="fallback"><slot></slot></div>
  </section>`;
}
