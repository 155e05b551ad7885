import { LitElement, html, nothing } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import type { Receiver, ReceiverAccount } from '../../server/provider/schemas';
import { AdminApi } from '../api';
import '../balance/bo-balance';
import type { BoBalance } from '../balance/bo-balance';
import '../cashout-form/bo-cashout-form';
import '../cashouts/bo-cashouts';
import type { BoCashouts } from '../cashouts/bo-cashouts';
import '../checkout-detail/bo-checkout-detail';
import type { BoCheckoutDetail } from '../checkout-detail/bo-checkout-detail';
import type { BoEventMap, BoNoticeDetail } from '../events';
import '../payment-request-form/bo-payment-request-form';
import '../payment-request/bo-payment-request';
import '../payment-requests/bo-payment-requests';
import type { BoPaymentRequests } from '../payment-requests/bo-payment-requests';
import '../payments/bo-payments';
import type { BoPayments } from '../payments/bo-payments';
import '../receiver-form/bo-receiver-form';
import '../receivers/bo-receivers';
import type { BoReceivers } from '../receivers/bo-receivers';
import shared from '../shared.styles';
import '../sign-in/bo-sign-in';
import styles from './bo-app.styles';

/** Kept for the tab's life only: closing the tab signs out. */
const TOKEN_KEY = 'pix-backoffice-admin-token';

/** Changes arriving within this window reload each list once. */
const LIVE_DEBOUNCE_MS = 250;

/**
 * The merchant's back-office: sign-in with the admin token, then the payments received (filters, CSV, a payment's
 * timeline, refund of a duplicate), balance, cash-out with confirmation and the recent cash-outs, receivers and their
 * accounts (registered and reviewed here in sandbox mode), payment requests (create, follow, invoice, cancel; sandbox
 * approval). Owns the token, the page's live region and the live stream that refreshes the lists; the other elements
 * report to it through events. Sandbox controls show only when the emulator's admin routes answer.
 */
@customElement('bo-app')
export class BoApp extends LitElement {
  static override styles = [shared, styles];

  @state() private api?: AdminApi;
  @state() private notice?: BoNoticeDetail;
  @state() private receiver?: Receiver;
  @state() private account?: ReceiverAccount;
  @state() private currentId = '';
  @state() private checkoutId = '';
  @state() private sandbox = false;
  @state() private live: 'connecting' | 'on' | 'off' = 'connecting';
  @query('bo-balance') private balance?: BoBalance;
  @query('bo-payment-requests') private requests?: BoPaymentRequests;
  @query('bo-payments') private payments?: BoPayments;
  @query('bo-cashouts') private cashouts?: BoCashouts;
  @query('bo-checkout-detail') private checkoutDetail?: BoCheckoutDetail;
  @query('bo-receivers') private receiversList?: BoReceivers;
  private stream?: AbortController;
  private liveTimer: ReturnType<typeof setTimeout> | undefined;
  private changed = new Set<'checkout' | 'cashout'>();

  override connectedCallback() {
    super.connectedCallback();
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (token) this.start(this.apiFor(token));
    this.addEventListener('bo-notice', (e) => (this.notice = e.detail));
    this.addEventListener('bo-signed-in', (e) => this.handleSignedIn(e));
    this.addEventListener('bo-account-selected', (e) => void this.handleAccount(e));
    this.addEventListener('bo-payment-request-created', (e) => void this.openRequest(e.detail.request.id));
    this.addEventListener('bo-payment-request-open', (e) => void this.openRequest(e.detail.id));
    this.addEventListener('bo-payment-request-changed', () => this.handleRequestChanged());
    this.addEventListener('bo-balance-changed', () => void this.balance?.refresh());
    this.addEventListener('bo-checkout-open', (e) => void this.openCheckout(e.detail.id));
    this.addEventListener('bo-cashout-created', () => void this.cashouts?.refresh());
    this.addEventListener('bo-receivers-changed', () => void this.receiversList?.refresh());
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.stop();
  }

  /** Signed in: the API, the sandbox probe, and the live stream. */
  private start(api: AdminApi) {
    this.api = api;
    void api.sandboxMode().then(
      (sandbox) => this.api === api && (this.sandbox = sandbox),
      () => undefined,
    );
    this.stop();
    const stream = new AbortController();
    this.stream = stream;
    this.live = 'connecting';
    void api.live(
      (change) => this.handleLive(change.topic),
      (connected) => (this.live = connected ? 'on' : 'off'),
      stream.signal,
    );
  }

  private stop() {
    this.stream?.abort();
    this.stream = undefined;
    clearTimeout(this.liveTimer);
    this.liveTimer = undefined;
  }

  /** Reloads what a change touches, once per burst of changes. */
  private handleLive(topic: 'checkout' | 'cashout') {
    this.changed.add(topic);
    this.liveTimer ??= setTimeout(() => {
      this.liveTimer = undefined;
      const topics = new Set(this.changed);
      this.changed.clear();
      if (topics.has('checkout')) void this.payments?.refresh();
      if (topics.has('cashout')) {
        void this.cashouts?.refresh();
        // A refund is a cash-out: the list's refund column and the open payment show it.
        void this.payments?.refresh();
        void this.balance?.refresh();
      }
      void this.checkoutDetail?.refresh();
    }, LIVE_DEBOUNCE_MS);
  }

  /** The section links: ids live in this shadow root, which the address fragment cannot reach, so move focus here. */
  private jump(event: Event, id: string) {
    event.preventDefault();
    const area = this.renderRoot.querySelector<HTMLElement>(`#${id}`);
    area?.scrollIntoView({ block: 'start' });
    area?.focus({ preventScroll: true });
  }

  private async openCheckout(id: string) {
    this.checkoutId = id;
    await this.updateComplete;
    const detail = this.checkoutDetail;
    await detail?.updateComplete;
    detail?.scrollIntoView({ block: 'start' });
    detail?.renderRoot.querySelector<HTMLElement>('#cd-title')?.focus({ preventScroll: true });
  }

  private apiFor(token: string) {
    return new AdminApi(token, () =>
      this.signOut({ message: 'Sessão encerrada: o token de administrador não é mais aceito. Entre de novo.', tone: 'error' }),
    );
  }

  private handleSignedIn(event: BoEventMap['bo-signed-in']) {
    sessionStorage.setItem(TOKEN_KEY, event.detail.token);
    this.start(this.apiFor(event.detail.token));
    this.notice = { message: 'Você entrou no back-office.', tone: 'success' };
  }

  private signOut(notice: BoNoticeDetail = { message: 'Você saiu do back-office.', tone: 'info' }) {
    sessionStorage.removeItem(TOKEN_KEY);
    this.stop();
    this.api = undefined;
    this.sandbox = false;
    this.checkoutId = '';
    this.receiver = undefined;
    this.account = undefined;
    this.currentId = '';
    this.notice = notice;
  }

  private async handleAccount(event: BoEventMap['bo-account-selected']) {
    this.receiver = event.detail.receiver;
    this.account = event.detail.account;
    this.notice = {
      message: `Conta ${event.detail.account.accountNumber} de ${event.detail.receiver.companyFantasyName} escolhida.`,
      tone: 'info',
    };
    await this.updateComplete;
    const form = this.renderRoot.querySelector('bo-payment-request-form');
    await form?.updateComplete;
    form?.scrollIntoView({ block: 'nearest' });
    form?.renderRoot.querySelector<HTMLInputElement>('#pr-amount')?.focus();
  }

  private async openRequest(id: string) {
    this.currentId = id;
    void this.requests?.refresh();
    await this.updateComplete;
    const detail = this.renderRoot.querySelector('bo-payment-request');
    await detail?.updateComplete;
    detail?.scrollIntoView({ block: 'start' });
    detail?.renderRoot.querySelector<HTMLElement>('#pr-title')?.focus({ preventScroll: true });
  }

  private handleRequestChanged() {
    void this.requests?.refresh();
    void this.balance?.refresh();
  }

  private renderNotice() {
    const n = this.notice;
    return html`
      <div class="notice" role="status" aria-live="polite" data-tone=${n?.tone ?? 'info'} ?hidden=${!n || n.tone === 'error'}>
        ${n && n.tone !== 'error' ? n.message : nothing}
      </div>
      <div class="notice" role="alert" data-tone="error" ?hidden=${n?.tone !== 'error'}>${n?.tone === 'error' ? n.message : nothing}</div>
    `;
  }

  private renderDesk(api: AdminApi) {
    return html`<nav class="sections" aria-label="Seções do back-office">
        <a href="#payments-area" @click=${(e: Event) => this.jump(e, 'payments-area')}>Pagamentos recebidos</a>
        <a href="#receivers-area" @click=${(e: Event) => this.jump(e, 'receivers-area')}>Recebedores</a>
        <a href="#cashout-area" @click=${(e: Event) => this.jump(e, 'cashout-area')}>Transferências</a>
        <span class="live" data-state=${this.live}>
          ${this.live === 'on' ? 'Atualização ao vivo' : this.live === 'off' ? 'Reconectando…' : 'Conectando…'}
        </span>
      </nav>
      <div class="wide">
        <div id="payments-area" class="area" tabindex="-1">
          <bo-payments .api=${api} .currentId=${this.checkoutId}></bo-payments>
        </div>
        ${this.checkoutId ? html`<bo-checkout-detail .api=${api} checkout-id=${this.checkoutId}></bo-checkout-detail>` : nothing}
      </div>
      <div class="desk">
        <div class="main">
          <div id="receivers-area" class="area" tabindex="-1">
            <bo-receivers .api=${api} .selectedAccountId=${this.account?.id}></bo-receivers>
          </div>
          ${this.sandbox ? html`<bo-receiver-form .api=${api}></bo-receiver-form>` : nothing}
          <bo-payment-request-form .api=${api} .receiver=${this.receiver} .account=${this.account}></bo-payment-request-form>
          ${this.currentId ? html`<bo-payment-request .api=${api} request-id=${this.currentId} ?sandbox=${this.sandbox}></bo-payment-request>` : nothing}
          <bo-payment-requests .api=${api} .currentId=${this.currentId}></bo-payment-requests>
        </div>
        <div class="side">
          <bo-balance .api=${api}></bo-balance>
          <div id="cashout-area" class="area" tabindex="-1">
            <bo-cashout-form .api=${api}></bo-cashout-form>
          </div>
          <bo-cashouts .api=${api} ?sandbox=${this.sandbox}></bo-cashouts>
        </div>
      </div>`;
  }

  override render() {
    return html`
      <header class="top">
        <div class="brand">
          <h1>Back-office</h1>
          <p class="muted">Armazém Cerrado · pagamentos recebidos, pagamentos a empresas e transferências PIX</p>
        </div>
        ${this.sandbox ? html`<p class="env">Ambiente sandbox</p>` : nothing}
        ${this.api ? html`<button class="secondary" type="button" @click=${() => this.signOut()}>Sair</button>` : nothing}
      </header>
      ${this.renderNotice()}
      <main>${this.api ? this.renderDesk(this.api) : html`<bo-sign-in></bo-sign-in>`}</main>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-app': BoApp;
  }
}
