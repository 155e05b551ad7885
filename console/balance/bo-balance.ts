import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { formatMoney } from '../../core/money';
import type { AdminApi } from '../api';
import { formatDate } from '../format';
import { Loading } from '../loading';
import shared from '../shared.styles';

type Balance = Awaited<ReturnType<AdminApi['balance']>>;

/**
 * The merchant's account balance, in pt-BR currency, with the day's credits and debits when the provider gives them.
 * Call `refresh()` after anything that moves money.
 */
@customElement('bo-balance')
export class BoBalance extends LitElement {
  static override styles = [
    shared,
    css`
      .amount {
        font-size: 1.9rem;
        font-weight: 700;
        margin: 0.25rem 0;
        font-variant-numeric: tabular-nums;
      }
      dl {
        display: grid;
        grid-template-columns: auto 1fr;
        gap: 0.15rem 0.75rem;
        margin: 0.5rem 0 0;
        font-size: 0.9rem;
      }
      dd {
        margin: 0;
        text-align: right;
        font-variant-numeric: tabular-nums;
      }
    `,
  ];

  @state() private balance?: Balance;
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
      this.balance = await api.balance();
    });
  }

  override render() {
    const b = this.balance;
    return html`
      <section class="card" aria-labelledby="balance-title" aria-busy=${this.loading.busy ? 'true' : 'false'}>
        <div class="head">
          <h2 id="balance-title">Saldo</h2>
          <button class="secondary small" type="button" @click=${() => this.refresh()} ?disabled=${this.loading.busy}>Atualizar</button>
        </div>
        ${
          b
            ? html`
              <p class="amount" data-testid="balance">${formatMoney(b.balance, { currency: b.currency })}</p>
              <p class="muted">Atualizado em ${formatDate(b.date)}</p>
              ${
                b.credits || b.debits || b.charges
                  ? html`<dl>
                    ${b.credits ? html`<dt>Entradas</dt><dd>${formatMoney(b.credits, { currency: b.currency })}</dd>` : nothing}
                    ${b.debits ? html`<dt>Saídas</dt><dd>${formatMoney(b.debits, { currency: b.currency })}</dd>` : nothing}
                    ${b.charges ? html`<dt>Tarifas</dt><dd>${formatMoney(b.charges, { currency: b.currency })}</dd>` : nothing}
                  </dl>`
                  : nothing
              }
            `
            : html`<p class="muted">${this.loading.error ? nothing : 'Carregando…'}</p>`
        }
        ${this.loading.error ? html`<p class="error" role="alert">${this.loading.error}</p>` : nothing}
      </section>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-balance': BoBalance;
  }
}
