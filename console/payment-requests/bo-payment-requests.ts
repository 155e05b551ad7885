import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { formatMoney } from '../../core/money';
import type { ApprovalFilter, PaymentRequestView, ProviderPage } from '../../core/backoffice';
import type { AdminApi, PageSize } from '../api';
import { emit } from '../events';
import { approvalLabel, executionLabel, toneOf } from '../format';
import { pager, pageSizeField } from '../pager';
import { Loading } from '../loading';
import shared from '../shared.styles';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The payment requests of the last 7 days with one approval status at a time (the provider lists no other way),
 * paged 5/10/20. Call `refresh()` after creating or deciding one.
 *
 * @event bo-payment-request-open - The merchant wants to follow one request. `detail: { id }`.
 */
@customElement('bo-payment-requests')
export class BoPaymentRequests extends LitElement {
  static override styles = [
    shared,
    css`
      td.description {
        max-width: 16rem;
        overflow-wrap: anywhere;
      }
    `,
  ];

  @state() private page?: ProviderPage<PaymentRequestView>;
  @state() private status: ApprovalFilter = 'Pending';
  @state() private limit: PageSize = 5;
  @state() private offset = 0;
  private readonly loading = new Loading(this);

  /** The back-office API of the signed-in merchant. */
  @property({ attribute: false }) api?: AdminApi;
  /** Id of the request shown in detail, highlighted in the list. */
  @property({ attribute: false }) currentId?: string;

  override connectedCallback() {
    super.connectedCallback();
    void this.refresh();
  }

  async refresh() {
    const api = this.api;
    if (!api) return;
    const now = Date.now();
    await this.loading.run(async () => {
      this.page = await api.paymentRequests({
        status: this.status,
        startDate: new Date(now - 7 * DAY_MS).toISOString(),
        endDate: new Date(now).toISOString(),
        limit: this.limit,
        offset: this.offset,
      });
    });
  }

  private handleStatus(event: Event) {
    this.status = (event.target as HTMLSelectElement).value as ApprovalFilter;
    this.offset = 0;
    void this.refresh();
  }

  private handlePage(limit: PageSize, offset: number) {
    this.limit = limit;
    this.offset = offset;
    void this.refresh();
  }

  private renderRow(r: PaymentRequestView) {
    return html`<tr aria-current=${this.currentId === r.id ? 'true' : 'false'}>
      <td data-label="Recebedor">${r.referencesInfo?.receiverName ?? r.refReceiver}</td>
      <td class="description" data-label="Descrição">${r.description}</td>
      <td class="num" data-label="Valor">${formatMoney(r.amount)}</td>
      <td data-label="Aprovação"><span class="pill" data-tone=${toneOf(r.status)}>${approvalLabel(r.status)}</span></td>
      <td data-label="Execução"><span class="pill" data-tone=${toneOf(r.executionState)}>${executionLabel(r.executionState)}</span></td>
      <td class="actions">
        <button class="secondary small" type="button" aria-label="Acompanhar ${r.description}"
          @click=${() => emit(this, 'bo-payment-request-open', { id: r.id })}>Acompanhar</button>
      </td>
    </tr>`;
  }

  override render() {
    const p = this.page;
    return html`
      <section class="card" aria-labelledby="prs-title" aria-busy=${this.loading.busy ? 'true' : 'false'}>
        <div class="head">
          <h2 id="prs-title">Solicitações dos últimos 7 dias</h2>
          <button class="secondary small" type="button" ?disabled=${this.loading.busy} @click=${() => this.refresh()}>Atualizar</button>
        </div>
        <div class="row">
          <div class="field">
            <label for="prs-status">Situação</label>
            <select id="prs-status" @change=${this.handleStatus}>
              <option value="Pending" ?selected=${this.status === 'Pending'}>Pendentes</option>
              <option value="Approved" ?selected=${this.status === 'Approved'}>Aprovadas</option>
              <option value="Denied" ?selected=${this.status === 'Denied'}>Recusadas ou canceladas</option>
            </select>
          </div>
          ${pageSizeField('prs-limit', this.limit, (limit) => this.handlePage(limit, 0))}
        </div>
        ${this.loading.error ? html`<p class="error" role="alert">${this.loading.error}</p>` : nothing}
        ${
          p && p.items.length > 0
            ? html`<div class="table-wrap"><table>
                <caption class="sr-only">Solicitações de pagamento</caption>
                <thead><tr><th>Recebedor</th><th>Descrição</th><th class="num">Valor</th><th>Aprovação</th><th>Execução</th><th><span class="sr-only">Ação</span></th></tr></thead>
                <tbody>${p.items.map((r) => this.renderRow(r))}</tbody>
              </table></div>
              ${pager(p, this.loading.busy, (offset) => this.handlePage(this.limit, offset), 'solicitações')}`
            : html`<p class="muted">${p ? 'Nenhuma solicitação com essa situação nos últimos 7 dias.' : 'Carregando…'}</p>`
        }
      </section>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-payment-requests': BoPaymentRequests;
  }
}
