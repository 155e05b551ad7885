import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { formatMoney } from '../../core/money';
import type { AdminApi, CashOutView } from '../api';
import { cashOutLabel, formatDate, formatMoney6, toneOf } from '../format';
import { Loading } from '../loading';
import shared from '../shared.styles';

/**
 * The recent cash-outs and refunds with their states (re-read at the provider by the BFF), refreshed live by
 * `<bo-app>`. Read-only: what the bank decides arrives by the provider's webhooks (in the demo, its sandbox portal
 * plays the bank).
 */
@customElement('bo-cashouts')
export class BoCashouts extends LitElement {
  static override styles = [
    shared,
    css`
      .table-wrap:focus-visible {
        outline: 3px solid var(--bo-color-focus, #f79009);
        outline-offset: 2px;
      }
    `,
  ];

  @state() private items?: CashOutView[];
  private readonly loading = new Loading(this);

  /** The back-office API of the signed-in merchant. */
  @property({ attribute: false }) api?: AdminApi;

  override connectedCallback() {
    super.connectedCallback();
    void this.refresh();
  }

  async refresh() {
    const api = this.api;
    if (!api) return;
    await this.loading.run(async () => {
      this.items = (await api.cashOuts(10)).items;
    });
  }

  private renderRow(c: CashOutView) {
    return html`<tr data-transaction=${c.transactionId ?? ''}>
      <td data-label="Destinatário">${c.recipient.name}${c.refundOf ? html`<div class="muted">Reembolso de pagamento duplicado</div>` : nothing}</td>
      <td data-label="Chave" class="nowrap">${c.key.type}: ${c.key.value}</td>
      <td data-label="Valor" class="num">${formatMoney(c.amount)}</td>
      <td data-label="Tarifa" class="num">${formatMoney6(c.charges)}</td>
      <td data-label="Situação"><span class="pill" data-tone=${toneOf(c.state)} data-testid="cashout-state">${cashOutLabel(c.state)}</span></td>
      <td data-label="Criada em" class="nowrap">${formatDate(c.createdAt)}</td>
    </tr>`;
  }

  override render() {
    const items = this.items;
    return html`
      <section class="card" aria-labelledby="cos-title" aria-busy=${this.loading.busy ? 'true' : 'false'}>
        <div class="head">
          <h2 id="cos-title">Transferências recentes</h2>
          <button class="secondary small" type="button" ?disabled=${this.loading.busy} @click=${() => this.refresh()}>Atualizar</button>
        </div>
        ${this.loading.error ? html`<p class="error" role="alert">${this.loading.error}</p>` : nothing}
        ${
          items && items.length > 0
            ? // Focusable, so a keyboard scrolls it too when it is wider than its column (it holds no button to focus).
              html`<div class="table-wrap" tabindex="0" role="group" aria-labelledby="cos-title"><table>
                <caption class="sr-only">Transferências PIX recentes</caption>
                <thead><tr><th>Destinatário</th><th>Chave</th><th class="num">Valor</th><th class="num">Tarifa</th><th>Situação</th><th>Criada em</th></tr></thead>
                <tbody>${items.map((c) => this.renderRow(c))}</tbody>
              </table></div>`
            : html`<p class="muted">${items ? 'Nenhuma transferência ainda.' : 'Carregando…'}</p>`
        }
      </section>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-cashouts': BoCashouts;
  }
}
