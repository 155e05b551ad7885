import { LitElement, html, nothing } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import type { Receiver, ReceiverAccount } from '../../../server/provider/schemas';
import { AdminApi } from '../api';
import '../balance/bo-balance';
import type { BoBalance } from '../balance/bo-balance';
import '../cashout-form/bo-cashout-form';
import type { BoEventMap, BoNoticeDetail } from '../events';
import '../payment-request-form/bo-payment-request-form';
import '../payment-request/bo-payment-request';
import '../payment-requests/bo-payment-requests';
import type { BoPaymentRequests } from '../payment-requests/bo-payment-requests';
import '../receivers/bo-receivers';
import shared from '../shared.styles';
import '../sign-in/bo-sign-in';
import styles from './bo-app.styles';

/** Kept for the tab's life only: closing the tab signs out. */
const TOKEN_KEY = 'pix-backoffice-admin-token';

/**
 * The merchant's back-office: sign-in with the admin token, then balance, cash-out, receivers and their accounts,
 * payment requests (create, follow, invoice, cancel; sandbox approval) and the recent requests. Owns the token and
 * the page's live region; the other elements report to it through events.
 */
@customElement('bo-app')
export class BoApp extends LitElement {
  static override styles = [shared, styles];

  @state() private api?: AdminApi;
  @state() private notice?: BoNoticeDetail;
  @state() private receiver?: Receiver;
  @state() private account?: ReceiverAccount;
  @state() private currentId = '';
  @query('bo-balance') private balance?: BoBalance;
  @query('bo-payment-requests') private requests?: BoPaymentRequests;

  override connectedCallback() {
    super.connectedCallback();
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (token) this.api = this.apiFor(token);
    this.addEventListener('bo-notice', (e) => (this.notice = e.detail));
    this.addEventListener('bo-signed-in', (e) => this.handleSignedIn(e));
    this.addEventListener('bo-account-selected', (e) => void this.handleAccount(e));
    this.addEventListener('bo-payment-request-created', (e) => void this.openRequest(e.detail.request.id));
    this.addEventListener('bo-payment-request-open', (e) => void this.openRequest(e.detail.id));
    this.addEventListener('bo-payment-request-changed', () => this.handleRequestChanged());
    this.addEventListener('bo-balance-changed', () => void this.balance?.refresh());
  }

  private apiFor(token: string) {
    return new AdminApi(token, () =>
      this.signOut({ message: 'Sessão encerrada: o token de administrador não é mais aceito. Entre de novo.', tone: 'error' }),
    );
  }

  private handleSignedIn(event: BoEventMap['bo-signed-in']) {
    sessionStorage.setItem(TOKEN_KEY, event.detail.token);
    this.api = this.apiFor(event.detail.token);
    this.notice = { message: 'Você entrou no back-office.', tone: 'success' };
  }

  private signOut(notice: BoNoticeDetail = { message: 'Você saiu do back-office.', tone: 'info' }) {
    sessionStorage.removeItem(TOKEN_KEY);
    this.api = undefined;
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
    return html`<div class="desk">
      <div class="main">
        <bo-receivers .api=${api} .selectedAccountId=${this.account?.id}></bo-receivers>
        <bo-payment-request-form .api=${api} .receiver=${this.receiver} .account=${this.account}></bo-payment-request-form>
        ${this.currentId ? html`<bo-payment-request .api=${api} request-id=${this.currentId}></bo-payment-request>` : nothing}
        <bo-payment-requests .api=${api} .currentId=${this.currentId}></bo-payment-requests>
      </div>
      <div class="side">
        <bo-balance .api=${api}></bo-balance>
        <bo-cashout-form .api=${api}></bo-cashout-form>
      </div>
    </div>`;
  }

  override render() {
    return html`
      <header class="top">
        <div class="brand">
          <h1>Back-office</h1>
          <p class="muted">Armazém Cerrado · pagamentos a empresas e transferências PIX</p>
        </div>
        <p class="env">Ambiente sandbox</p>
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
