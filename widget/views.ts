/** The screens of `<pix-checkout>` as pure render functions: data and callbacks in, template out. */
import { html, nothing, type TemplateResult } from 'lit';
import { PAYER_CPF, unreachable, type Method } from '../core/methods.js';
import { formatMoney } from '../core/money.js';
import { isFinal, type CheckoutState, type FinalCheckoutState } from '../core/states.js';
import { webUrl, type Checkout, type CheckoutApiError } from './api.js';
import type { CpfProblem } from './cpf-input.js';
import { messageForCode, type Locale, type Strings } from './i18n.js';
import { METHOD_UI } from './methods.js';
import { qrSvg } from './qr.js';

export type CopyResult = 'idle' | 'copied' | 'failed';
export type { CpfProblem };

/** Which screen the element shows; the checkout screens depend on the checkout's method and state. */
export type Screen =
  | { name: 'idle' }
  | { name: 'choose'; methods: readonly Method[] }
  | { name: 'payer'; method: Method }
  | { name: 'loading' }
  | { name: 'checkout' }
  | { name: 'start-failed'; error: CheckoutApiError };

export interface ScreenView {
  screen: Screen;
  checkout: Checkout | undefined;
  locale: Locale;
  pix: Omit<PixView, 'checkout'>;
  payer: Omit<PayerFormView, 'method'>;
  onChoose: (method: Method) => void;
  onTryAgain: () => void;
  onRetry: () => void;
}

export function renderScreen(t: Strings, view: ScreenView): TemplateResult | typeof nothing {
  const { screen, checkout } = view;
  switch (screen.name) {
    case 'choose':
      return renderChooser(t, screen.methods, view.onChoose);
    case 'payer':
      return renderPayerForm(t, { ...view.payer, method: screen.method });
    case 'loading':
      return renderLoading(t);
    case 'start-failed':
      return renderStartFailed(t, startFailedMessage(t, screen.error), view.onRetry);
    case 'checkout': {
      if (!checkout) return nothing;
      const body = isFinal(checkout.state) ? renderFinal(t, checkout.state, view.onTryAgain) : renderPending(t, checkout, view.pix);
      return html`${renderAmount(t, checkout, view.locale)}${body}`;
    }
    default:
      return nothing;
  }
}

/** The screen of a checkout that waits for the payer: one case per method, checked exhaustively by the compiler. */
export function renderPending(t: Strings, checkout: Checkout, pix: Omit<PixView, 'checkout'>): TemplateResult {
  const { method } = checkout;
  switch (method) {
    case 'pix':
      return renderPix(t, { ...pix, checkout });
    case 'openfinance':
      return renderOpenFinancePending(t, checkout);
    default:
      return unreachable(method);
  }
}

/** The server's own message, except when no server answered at all or the element words the code itself (i18n). */
export function startFailedMessage(t: Strings, error: CheckoutApiError): string {
  if (error.status === 0 && error.code === 'network_error') return t.networkError;
  return messageForCode(t, error.code) ?? error.message;
}

export function renderLoading(t: Strings): TemplateResult {
  return html`<p part="status" class="status"><span part="spinner" class="spinner" aria-hidden="true"></span>
    ${t.loading}</p>`;
}

/** One button per offered method, in the order given. */
export function renderChooser(t: Strings, methods: readonly Method[], onChoose: (method: Method) => void): TemplateResult {
  const option = (method: Method) =>
    html`<button type="button" part="method-button" class="method" data-method=${method}
      @click=${() => onChoose(method)}><span class="method-name">${t[METHOD_UI[method].name]}</span>
      <span class="method-hint">${t[METHOD_UI[method].hint]}</span></button>`;
  return html`<fieldset part="chooser" class="chooser">
    <legend part="title" class="title">${t.chooseMethod}</legend>
    ${methods.map(option)}
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
  return html`<form part="form" class="form" novalidate aria-labelledby="payer-title" @submit=${view.onSubmit}>
    <h2 part="title" class="title" id="payer-title">${t[ui.payerTitle]}</h2>
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
          ? html`<button type="button" part="button secondary-button" class="secondary" @click=${view.onBack}>
            ${t.back}</button>`
          : nothing
      }
      <button type="submit" part="button">${t[ui.submit]}</button>
    </div>
  </form>`;
}

export function renderAmount(t: Strings, checkout: Checkout, locale: Locale): TemplateResult {
  return html`<div class="summary">
    <p part="amount" class="amount"><span class="visually-hidden">${t.amountLabel}: </span>
      ${formatMoney(checkout.amount, { locale, currency: checkout.currency || 'BRL' })}</p>
    ${checkout.description ? html`<p part="description" class="description">${checkout.description}</p>` : nothing}
  </div>`;
}

export interface PixView {
  checkout: Checkout;
  /** Phones and tablets: the payer cannot scan their own screen, so copy-and-paste comes first. */
  touch: boolean;
  copyResult: CopyResult;
  /** May be async, like `onSubmit`. */
  onCopy: () => void | Promise<void>;
}

export function renderPix(t: Strings, view: PixView): TemplateResult {
  const code = view.checkout.qrCode ?? '';
  const qr = code ? qrSvg(code, t.qrLabel) : undefined;
  const scan = qr ? html`<div class="scan">${qr}<p class="hint">${t.scanHint}</p></div>` : nothing;
  const copy = html`<div class="copy">
    <label part="label" for="code">${t.codeLabel}</label>
    <textarea part="code" id="code" class="code" readonly rows="4" spellcheck="false" aria-describedby="code-hint"
      .value=${code}></textarea>
    <p class="hint" id="code-hint">${t.codeHint}</p>
    <button type="button" part="button copy-button" class="copy-button" @click=${view.onCopy}>
      ${view.copyResult === 'copied' ? t.copied : t.copy}</button>
    ${view.copyResult === 'failed' ? html`<p part="message" class="copy-failed">${t.copyFailed}</p>` : nothing}
  </div>`;
  return html`<div class="pix ${view.touch ? 'touch' : ''}">${view.touch ? [copy, scan] : [scan, copy]}</div>
    ${renderWaiting(t)}`;
}

export function renderOpenFinancePending(t: Strings, checkout: Checkout): TemplateResult {
  return html`<div class="openfinance">
      <h2 part="title" class="title">${t.openFinanceTitle}</h2>
      <p class="hint">${t.openFinanceRedirecting}</p>
      ${
        webUrl(checkout.checkoutUrl)
          ? html`<a part="button" class="button" href=${checkout.checkoutUrl!}>${t.openFinanceGoToBank}</a>`
          : nothing
      }
    </div>
    ${renderWaiting(t)}`;
}

function renderWaiting(t: Strings): TemplateResult {
  return html`<p part="status" class="status"><span part="spinner" class="spinner" aria-hidden="true"></span>
    ${t.awaitingPayment}</p>`;
}

const FINAL_TEXT: Record<FinalCheckoutState, [title: keyof Strings, text: keyof Strings]> = {
  Completed: ['completedTitle', 'completedText'],
  Error: ['errorTitle', 'errorText'],
  Cancelled: ['cancelledTitle', 'cancelledText'],
  Reversed: ['reversedTitle', 'reversedText'],
};

/** Headline of a state, also what the live region announces. */
export function stateTitle(t: Strings, state: CheckoutState): string {
  return isFinal(state) ? t[FINAL_TEXT[state][0]] : t.awaitingPayment;
}

export function renderFinal(t: Strings, state: FinalCheckoutState, onTryAgain: () => void): TemplateResult {
  const [title, text] = FINAL_TEXT[state];
  const success = state === 'Completed';
  return html`<div part="result" class="result ${success ? 'success' : 'failure'}" data-state=${state}>
    <span class="icon" aria-hidden="true">${success ? '✓' : '!'}</span>
    <h2 part="title" class="title">${t[title]}</h2>
    <p part="message" class="message">${t[text]}</p>
    ${success ? nothing : html`<button type="button" part="button" @click=${onTryAgain}>${t.tryAgain}</button>`}
  </div>`;
}

export function renderStartFailed(t: Strings, message: string, onRetry: () => void): TemplateResult {
  return html`<div part="result" class="result failure" data-state="start-failed">
    <span class="icon" aria-hidden="true">!</span>
    <h2 part="title" class="title">${t.startFailedTitle}</h2>
    <p part="message" class="message">${message}</p>
    <button type="button" part="button" @click=${onRetry}>${t.retry}</button>
  </div>`;
}
