import { LitElement, html, type PropertyValues, type TemplateResult } from 'lit';
import { webUrl } from './api.js';
import { copyText, selectText } from './copy.js';
import { Countdown } from './countdown.js';
import { ScreenFocus } from './focus.js';
import { fill, type Strings } from './i18n.js';
import { Language } from './language.js';
import baseStyles from './pix-checkout.styles.js';
import screenStyles from './screens.styles.js';
import { CheckoutSession } from './session.js';
import { isLive } from '../core/states.js';
import themeStyles from './theme.styles.js';
import { renderScreen, screenKey, type CopyResult } from './views/index.js';

/** How long the copy button says "Copiado" before it offers to copy again. */
const COPIED_MS = 3000;

/**
 * A PIX / OpenFinance checkout for one order: resumes the order's live checkout (from any tab or device) or offers
 * the methods, creates the checkout, shows the PIX code with its countdown (or sends the payer to their bank),
 * follows the payment live and ends on a receipt or on a screen that says what happened and what to do next.
 * It needs `endpoint`, `order-id` and `order-token`: the token the merchant's server signed for this order (README,
 * "Order token"), so that someone who knows only the order id cannot start or steer its payment.
 *
 * @summary Drop-in PIX and OpenFinance checkout.
 *
 * @slot - Fallback content: the element's children show until it is defined (and so whenever its script does not
 *   run), are hidden while it works, and show again below the "could not start" screen (for example a link to the
 *   shop's payment page).
 * @slot continue - Replaces the receipt's continue link (for example the shop's own "see my order" link).
 *
 * @event pix-checkout-created - The backend created (or returned the live) checkout. `detail: PixCheckoutDetail`.
 * @event pix-checkout-status - The checkout state changed, including the first state seen. `detail: PixCheckoutDetail`.
 * @event pix-checkout-completed - The payment is confirmed. Fired once. `detail: PixCheckoutDetail`.
 * @event pix-checkout-failed - The payment ended as Error, Cancelled or Reversed. Fired once. `detail: PixCheckoutDetail`.
 * @event pix-checkout-error - The checkout could not be started or resumed, or the payer's CPF was refused.
 *   `detail: PixCheckoutErrorDetail`.
 * @event pix-checkout-redirect - Cancelable; fired just before going to the bank page (OpenFinance). Call
 *   `preventDefault()` to navigate yourself. `detail: PixCheckoutRedirectDetail`.
 * @event pix-checkout-continue - Cancelable; fired when the payer follows the receipt's continue link (`continue-url`).
 *   Call `preventDefault()` to stay or route yourself. `detail: PixCheckoutContinueDetail`.
 *
 * @csspart base - The wrapper of everything.
 * @csspart title - Each screen's heading (it takes focus when the screen changes).
 * @csspart chooser - The method chooser (fieldset).
 * @csspart method-button - Each method of the chooser.
 * @csspart merchant - "Pagamento para …", from `merchant-name`.
 * @csspart form - The payer form.
 * @csspart label - Form and code labels.
 * @csspart input - The CPF and name inputs.
 * @csspart field-error - The inline CPF error.
 * @csspart button - Every action button or link (also `secondary-button`, `copy-button` or `continue-button`).
 * @csspart secondary-button - Second actions: back, show the full code, choose another method.
 * @csspart copy-button - The large "Copiar código Pix" button.
 * @csspart continue-button - The receipt's continue link.
 * @csspart back-button - "Voltar para a loja" when the payment cannot start and no retry could fix it (`continue-url`,
 *   else the previous page).
 * @csspart save-button - The receipt's "Salvar comprovante" (opens the print dialog: print, or save as PDF).
 * @csspart amount - The formatted amount.
 * @csspart description - The order description.
 * @csspart countdown - "Pague em até 29 min 41 s (até 14:32)".
 * @csspart qr - The QR code (inline SVG).
 * @csspart code - The copy-and-paste code, shortened until expanded.
 * @csspart steps - The numbered "how to pay" list.
 * @csspart status - The "waiting for payment" line.
 * @csspart spinner - The activity indicator.
 * @csspart result - The receipt and every other outcome screen (refused CPF, conflict, could not start).
 * @csspart receipt - The receipt's list: amount, date, order, transaction, bank, voucher.
 * @csspart message - Explanatory text of result screens, the copy failure and the next step after copying.
 *
 * @cssproperty --pix-font-family - Font family. Default: inherited system UI font.
 * @cssproperty --pix-font-size - Base font size. Default: 1rem.
 * @cssproperty --pix-color-text - Text color. Default: #1d2327.
 * @cssproperty --pix-color-muted - Secondary text color. Default: #50575e.
 * @cssproperty --pix-color-background - Background of the element. Default: #ffffff.
 * @cssproperty --pix-color-border - Borders of inputs and cards. Default: #8c8f94.
 * @cssproperty --pix-color-primary - Buttons, accents and the method marks. Default: #00695c.
 * @cssproperty --pix-color-primary-text - Text on primary buttons. Default: #ffffff.
 * @cssproperty --pix-color-success - Receipt accent. Default: #1b6e2b.
 * @cssproperty --pix-color-danger - Errors, failed screens, the last minute of the countdown. Default: #b3261e.
 * @cssproperty --pix-color-notice - Expired and "payment under way" screens. Default: #8a4b00.
 * @cssproperty --pix-focus-ring - Outline of focused controls. Default: 3px solid #1a56db.
 * @cssproperty --pix-radius - Corner radius. Default: 8px.
 * @cssproperty --pix-spacing - Base spacing unit. Default: 1rem.
 * @cssproperty --pix-max-width - Maximum width of the element (from 34rem the QR and the steps sit side by side). Default: 40rem.
 * @cssproperty --pix-qr-size - Rendered size of the QR code. Default: 14rem.
 * @cssproperty --pix-qr-color - QR modules (keep it dark). Default: #000000.
 * @cssproperty --pix-qr-background - QR background (keep it light). Default: #ffffff.
 */
export class PixCheckout extends LitElement {
  static override styles = [baseStyles, screenStyles, themeStyles];

  // Declared here rather than with decorators, whose runtime cost the bundle 2 KB raw. Defaults are set in the
  // constructor, as Lit requires for fields declared without initializers, so class fields never shadow its accessors.
  static override properties = {
    copyResult: { state: true },
    copiedOnce: { state: true },
    codeExpanded: { state: true },
    endpoint: { attribute: 'endpoint' },
    orderId: { attribute: 'order-id' },
    orderToken: { attribute: 'order-token' },
    methods: { attribute: 'methods' },
    lang: { attribute: 'lang' },
    collectPayer: { attribute: 'collect-payer', type: Boolean },
    returnUrl: { attribute: 'return-url' },
    merchantName: { attribute: 'merchant-name' },
    continueUrl: { attribute: 'continue-url' },
    theme: { attribute: 'theme', reflect: true },
  };

  declare private copyResult: CopyResult;
  declare private copiedOnce: boolean;
  declare private codeExpanded: boolean;
  private readonly session = new CheckoutSession(this);
  private readonly language = new Language(this);
  private readonly countdown = new Countdown(this, {
    now: () => this.session.client.now(),
    onStep: (minutes) => this.handleCountdownStep(minutes),
    onEnd: () => this.session.expireLocally(),
  });
  private readonly focusing = new ScreenFocus(this, () => screenKey({ ...this.session.state, state: this.session.shownState }));
  private copyTimer: ReturnType<typeof setTimeout> | undefined;
  private shownCheckoutId: string | undefined;
  private touch = false;

  /** Base URL of the merchant's checkout API, for example "/api". */
  declare endpoint: string;
  /** The merchant's order id; the backend resolves amount and description from it, never the browser. */
  declare orderId: string;
  /** The merchant server's signed token for `order-id`; sent to create or look up the checkout, never stored. */
  declare orderToken: string;
  /** Offered methods, space-separated: "pix" (default), "openfinance", or "pix openfinance" for a chooser. */
  declare methods: string;
  /** Interface language: "pt-BR" (default), "en" (en-*) or "es" (es-*). */
  declare lang: string;
  /** Asks for an optional CPF and name before a PIX checkout, for an identified PIX. */
  declare collectPayer: boolean;
  /** Where the bank sends the payer back after OpenFinance. Default: the current page address. */
  declare returnUrl: string;
  /** The shop's name, shown before paying ("Pagamento para …") and on the receipt. */
  declare merchantName: string;
  /** Where the receipt's "Continuar" link goes (fires the cancelable `pix-checkout-continue` first). */
  declare continueUrl: string;
  /**
   * "light" or "dark"; anything else (or none, the default) follows the system's `prefers-color-scheme`. Reflected,
   * so setting the property sets the attribute the styles read; unset, the element adds no attribute to the page.
   */
  declare theme: 'light' | 'dark' | 'auto' | undefined;
  /** Property only: the order lookup (`POST {endpoint}/orders/{order-id}/checkout`) the page sent before this script came; used once. */
  declare orderLookup: Promise<Response> | undefined;

  constructor() {
    super();
    this.copyResult = 'idle';
    this.copiedOnce = false;
    this.codeExpanded = false;
    this.endpoint = '';
    this.orderId = '';
    this.orderToken = '';
    this.methods = 'pix';
    this.lang = 'pt-BR';
    this.collectPayer = false;
    this.returnUrl = '';
    this.merchantName = '';
    this.continueUrl = '';
  }

  /** The strings of the element's language (Portuguese until its chunk comes, or if it cannot be had). */
  get strings(): Strings {
    return this.language.strings;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.touch = typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
    if (this.hasUpdated) this.session.begin();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.copyTimer);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('endpoint') || changed.has('orderId')) this.session.begin();
    const { checkout } = this.session.state;
    if (checkout?.id !== this.shownCheckoutId) {
      // A new code: copy and expand start over.
      this.shownCheckoutId = checkout?.id;
      this.copyResult = 'idle';
      this.copiedOnce = false;
      this.codeExpanded = false;
    }
    const deadline = checkout && isLive(checkout.state) ? Date.parse(checkout.expiresAt ?? '') : Number.NaN;
    this.countdown.set(Number.isFinite(deadline) ? deadline : undefined);
  }

  private handleCountdownStep(minutes: number): void {
    if (this.session.state.screen.name !== 'checkout') return;
    const t = this.strings;
    this.session.announce(minutes === 1 ? t.countdownOneMinute : fill(t.countdownMinutes, { n: minutes }));
  }

  private handleCopy = async () => {
    const code = this.session.state.checkout?.qrCode;
    if (!code) return;
    const copied = await copyText(code, this.shadowRoot!);
    const t = this.strings;
    clearTimeout(this.copyTimer);
    if (copied) {
      this.copyResult = 'copied';
      this.copiedOnce = true;
      this.session.announce(`${t.copiedAnnouncement} ${t.nextStep}`);
      this.copyTimer = setTimeout(() => (this.copyResult = 'idle'), COPIED_MS);
      return;
    }
    this.copyResult = 'failed';
    this.codeExpanded = true;
    this.session.announce(t.copyFailed);
    await this.updateComplete;
    const field = this.shadowRoot!.getElementById('pix-code');
    if (field) selectText(field);
  };

  private handleToggleCode = () => (this.codeExpanded = !this.codeExpanded);

  protected override render(): TemplateResult {
    const { locale } = this.language;
    const { state, shownState: shown, offered } = this.session;
    if (this.language.waiting) return html`<div part="base" class="base" lang=${locale} aria-busy="true"></div>`;
    return html`<div part="base" class="base" lang=${locale}>
      <p class="visually-hidden" role="status" aria-live="polite">${state.announcement}</p>
      ${renderScreen({
        ctx: { t: this.strings, locale, merchantName: this.merchantName.trim(), offered },
        screen: state.screen,
        checkout: state.checkout,
        state: shown,
        remainingMs: shown && isLive(shown) ? this.countdown.remaining() : undefined,
        pix: {
          touch: this.touch,
          copyResult: this.copyResult,
          copiedOnce: this.copiedOnce,
          codeExpanded: this.codeExpanded,
          onCopy: this.handleCopy,
          onToggleCode: this.handleToggleCode,
        },
        continueUrl: webUrl(this.continueUrl),
        session: this.session,
        focusNext: (selector: string) => (this.focusing.next = selector),
        host: this,
      })}
    </div>`;
  }
}
