import { LitElement, html, nothing } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import { hasRole, type ReceiverAccountView, type ReceiverView } from '../../core/backoffice';
import { AdminApi, type Role, type Session } from '../api';
import type { BoApprovals } from '../approvals/bo-approvals';
import '../balance/bo-balance';
import type { BoBalance } from '../balance/bo-balance';
import '../cashout-form/bo-cashout-form';
import '../cashouts/bo-cashouts';
import type { BoCashouts } from '../cashouts/bo-cashouts';
import '../checkout-detail/bo-checkout-detail';
import type { BoCheckoutDetail } from '../checkout-detail/bo-checkout-detail';
import type { BoEventMap, BoNoticeDetail } from '../events';
import { roleLabel } from '../format';
import '../payment-request-form/bo-payment-request-form';
import '../payment-request/bo-payment-request';
import '../payment-requests/bo-payment-requests';
import type { BoPaymentRequests } from '../payment-requests/bo-payment-requests';
import '../payments/bo-payments';
import type { BoPayments } from '../payments/bo-payments';
import '../receivers/bo-receivers';
import shared from '../shared.styles';
import '../mfa/bo-step-up';
import { mustEnrol } from '../mfa/enrolment';
import '../sign-in/bo-sign-in';
import styles from './bo-app.styles';
import { LiveRefresh } from './live-refresh';
import { renderSection, sectionsFor } from './sections';

const EXPIRED = 'Sua sessão expirou. Entre de novo.';

/**
 * The merchant console: on load it asks the BFF who is signed in (`GET /api/admin/session`, the HttpOnly cookie
 * decides) and shows either the sign-in or the desk, never both; a later 401 brings the sign-in back with "Sua sessão
 * expirou". The desk: the payments received (filters, CSV, a payment's timeline and refunds), receivers and their
 * accounts, payment requests (create, follow, invoice, cancel), balance, cash-out with confirmation and the recent
 * cash-outs, then the sections of `sections.ts`, each shown to the roles it is for; a viewer gets no control that
 * moves money. Owns the session, the page's live region and the live stream that refreshes the lists; the other
 * elements report to it through events.
 */
@customElement('bo-app')
export class BoApp extends LitElement {
  static override styles = [shared, styles];

  /** `checking` until the session is known (neither sign-in nor desk shown); `enrolling`: only the enrolment (mfa/). */
  @state() private phase: 'checking' | 'signed-out' | 'enrolling' | 'signed-in' = 'checking';
  @state() private session?: Session;
  /** Why the sign-in is shown again, for its alert. */
  @state() private signInMessage = '';
  @state() private notice?: BoNoticeDetail;
  @state() private receiver?: ReceiverView;
  @state() private account?: ReceiverAccountView;
  @state() private currentId = '';
  @state() private checkoutId = '';
  @state() private sandbox = false;
  @query('bo-balance') private balance?: BoBalance;
  @query('bo-payment-requests') private requests?: BoPaymentRequests;
  @query('bo-payments') private payments?: BoPayments;
  @query('bo-cashouts') private cashouts?: BoCashouts;
  @query('bo-checkout-detail') private checkoutDetail?: BoCheckoutDetail;
  @query('bo-approvals') private approvals?: BoApprovals;
  private readonly api = new AdminApi(() => this.expire());
  private readonly live = new LiveRefresh(this, {
    checkout: () => void this.payments?.refresh(),
    cashout: () => {
      void this.cashouts?.refresh();
      // A refund is a cash-out: the list's refund column and the open payment show it.
      void this.payments?.refresh();
      void this.balance?.refresh();
      // A refund or cash-out waiting for an owner, or decided by another one.
      void this.approvals?.refresh();
    },
    any: () => void this.checkoutDetail?.refresh(),
  });

  override connectedCallback() {
    super.connectedCallback();
    void this.checkSession();
    void this.api.environment().then((provider) => (this.sandbox = provider === 'sandbox'));
    this.addEventListener('bo-notice', (e) => (this.notice = e.detail));
    this.addEventListener('bo-signed-in', (e) => void this.handleSignedIn(e));
    this.addEventListener('bo-mfa-enrolled', () => void this.handleEnrolled());
    this.api.stepUp = (methods) => this.renderRoot.querySelector('bo-step-up')?.ask(methods) ?? Promise.resolve(false);
    this.addEventListener('bo-account-selected', (e) => void this.handleAccount(e));
    this.addEventListener('bo-payment-request-created', (e) => void this.openRequest(e.detail.request.id));
    this.addEventListener('bo-payment-request-open', (e) => void this.openRequest(e.detail.id));
    this.addEventListener('bo-payment-request-changed', () => this.handleRequestChanged());
    this.addEventListener('bo-balance-changed', () => void this.balance?.refresh());
    this.addEventListener('bo-checkout-open', (e) => void this.openCheckout(e.detail.id));
    this.addEventListener('bo-cashout-created', () => {
      void this.cashouts?.refresh();
      // Above the approval threshold it waits for an owner.
      void this.approvals?.refresh();
    });
  }

  private get userRole(): Role {
    return this.session?.actor.role ?? 'viewer';
  }

  /** Signed in already (the cookie of an earlier visit)? A failure to ask shows the sign-in with the reason. */
  private async checkSession() {
    try {
      const session = await this.api.session();
      if (session) await this.start(session);
      else this.phase = 'signed-out';
    } catch (error) {
      this.signInMessage = (error as Error).message;
      this.phase = 'signed-out';
    }
  }

  /** Signed in: the desk and the live stream, or first the enrolment when the user must have a factor and has none. */
  private async start(session: Session) {
    this.session = session;
    this.signInMessage = '';
    this.phase = (await mustEnrol(this.api, session)) ? 'enrolling' : 'signed-in';
    if (this.phase === 'signed-in') this.live.start(this.api);
  }

  /** The enrolment that was all the page showed is done: now the desk, focus on its first area. */
  private async handleEnrolled() {
    if (this.phase !== 'enrolling') return;
    this.phase = 'signed-in';
    this.live.start(this.api);
    this.notice = { message: 'Segundo fator configurado.', tone: 'success' };
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#payments-area')?.focus({ preventScroll: true });
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

  private async handleSignedIn(event: BoEventMap['bo-signed-in']) {
    await this.start(event.detail.session).catch((error: Error) => this.leave(error.message));
    if (this.phase === 'signed-out') return;
    this.notice = { message: `Você entrou como ${roleLabel(this.userRole)}.`, tone: 'success' };
    await this.updateComplete;
    // While enrolling there is no desk: the enrolment takes focus itself (mfa/bo-mfa-setup.ts).
    this.renderRoot.querySelector<HTMLElement>('#payments-area')?.focus({ preventScroll: true });
  }

  /** Forgets everything of the session on the page, and shows the sign-in (with `message` in its alert). */
  private leave(message: string, notice?: BoNoticeDetail) {
    this.live.stop();
    this.session = undefined;
    this.phase = 'signed-out';
    this.signInMessage = message;
    this.checkoutId = '';
    this.receiver = undefined;
    this.account = undefined;
    this.currentId = '';
    this.notice = notice;
  }

  /** A call was refused for want of a session: it expired (12 h, or 30 min idle) or was ended elsewhere. */
  private expire() {
    if (this.phase === 'signed-in' || this.phase === 'enrolling') this.leave(EXPIRED);
  }

  private async signOut() {
    try {
      await this.api.signOut();
    } catch (error) {
      this.notice = { message: (error as Error).message, tone: 'error' };
      return;
    }
    this.leave('', { message: 'Você saiu do console.', tone: 'info' });
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

  private renderNav() {
    return html`<nav class="sections" aria-label="Seções do console">
      ${sectionsFor(this.userRole).map((s) => html`<a href="#${s.id}" @click=${(e: Event) => this.jump(e, s.id)}>${s.label}</a>`)}
      <span class="live" data-state=${this.live.state}>
        ${this.live.state === 'on' ? 'Atualização ao vivo' : this.live.state === 'off' ? 'Reconectando…' : 'Conectando…'}
      </span>
    </nav>`;
  }

  private renderDesk(api: AdminApi) {
    const role = this.userRole;
    const operator = hasRole(role, 'operator');
    return html`${this.renderNav()}
      <div class="wide">
        <div id="payments-area" class="area" tabindex="-1">
          <bo-payments .api=${api} .currentId=${this.checkoutId}></bo-payments>
        </div>
        ${this.checkoutId ? html`<bo-checkout-detail .api=${api} .role=${role} checkout-id=${this.checkoutId}></bo-checkout-detail>` : nothing}
      </div>
      <div class="desk">
        <div class="main">
          <div id="receivers-area" class="area" tabindex="-1">
            <bo-receivers .api=${api} .role=${role} .selectedAccountId=${this.account?.id}></bo-receivers>
          </div>
          ${operator ? html`<bo-payment-request-form .api=${api} .receiver=${this.receiver} .account=${this.account}></bo-payment-request-form>` : nothing}
          ${this.currentId ? html`<bo-payment-request .api=${api} .role=${role} request-id=${this.currentId}></bo-payment-request>` : nothing}
          <bo-payment-requests .api=${api} .currentId=${this.currentId}></bo-payment-requests>
        </div>
        <div class="side">
          <bo-balance .api=${api}></bo-balance>
          <div id="cashout-area" class="area stack" tabindex="-1">
            ${operator ? html`<bo-cashout-form .api=${api}></bo-cashout-form>` : nothing}
            <bo-cashouts .api=${api}></bo-cashouts>
          </div>
        </div>
      </div>
      ${sectionsFor(role).map((section) => renderSection(section, api, role))}`;
  }

  private renderWho(session: Session) {
    const { actor } = session;
    return html`<p class="who">
        <span class="name" data-testid="signed-in-as">${actor.kind === 'token' ? 'Token de API' : actor.name}</span>
        <span class="role" data-testid="signed-in-role">${roleLabel(actor.role)}</span>
      </p>
      <button class="secondary" type="button" @click=${() => this.signOut()}>Sair</button>`;
  }

  private renderMain() {
    if (this.phase === 'checking') return html`<p class="muted" role="status">Verificando a sessão…</p>`;
    if (this.phase === 'signed-out') return html`<bo-sign-in .api=${this.api} message=${this.signInMessage}></bo-sign-in>`;
    if (this.phase === 'enrolling') return html`<bo-mfa-setup forced .api=${this.api}></bo-mfa-setup>`;
    return this.renderDesk(this.api);
  }

  override render() {
    return html`
      <header class="top">
        <div class="brand">
          <h1>Console</h1>
          <p class="muted">Armazém Cerrado · pagamentos recebidos, pagamentos a empresas e transferências PIX</p>
        </div>
        ${this.sandbox ? html`<p class="env">Ambiente sandbox</p>` : nothing}
        ${(this.phase === 'signed-in' || this.phase === 'enrolling') && this.session ? this.renderWho(this.session) : nothing}
      </header>
      ${this.renderNotice()}
      <main>${this.renderMain()}</main>
      <bo-step-up .api=${this.api}></bo-step-up>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-app': BoApp;
  }
}
