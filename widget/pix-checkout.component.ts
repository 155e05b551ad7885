import { LitElement, html, type PropertyValues, type TemplateResult } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { PAYER_CPF, type Method } from '../core/methods.js';
import { isFinal } from '../core/states.js';
import { CheckoutApiError, createCheckout, getCheckout, parseMethods, webUrl } from './api.js';
import type { Checkout, CreateCheckoutInput } from './api.js';
import { copyText } from './copy.js';
import { checkPayer, maskCpfInput, typedCpfProblem } from './cpf-input.js';
import { checkoutDetail, emit } from './events.js';
import { stringsFor, toLocale, type Strings } from './i18n.js';
import { METHOD_UI } from './methods.js';
import styles from './pix-checkout.styles.js';
import { forgetCheckout, rememberCheckout, rememberedCheckout } from './storage.js';
import { watchCheckout, type StopWatching } from './status-stream.js';
import * as view from './views.js';

/**
 * A PIX / OpenFinance checkout for one order: creates the checkout on the merchant's backend, shows the PIX QR and
 * copy-and-paste code (or sends the payer to their bank), follows the payment live and reports the outcome.
 * It needs `endpoint`, `order-id` and `order-token`: the token the merchant's server signed for this order (README,
 * "Order token"), so that someone who knows only the order id cannot start or steer its payment.
 *
 * @summary Drop-in PIX and OpenFinance checkout.
 *
 * @event pix-checkout-created - The backend created (or returned the live) checkout. `detail: PixCheckoutDetail`.
 * @event pix-checkout-status - The checkout state changed, including the first state seen. `detail: PixCheckoutDetail`.
 * @event pix-checkout-completed - The payment is confirmed. Fired once. `detail: PixCheckoutDetail`.
 * @event pix-checkout-failed - The payment ended as Error, Cancelled or Reversed. Fired once. `detail: PixCheckoutDetail`.
 * @event pix-checkout-error - The checkout could not be started or resumed. `detail: PixCheckoutErrorDetail`.
 * @event pix-checkout-redirect - Cancelable; fired just before going to the bank page (OpenFinance). Call
 *   `preventDefault()` to navigate yourself. `detail: PixCheckoutRedirectDetail`.
 *
 * @csspart base - The wrapper of everything.
 * @csspart title - Screen headings and the chooser legend.
 * @csspart chooser - The method chooser (fieldset).
 * @csspart method-button - Each method of the chooser.
 * @csspart form - The payer form.
 * @csspart label - Form and code labels.
 * @csspart input - The CPF and name inputs.
 * @csspart field-error - The inline CPF error.
 * @csspart button - Every action button (also carries `secondary-button` or `copy-button` where relevant).
 * @csspart secondary-button - The "back" button.
 * @csspart copy-button - The copy-the-code button.
 * @csspart amount - The formatted amount.
 * @csspart description - The order description.
 * @csspart qr - The QR code (inline SVG).
 * @csspart code - The copy-and-paste code (read-only text area).
 * @csspart status - The "waiting for payment" line.
 * @csspart spinner - The activity indicator.
 * @csspart result - The completed, failed and could-not-start screens.
 * @csspart message - Explanatory text of result screens and copy failures.
 *
 * @cssproperty --pix-font-family - Font family. Default: inherited system UI font.
 * @cssproperty --pix-font-size - Base font size. Default: 1rem.
 * @cssproperty --pix-color-text - Text color. Default: #1d2327.
 * @cssproperty --pix-color-muted - Secondary text color. Default: #50575e.
 * @cssproperty --pix-color-background - Background of the element. Default: #ffffff.
 * @cssproperty --pix-color-border - Borders of inputs and cards. Default: #8c8f94.
 * @cssproperty --pix-color-primary - Buttons and accents. Default: #00695c.
 * @cssproperty --pix-color-primary-text - Text on primary buttons. Default: #ffffff.
 * @cssproperty --pix-color-success - Completed screen accent. Default: #1b6e2b.
 * @cssproperty --pix-color-danger - Errors and failed screens. Default: #b3261e.
 * @cssproperty --pix-focus-ring - Outline of focused controls. Default: 3px solid #1a56db.
 * @cssproperty --pix-radius - Corner radius. Default: 8px.
 * @cssproperty --pix-spacing - Base spacing unit. Default: 1rem.
 * @cssproperty --pix-max-width - Maximum width of the element. Default: 28rem.
 * @cssproperty --pix-qr-size - Rendered size of the QR code. Default: 14rem.
 * @cssproperty --pix-qr-color - QR modules (keep it dark). Default: #000000.
 * @cssproperty --pix-qr-background - QR background (keep it light). Default: #ffffff.
 */
export class PixCheckout extends LitElement {
  static override styles = styles;

  @state() private screen: view.Screen = { name: 'idle' };
  @state() private checkout?: Checkout;
  @state() private cpf = '';
  @state() private payerName = '';
  @state() private cpfProblem?: view.CpfProblem;
  @state() private copyResult: view.CopyResult = 'idle';
  @state() private announcement = '';
  @query('#code') private codeField!: HTMLTextAreaElement | null;
  @query('#cpf') private cpfInput!: HTMLInputElement | null;
  private stopWatching?: StopWatching;
  /** Bumped on every restart so answers to an older run are dropped. */
  private run = 0;
  private retryStart?: () => void;
  private touch = false;

  /** Base URL of the merchant's checkout API, for example "/api". */
  @property({ attribute: 'endpoint' }) endpoint = '';
  /** The merchant's order id; the backend resolves amount and description from it, never the browser. */
  @property({ attribute: 'order-id' }) orderId = '';
  /** The merchant server's signed token for `order-id`; sent when creating the checkout, never stored by the element. */
  @property({ attribute: 'order-token' }) orderToken = '';
  /** Offered methods, space-separated: "pix" (default), "openfinance", or "pix openfinance" for a chooser. */
  @property({ attribute: 'methods' }) methods = 'pix';
  /** Interface language: "pt-BR" (default) or "en". */
  @property({ attribute: 'lang' }) override lang = 'pt-BR';
  /** Asks for an optional CPF and name before a PIX checkout, for an identified PIX. */
  @property({ attribute: 'collect-payer', type: Boolean }) collectPayer = false;
  /** Where the bank sends the payer back after OpenFinance. Default: the current page address. */
  @property({ attribute: 'return-url' }) returnUrl = '';

  override connectedCallback(): void {
    super.connectedCallback();
    this.touch = typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
    if (this.hasUpdated) this.begin();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stopWatching?.();
    this.run++;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('endpoint') || changed.has('orderId')) this.begin();
  }

  private get t(): Strings {
    return stringsFor(toLocale(this.lang));
  }

  /** Starts over for the current order: resumes a remembered checkout, else offers the methods. */
  private begin(): void {
    this.stopWatching?.();
    const run = ++this.run;
    this.checkout = undefined;
    this.copyResult = 'idle';
    this.cpfProblem = undefined;
    this.announcement = '';
    if (!this.isConnected) return;
    if (!this.endpoint || !this.orderId) {
      this.failToStart(new CheckoutApiError(0, 'invalid_configuration', this.t.missingConfiguration));
      return;
    }
    const remembered = rememberedCheckout(this.endpoint, this.orderId);
    if (remembered) void this.resume(run, remembered);
    else this.offerMethods();
  }

  private async resume(run: number, checkoutId: string): Promise<void> {
    this.screen = { name: 'loading' };
    this.retryStart = () => this.begin();
    try {
      const checkout = await getCheckout(this.endpoint, checkoutId);
      if (run === this.run) this.follow(checkout);
    } catch (error) {
      if (run !== this.run) return;
      if (error instanceof CheckoutApiError && error.status === 404) {
        forgetCheckout(this.endpoint, this.orderId);
        this.offerMethods();
      } else {
        this.failToStart(error);
      }
    }
  }

  private offerMethods(): void {
    const methods = parseMethods(this.methods);
    if (methods.length > 1) this.screen = { name: 'choose', methods };
    else this.choose(methods[0]!);
  }

  private choose(method: Method): void {
    if (PAYER_CPF[method] === 'required' || this.collectPayer) this.screen = { name: 'payer', method };
    else void this.start(method);
  }

  private async start(method: Method, payer?: CreateCheckoutInput['payer']): Promise<void> {
    const run = this.run;
    this.screen = { name: 'loading' };
    this.retryStart = () => void this.start(method, payer);
    const input: CreateCheckoutInput = { orderId: this.orderId, orderToken: this.orderToken, method };
    if (payer) input.payer = payer;
    if (METHOD_UI[method].goesToBank) input.returnUrl = this.returnUrl || window.location.href;
    try {
      const checkout = await createCheckout(this.endpoint, input);
      if (run !== this.run) return;
      rememberCheckout(this.endpoint, this.orderId, checkout.id);
      emit(this, 'pix-checkout-created', checkoutDetail(checkout));
      this.follow(checkout);
      if (METHOD_UI[method].goesToBank && !isFinal(checkout.state)) this.redirect(checkout);
    } catch (error) {
      if (run !== this.run) return;
      if (error instanceof CheckoutApiError && error.code === 'payer_cpf_invalid') {
        this.screen = { name: 'payer', method };
        this.cpfProblem = 'cpfInvalid';
      } else {
        this.failToStart(error);
      }
    }
  }

  /** Shows the checkout and, unless it is already final, follows it live. */
  private follow(checkout: Checkout): void {
    this.show(checkout);
    if (isFinal(checkout.state)) return;
    this.stopWatching = watchCheckout({
      endpoint: this.endpoint,
      checkoutId: checkout.id,
      onCheckout: (next) => this.show(next),
    });
  }

  private show(checkout: Checkout): void {
    const previous = this.checkout;
    // A final state never changes, so whatever arrives after it is stale and must not be announced again.
    if (previous && isFinal(previous.state)) return;
    this.checkout = checkout;
    this.screen = { name: 'checkout' };
    if (previous?.state === checkout.state) return;
    const detail = checkoutDetail(checkout);
    this.announcement = view.stateTitle(this.t, checkout.state);
    emit(this, 'pix-checkout-status', detail);
    if (checkout.state === 'Completed') emit(this, 'pix-checkout-completed', detail);
    else if (isFinal(checkout.state)) emit(this, 'pix-checkout-failed', detail);
  }

  private redirect(checkout: Checkout): void {
    const url = webUrl(checkout.checkoutUrl);
    if (url && emit(this, 'pix-checkout-redirect', { ...checkoutDetail(checkout), url }, { cancelable: true })) {
      window.location.assign(url);
    }
  }

  private failToStart(cause: unknown): void {
    const error = cause instanceof CheckoutApiError ? cause : new CheckoutApiError(0, 'unexpected', String(cause));
    this.screen = { name: 'start-failed', error };
    this.announcement = `${this.t.startFailedTitle}. ${view.startFailedMessage(this.t, error)}`;
    emit(this, 'pix-checkout-error', { orderId: this.orderId, status: error.status, code: error.code, message: error.message });
  }

  private handleCpfInput = (event: InputEvent) => {
    this.cpf = maskCpfInput(event.target as HTMLInputElement);
    this.cpfProblem = typedCpfProblem(this.cpf);
  };

  private handleNameInput = (event: InputEvent) => {
    this.payerName = (event.target as HTMLInputElement).value;
  };

  private handleSubmit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (this.screen.name !== 'payer') return;
    const { method } = this.screen;
    const { problem, payer } = checkPayer(method, this.cpf, this.payerName);
    this.cpfProblem = problem;
    if (problem) {
      await this.updateComplete;
      this.cpfInput?.focus();
      return;
    }
    void this.start(method, payer);
  };

  private handleCopy = async () => {
    const code = this.checkout?.qrCode;
    if (!code) return;
    const copied = await copyText(code, this.codeField);
    this.copyResult = copied ? 'copied' : 'failed';
    this.announcement = copied ? this.t.copied : this.t.copyFailed;
  };

  private handleTryAgain = () => {
    forgetCheckout(this.endpoint, this.orderId);
    this.begin();
  };

  private handleRetry = () => (this.retryStart ?? (() => this.begin()))();

  protected override render(): TemplateResult {
    const locale = toLocale(this.lang);
    return html`<div part="base" class="base" lang=${locale}>
      <p class="visually-hidden" role="status" aria-live="polite">${this.announcement}</p>
      ${view.renderScreen(this.t, {
        screen: this.screen,
        checkout: this.checkout,
        locale,
        pix: { touch: this.touch, copyResult: this.copyResult, onCopy: this.handleCopy },
        payer: {
          cpf: this.cpf,
          name: this.payerName,
          problem: this.cpfProblem,
          canGoBack: parseMethods(this.methods).length > 1,
          onCpfInput: this.handleCpfInput,
          onNameInput: this.handleNameInput,
          onSubmit: this.handleSubmit,
          onBack: () => this.begin(),
        },
        onChoose: (method) => this.choose(method),
        onTryAgain: this.handleTryAgain,
        onRetry: this.handleRetry,
      })}
    </div>`;
  }
}
