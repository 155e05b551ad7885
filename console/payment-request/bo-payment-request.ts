import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { formatCnpj } from '../../core/cpf';
import { formatMoney } from '../../core/money';
import { hasRole, type PaymentRequestDetailView } from '../../core/backoffice';
import type { AdminApi, Role } from '../api';
import { emit, notify } from '../events';
import { approvalLabel, executionLabel, formatDate, toneOf } from '../format';
import '../invoice-upload/bo-invoice-upload';
import shared from '../shared.styles';
import { displayStatus, isSettled } from './status';

const POLL_MS = 2_000;

/**
 * One payment request followed live: its approval status and execution state (polled every 2 s until nothing can
 * change), the execution dates, the approval flow, its invoice and documents, and, for operators and owners, cancel
 * while Pending and the invoice upload. Approval is the provider's (in the demo, its sandbox portal's).
 *
 * @event bo-payment-request-changed - The status or execution state moved. `detail: { request }`.
 * @event bo-notice - A status message for the page's live region.
 */
@customElement('bo-payment-request')
export class BoPaymentRequest extends LitElement {
  static override styles = [
    shared,
    css`
      dl {
        display: grid;
        grid-template-columns: minmax(9rem, auto) 1fr;
        gap: 0.3rem 1rem;
        margin: 0 0 0.5rem;
      }
      dt {
        font-weight: 600;
        color: var(--bo-color-muted, #4b5565);
      }
      dd {
        margin: 0;
      }
      ol {
        margin: 0;
        padding-left: 1.25rem;
      }
      li {
        margin-bottom: 0.25rem;
      }
      .actions {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem;
        margin: 0.75rem 0;
      }
    `,
  ];

  @state() private detail?: PaymentRequestDetailView;
  @state() private error = '';
  @state() private busy = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private seen = '';

  /** The back-office API of the signed-in merchant. */
  @property({ attribute: false }) api?: AdminApi;
  /** Id of the payment request to show. */
  @property({ attribute: 'request-id' }) requestId = '';
  /** The signed-in role: a viewer gets no cancel and no upload (a property only: the attribute is ARIA's). */
  @property({ attribute: false }) override role: Role = 'viewer';

  override updated(changed: PropertyValues<this>) {
    if (changed.has('requestId')) {
      this.detail = undefined;
      this.seen = '';
      void this.load();
    }
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    clearTimeout(this.timer);
  }

  private async load() {
    clearTimeout(this.timer);
    const id = this.requestId;
    if (!this.api || !id) return;
    try {
      const detail = await this.api.paymentRequest(id);
      if (id !== this.requestId) return;
      this.detail = detail;
      this.error = '';
      const now = `${displayStatus(detail)}/${detail.entity.executionState ?? ''}`;
      if (this.seen && now !== this.seen) emit(this, 'bo-payment-request-changed', { request: detail.entity });
      this.seen = now;
    } catch (error) {
      this.error = (error as Error).message;
    }
    if (this.isConnected && id === this.requestId && !(this.detail && isSettled(this.detail))) {
      this.timer = setTimeout(() => void this.load(), POLL_MS);
    }
  }

  private async act(work: () => Promise<unknown>, done: string) {
    this.busy = true;
    try {
      await work();
      notify(this, done, 'success');
    } catch (error) {
      notify(this, (error as Error).message, 'error');
    } finally {
      this.busy = false;
    }
    await this.load();
  }

  private renderFacts(d: PaymentRequestDetailView) {
    const e = d.entity;
    const status = displayStatus(d);
    return html`<dl>
      <dt>Recebedor</dt><dd>${e.referencesInfo?.receiverName ?? e.refReceiver}</dd>
      <dt>Valor</dt><dd>${formatMoney(e.amount)}</dd>
      <dt>Descrição</dt><dd>${e.description}</dd>
      <dt>Chave PIX</dt><dd>${e.pixKeyType} ${e.pixKeyType === 'CNPJ' ? formatCnpj(e.pixKey) : e.pixKey}</dd>
      <dt>Aprovação</dt>
      <dd><span class="pill" data-tone=${toneOf(status)} data-testid="pr-status">${approvalLabel(status)}</span></dd>
      <dt>Execução</dt>
      <dd><span class="pill" data-tone=${toneOf(e.executionState)} data-testid="pr-execution">${executionLabel(e.executionState)}</span></dd>
      <dt>Execução iniciada</dt><dd>${formatDate(e.executionCreatedDate)}</dd>
      <dt>Registrada no banco</dt><dd>${formatDate(e.executionRegisteredDate)}</dd>
      <dt>Concluída</dt><dd>${formatDate(e.executionCompletedDate)}</dd>
      <dt>Transação</dt><dd>${e.refTransaction ? html`<code>${e.refTransaction}</code>` : '—'}</dd>
      <dt>Solicitação</dt><dd><code>${e.id}</code></dd>
    </dl>`;
  }

  private renderFlows(d: PaymentRequestDetailView) {
    return html`<h3>Fluxo de aprovação</h3>
      <ol>
        ${d.flows.map(
          (f) => html`<li>
            <span class="pill" data-tone=${toneOf(f.status)}>${approvalLabel(f.status)}</span>
            ${formatDate(f.date)} · ${f.userFullName} (${f.userRealm})${f.comment ? html` — “${f.comment}”` : nothing}
          </li>`,
        )}
      </ol>`;
  }

  override render() {
    const d = this.detail;
    const pending = d?.entity.status === 'Pending' && hasRole(this.role, 'operator');
    const live = d && !isSettled(d);
    return html`
      <section class="card" aria-labelledby="pr-title" aria-busy=${this.busy ? 'true' : 'false'}>
        <div class="head">
          <h2 id="pr-title" tabindex="-1">Solicitação de pagamento</h2>
          ${live ? html`<span class="muted">Atualizando a cada 2 s…</span>` : nothing}
        </div>
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
        ${
          !d
            ? html`<p class="muted">${this.error ? nothing : 'Carregando…'}</p>`
            : html`${this.renderFacts(d)}
              ${
                pending
                  ? html`<div class="actions">
                    <button class="danger" type="button" ?disabled=${this.busy}
                      @click=${() => this.act(() => this.api!.cancelPaymentRequest(d.entity.id), 'Solicitação cancelada.')}>
                      Cancelar solicitação
                    </button>
                  </div>`
                  : nothing
              }
              ${this.renderFlows(d)}
              <bo-invoice-upload .api=${this.api} .role=${this.role} request-id=${d.entity.id}></bo-invoice-upload>`
        }
      </section>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-payment-request': BoPaymentRequest;
  }
}
