/**
 * The checkout flow of one `<pix-checkout>`, as a Lit reactive controller: finds the order's live checkout (any tab,
 * any device), offers the methods, creates the checkout, follows it live, and handles what can go wrong on the way
 * (a refused CPF, another method already live, an expired code, a late payment). It holds the state; the element
 * renders it and turns clicks into calls.
 */
import type { ReactiveController } from 'lit';
import { PAYER_CPF, type Method } from '../core/methods.js';
import { CheckoutApiError, CheckoutClient, parseMethods, type Checkout, type CreateCheckoutInput } from './api.js';
import { EXPIRED, isFinal, isLive, type CheckoutState } from '../core/states.js';
import { checkoutDetail, emit } from './events.js';
import { errorMessage, stateTitle } from './i18n.js';
import { METHOD_UI } from './methods.js';
import { screensChunk, loadScreens } from './screens-chunk.js';
import { findCheckout } from './resume.js';
import type { Screen, SessionHost, SessionState } from './session-state.js';
import { rememberCheckout, rememberedCheckout } from './storage.js';
import { watchCheckout, type StopWatching } from './status-stream.js';

export type Payer = NonNullable<CreateCheckoutInput['payer']>;

export class CheckoutSession implements ReactiveController {
  state: SessionState = { screen: { name: 'idle' }, cpf: '', payerName: '', announcement: '' };
  client = new CheckoutClient('');
  /** CPFs the BFF refused for this order: sending one again could only be refused again. */
  readonly refused = new Set<string>();
  private refusedFor = '';
  /** The payer of the last checkout made, for a new one of the same method (session-steps.ts). */
  lastPayer: Payer | undefined;
  private readonly watchers = new Map<string, StopWatching>();
  /** Bumped on every restart so answers to an older run are dropped. */
  run = 0;
  private retryAction: (() => void) | undefined;

  constructor(readonly host: SessionHost) {
    host.addController(this);
  }

  hostDisconnected(): void {
    this.stopWatching();
    this.run++;
  }

  set(patch: Partial<SessionState>): void {
    this.state = { ...this.state, ...patch };
    this.host.requestUpdate();
  }

  /** Says `text` in the live region; the same text twice in a row still speaks (a no-break space tells them apart). */
  announce(text: string): void {
    this.set({ announcement: text === this.state.announcement ? `${text}\u00a0` : text });
  }

  /** The state to show: the BFF's, or Expired once the window closed by the clock. */
  get shownState(): CheckoutState | undefined {
    const { checkout, expiredLocally } = this.state;
    if (!checkout) return undefined;
    return isLive(checkout.state) && expiredLocally === checkout.id ? EXPIRED : checkout.state;
  }

  get offered(): Method[] {
    return parseMethods(this.host.methods);
  }

  /** Starts over for the current order: the order's live checkout wherever it was made, else the methods. */
  begin(): void {
    this.stopWatching();
    const run = ++this.run;
    this.client = new CheckoutClient(this.host.endpoint);
    if (this.refusedFor !== this.host.orderId) {
      this.refused.clear();
      this.lastPayer = undefined;
      this.refusedFor = this.host.orderId;
    }
    this.set({ checkout: undefined, expiredLocally: undefined, cpfProblem: undefined, announcement: '' });
    if (!this.host.isConnected) return;
    if (!this.host.endpoint || !this.host.orderId) {
      this.failToStart(new CheckoutApiError(0, 'invalid_configuration', 'endpoint and order-id are required'));
      return;
    }
    this.set({ screen: { name: 'loading' } });
    this.retryAction = () => this.begin();
    const { endpoint, orderId, orderToken, orderLookup: sent } = this.host;
    if (!orderToken) {
      // The console's words for it come with the lazy chunk (diagnostics.ts).
      const host = this.host;
      void loadScreens().then(() => screensChunk()?.warnMissingToken(host));
    }
    this.host.orderLookup = undefined;
    const offered = this.offered;
    const createsAtOnce = offered.length === 1 && !this.needsPayerForm(offered[0]!);
    // Nothing to look up (one method, no checkout remembered by this tab): the create leaves now, from the first
    // update, so the first render happens while the server works instead of before the request is sent.
    if (createsAtOnce && orderToken && !rememberedCheckout(endpoint, orderId)) {
      this.offerMethods();
      return;
    }
    findCheckout({ client: this.client, endpoint, orderId, orderToken, lookUp: !createsAtOnce, sent }).then(
      (checkout) => {
        if (run !== this.run) return;
        if (!checkout) return this.offerMethods();
        rememberCheckout(this.host.endpoint, this.host.orderId, checkout.id);
        this.adopt(checkout);
      },
      (error: unknown) => {
        if (run === this.run) this.failToStart(error);
      },
    );
  }

  offerMethods(): void {
    const methods = this.offered;
    if (methods.length > 1) this.set({ screen: { name: 'choose', methods } });
    else this.choose(methods[0]!);
  }

  choose(method: Method): void {
    if (this.needsPayerForm(method)) this.set({ screen: { name: 'payer', method }, cpfProblem: undefined });
    else void this.start(method);
  }

  private needsPayerForm(method: Method): boolean {
    return PAYER_CPF[method] === 'required' || this.host.collectPayer;
  }

  retry(): void {
    (this.retryAction ?? (() => this.begin()))();
  }

  /** The countdown reached zero: the code is shown as expired now, even before the BFF says so. */
  expireLocally(): void {
    const { checkout, screen } = this.state;
    if (!checkout || !isLive(checkout.state) || this.state.expiredLocally === checkout.id) return;
    this.set({ expiredLocally: checkout.id, screen: screen.name === 'conflict' ? { name: 'checkout' } : screen });
    if (this.state.screen.name === 'checkout') this.announce(this.host.strings.expiredTitle);
  }

  async start(method: Method, payer?: Payer, confirmations = 0): Promise<void> {
    const run = this.run;
    this.set({ screen: { name: 'loading', confirming: confirmations > 0 } });
    this.retryAction = () => void this.start(method, payer);
    const input: CreateCheckoutInput = { orderId: this.host.orderId, orderToken: this.host.orderToken, method };
    if (payer) input.payer = payer;
    if (METHOD_UI[method].goesToBank) input.returnUrl = this.host.returnUrl || window.location.href;
    try {
      const checkout = await this.client.create(input);
      if (run !== this.run) return;
      if (payer) this.lastPayer = payer;
      rememberCheckout(this.host.endpoint, this.host.orderId, checkout.id);
      emit(this.host, 'pix-checkout-created', checkoutDetail(checkout));
      if (checkout.method !== method && isLive(checkout.state)) {
        this.adopt(checkout, { name: 'conflict', wanted: method });
        this.announce(this.host.strings.conflictTitle);
        return;
      }
      this.adopt(checkout);
      // Open Finance's way to the bank comes with the lazy chunk, which its payer form needed first.
      if (METHOD_UI[method].goesToBank && isLive(checkout.state))
        void loadScreens().then(() => screensChunk()?.redirect(this.host, checkout));
    } catch (error) {
      if (run !== this.run) return;
      // A refused CPF, a payment still being prepared and a missing payer have their ways on in the lazy chunk
      // (session-steps.ts), which a payer form already brought; without it, any failure is a failed start.
      if (!screensChunk()) await loadScreens();
      if (run === this.run && !screensChunk()?.createFailed(this, error, method, payer, confirmations)) this.failToStart(error);
    }
  }

  /** Makes `checkout` the one on screen and follows it until it is settled. */
  private adopt(checkout: Checkout, screen: Screen = { name: 'checkout' }): void {
    this.show(checkout, true, screen);
    if (isFinal(checkout.state) || this.watchers.has(checkout.id)) return;
    const stop = watchCheckout({ client: this.client, checkoutId: checkout.id, onCheckout: (next) => this.show(next, false) });
    this.watchers.set(checkout.id, stop);
  }

  show(next: Checkout, adopting: boolean, screen: Screen = { name: 'checkout' }): void {
    const current = this.state.checkout;
    // A confirmed payment is final for the shopper: its receipt stays whatever arrives after it.
    if (current?.state === 'Completed') return;
    const same = current?.id === next.id;
    // An older checkout (it expired, then a new code was made) still matters if it was paid late: the receipt wins.
    if (!same && !adopting && next.state !== 'Completed') return;
    if (same && isFinal(current.state)) return;
    const keepConflict = same && this.state.screen.name === 'conflict' && isLive(next.state);
    // Event-stream snapshots leave the QR symbol out: the one this checkout came with stays.
    const kept = same && !next.qrMatrix && current.qrMatrix ? { ...next, qrMatrix: current.qrMatrix } : next;
    this.set({ checkout: kept, screen: keepConflict ? this.state.screen : screen });
    if (same && current.state === next.state) return;
    // Where a late payment of an older code would be is asked by the lazy chunk, which draws the Expired screen.
    if (same && next.state === EXPIRED) void loadScreens().then(() => screensChunk()?.lookForPayment(this));
    const detail = checkoutDetail(next);
    this.announce(stateTitle(this.host.strings, this.shownState!));
    emit(this.host, 'pix-checkout-status', detail);
    if (next.state === 'Completed') {
      // The page hears of the payment first: the tab's storage write below (a reload then shows this receipt even if
      // the order has a newer one) costs a tenth of a millisecond and can follow.
      emit(this.host, 'pix-checkout-completed', detail);
      rememberCheckout(this.host.endpoint, this.host.orderId, next.id);
      this.stopWatching(next.id);
    } else if (isFinal(next.state)) {
      emit(this.host, 'pix-checkout-failed', detail);
    }
  }

  private failToStart(cause: unknown): void {
    const error = cause instanceof CheckoutApiError ? cause : new CheckoutApiError(0, 'unexpected', String(cause));
    this.set({ screen: { name: 'start-failed', error } });
    this.announceFailure(this.host.strings.startFailedTitle, error);
    this.report(error);
  }

  /**
   * Tells the page that the checkout could not start or go on (`pix-checkout-error`), and, once the lazy chunk came
   * with those words (diagnostics.ts), its console why when the page's setup is the cause.
   */
  report(error: CheckoutApiError): void {
    const host = this.host;
    emit(host, 'pix-checkout-error', { orderId: host.orderId, status: error.status, code: error.code, message: error.message });
    void loadScreens().then(() => screensChunk()?.explainError(host, error));
  }

  /** Says a failure with the words of its code, which come with the lazy chunk: once it came (or could not). */
  announceFailure(title: string, error: CheckoutApiError): void {
    const run = this.run;
    const say = () => run === this.run && this.announce(`${title}. ${errorMessage(this.host.strings, error)}`);
    if (screensChunk()) say();
    else void loadScreens().then(say);
  }

  /** Closes every stream, or all but the one of `keep`. */
  private stopWatching(keep?: string): void {
    for (const [id, stop] of this.watchers) {
      if (id === keep) continue;
      stop();
      this.watchers.delete(id);
    }
  }
}
