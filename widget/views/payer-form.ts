/**
 * The screens before a checkout exists that the first QR does not need: the payer form (an identified Pix, Open
 * Finance), a refused CPF, and another method live in another tab. In the lazy chunk (views/screens.ts), drawn with the
 * entry's Lit and helpers.
 */
import type { TemplateResult } from 'lit';
import type { Method } from '../../core/methods.js';
import type { Checkout } from '../api.js';
import { maskCpfInput, type CpfProblem } from '../cpf-input.js';
import { METHOD_FORM_UI } from '../method-forms.js';
import type { Strings } from '../i18n.js';
import type { ViewContext } from './common.js';
import type { Kit } from './kit.js';

export interface PayerFormView {
  method: Method;
  cpf: string;
  name: string;
  problem?: CpfProblem | undefined;
  canGoBack: boolean;
  /** The CPF as typed, masked ("123.456.789-09"). */
  onCpfInput: (cpf: string) => void;
  onNameInput: (event: InputEvent) => void;
  /** May be async: Lit ignores the promise, and the handler deals with its own failures. */
  onSubmit: (event: SubmitEvent) => void | Promise<void>;
  onBack: () => void;
}

export interface RefusedView {
  method: Method;
  message: string;
  onUseAnotherCpf: () => void;
  onPayWithPix: () => void;
}

/** The screens, drawn with the entry's Lit and helpers (`k`). */
export function startScreens(k: Kit) {
  const { html, nothing, heading, PAYER_CPF, METHOD_UI, METHOD_MARK, alertIcon } = k;

  function renderPayerForm(t: Strings, view: PayerFormView): TemplateResult {
    const ui = { ...METHOD_UI[view.method], ...METHOD_FORM_UI[view.method] };
    const cpfRequired = PAYER_CPF[view.method] === 'required';
    return html`<form part="form" class="form" novalidate aria-labelledby="screen-title" @submit=${view.onSubmit}>
      ${heading(t[ui.payerTitle])}
      <p class="hint">${t[ui.payerIntro]}</p>
      <div class="field">
        <label part="label" for="cpf">${cpfRequired ? t.cpfLabel : t.cpfOptionalLabel}</label>
        <input part="input" id="cpf" name="cpf" inputmode="numeric" autocomplete="off" maxlength="14"
          ?required=${cpfRequired} aria-invalid=${view.problem ? 'true' : 'false'}
          aria-describedby=${view.problem ? 'cpf-error' : nothing} .value=${view.cpf} @input=${(event: InputEvent) => view.onCpfInput(maskCpfInput(event.target as HTMLInputElement))} />
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

  /** The BFF refused the payer's CPF: another CPF, or PIX (anonymous when the refused one was an identified PIX). */
  function renderRefused(ctx: ViewContext, view: RefusedView): TemplateResult {
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
  function renderConflict(ctx: ViewContext, live: Checkout, onContinue: () => void): TemplateResult {
    const { t } = ctx;
    const ui = METHOD_FORM_UI[live.method];
    return html`<section part="result" class="result notice" data-state="conflict" aria-labelledby="screen-title">
      <span class="icon" aria-hidden="true">${METHOD_MARK[live.method]()}</span>
      ${heading(t.conflictTitle)}
      <p part="message" class="message">${t[ui.conflict]}</p>
      <p class="hint">${t.conflictWait}</p>
      <div class="actions stacked"><button type="button" part="button" @click=${onContinue}>${t[ui.continueWith]}</button></div>
    </section>`;
  }

  return { renderPayerForm, renderRefused, renderConflict };
}
