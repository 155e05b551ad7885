import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { formatMoney } from '../../core/money';
import { isFinalTransactionState } from '../../core/states';
import type { AdminApi, CashOutView } from '../api';
import { emit, notify } from '../events';
import { cashOutLabel, formatDate, formatMoney6, toneOf } from '../format';
import { Loading } from '../loading';
import shared from '../shared.styles';

const CONTROLS = [
  { operation: 'complete', label: 'Concluir', done: 'concluída' },
  { operation: 'error', label: 'Falhar', done: 'marcada com erro' },
  { operation: 'cancel', label: 'Cancelar', done: 'cancelada' },
] as const;

/**
 * The recent cash-outs and refunds with their states (re-read at the provider by the BFF), refreshed live by
 * `<bo-app>`; in sandbox mode each one still moving gets the bank's decisions: complete, fail, cancel.
 *
 * @event bo-balance-changed - A sandbox decision moved money.
 * @event bo-notice - A status message for the page's live region.
 */
@customElement('bo-cashouts')
export class BoCashouts extends LitElement {
  static override styles = [
    shared,
    css`
      .controls {
        display: flex;
        flex-wrap: wrap;
        gap: 0.35rem;
      }
    `,
  ];

  @state() private items?: CashOutView[];
  private readonly loading = new Loading(this);
  @state() private acting = '';

  /** The back-office API of the signed-in merchant. */
  @property({ attribute: false }) api?: AdminApi;
  /** Shows the sandbox's controls. */
  @property({ type: Boolean }) sandbox = false;

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

  private async control(c: CashOutView, operation: (typeof CONTROLS)[number]) {
    if (!this.api || !c.transactionId) return;
    this.acting = c.idempotencyKey;
    try {
      await this.api.cashOutControl(c.transactionId, operation.operation);
      notify(this, `Transferência de ${formatMoney(c.amount)} para ${c.recipient.name} ${operation.done} (sandbox).`, 'success');
      emit(this, 'bo-balance-changed', null);
      await this.refresh();
    } catch (error) {
      notify(this, (error as Error).message, 'error');
    } finally {
      this.acting = '';
    }
  }

  private renderRow(c: CashOutView) {
    const moving = !!c.transactionId && !isFinalTransactionState(c.state) && c.state !== 'Sending';
    const who = `${formatMoney(c.amount)} para ${c.recipient.name}`;
    return html`<tr>
      <td data-label="Destinatário">${c.recipient.name}${c.refundOf ? html`<div class="muted">Reembolso de pagamento duplicado</div>` : nothing}</td>
      <td data-label="Chave" class="nowrap">${c.key.type}: ${c.key.value}</td>
      <td data-label="Valor" class="num">${formatMoney(c.amount)}</td>
      <td data-label="Tarifa" class="num">${formatMoney6(c.charges)}</td>
      <td data-label="Situação"><span class="pill" data-tone=${toneOf(c.state)} data-testid="cashout-state">${cashOutLabel(c.state)}</span></td>
      <td data-label="Criada em" class="nowrap">${formatDate(c.createdAt)}</td>
      ${
        this.sandbox
          ? html`<td class="actions">
              ${
                moving
                  ? html`<div class="controls">
                      ${CONTROLS.map(
                        (op) =>
                          html`<button class="secondary small" type="button" ?disabled=${this.acting !== ''}
                            aria-label="${op.label} transferência de ${who}" @click=${() => this.control(c, op)}>${op.label}</button>`,
                      )}
                    </div>`
                  : nothing
              }
            </td>`
          : nothing
      }
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
        ${this.sandbox ? html`<p class="muted">Sandbox: conclua, falhe ou cancele uma transferência como o banco faria.</p>` : nothing}
        ${this.loading.error ? html`<p class="error" role="alert">${this.loading.error}</p>` : nothing}
        ${
          items && items.length > 0
            ? html`<div class="table-wrap"><table>
                <caption class="sr-only">Transferências PIX recentes</caption>
                <thead><tr><th>Destinatário</th><th>Chave</th><th class="num">Valor</th><th class="num">Tarifa</th><th>Situação</th><th>Criada em</th>${
                  this.sandbox ? html`<th><span class="sr-only">Ações (sandbox)</span></th>` : nothing
                }</tr></thead>
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
