import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { METHOD_LABELS } from '../../core/method-labels';
import { METHODS } from '../../core/methods';
import { formatMoney } from '../../core/money';
import type { AdminApi, AdminCheckoutView, CheckoutFilters, CheckoutPage, CsvFormat } from '../api';
import { emit, notify } from '../events';
import { cashOutLabel, checkoutLabel, formatDate, methodLabel, toneOf } from '../format';
import { Loading } from '../loading';
import shared from '../shared.styles';

const STATES = [
  { value: '', label: 'Todas' },
  { value: 'Completed', label: 'Pagos' },
  { value: 'Created,Registered', label: 'Aguardando pagamento' },
  { value: 'Expired', label: 'Expirados' },
  { value: 'Error,Cancelled,Reversed', label: 'Com falha, cancelados ou estornados' },
];
const FLAGS = [
  { value: '', label: 'Todos' },
  { value: 'flagged', label: 'Duplicados ou atrasados' },
  { value: 'duplicate', label: 'Duplicados' },
  { value: 'late', label: 'Pagos após o prazo' },
];
const PAGE_SIZE = 10;

/** The start of a local calendar day (`<input type=date>`), as an instant; `next` gives the next day's start. */
function dayStart(day: string, next = false): string | undefined {
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return undefined;
  return new Date(y, m - 1, d + (next ? 1 : 0)).toISOString();
}

/**
 * The payments received: the shop's checkouts, newest first, filtered by state, method, dates, order and flags, ten
 * at a time by cursor; late and duplicate payments flagged, refunds shown; the filtered list exported as CSV. `<bo-app>`
 * calls `refresh()` when the live stream says something changed.
 *
 * @event bo-checkout-open - The merchant opened a payment's detail. `detail: { id }`
 */
@customElement('bo-payments')
export class BoPayments extends LitElement {
  static override styles = [
    shared,
    css`
      .filters .field {
        flex: 1 1 9rem;
      }
      .flags {
        display: flex;
        flex-wrap: wrap;
        gap: 0.25rem;
      }
      .actions-row {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem;
        margin-bottom: 0.75rem;
      }
      .actions-row select.export-format {
        width: auto;
      }
    `,
  ];

  @state() private page?: CheckoutPage;
  @state() private filters: CheckoutFilters = {};
  /** Cursors of the pages before the current one (`undefined` is the first page). */
  @state() private trail: (string | undefined)[] = [];
  @state() private cursor?: string;
  private readonly loading = new Loading(this);
  @state() private exporting = false;
  /** The export's form: a pt-BR spreadsheet (the default) or the technical CSV with ISO dates. */
  @state() private exportFormat: CsvFormat = 'csv';

  /** The back-office API of the signed-in merchant. */
  @property({ attribute: false }) api?: AdminApi;
  /** Id of the checkout whose detail is open, highlighted. */
  @property({ attribute: false }) currentId = '';

  override connectedCallback() {
    super.connectedCallback();
    void this.refresh();
  }

  /** Reloads the current page with the current filters. */
  async refresh() {
    const api = this.api;
    if (!api) return;
    await this.loading.run(async () => {
      this.page = await api.checkouts(this.filters, this.cursor, PAGE_SIZE);
    });
  }

  private filtersFrom(form: HTMLFormElement): CheckoutFilters {
    const data = new FormData(form);
    const get = (name: string) => {
      const value = data.get(name);
      return typeof value === 'string' ? value.trim() : '';
    };
    const from = get('from') ? dayStart(get('from')) : undefined;
    const to = get('to') ? dayStart(get('to'), true) : undefined;
    const filters: CheckoutFilters = {};
    if (get('state')) filters.state = get('state');
    if (get('method')) filters.method = get('method');
    if (get('flag')) filters.flag = get('flag');
    if (get('orderId')) filters.orderId = get('orderId');
    if (from) filters.from = from;
    if (to) filters.to = to;
    return filters;
  }

  private handleFilter(event: SubmitEvent) {
    event.preventDefault();
    this.filters = this.filtersFrom(event.target as HTMLFormElement);
    this.trail = [];
    this.cursor = undefined;
    void this.refresh();
  }

  private go(direction: 'older' | 'newer') {
    if (direction === 'older' && this.page?.nextCursor) {
      this.trail = [...this.trail, this.cursor];
      this.cursor = this.page.nextCursor;
    } else if (direction === 'newer') {
      this.cursor = this.trail.at(-1);
      this.trail = this.trail.slice(0, -1);
    }
    void this.refresh();
  }

  private async handleExport() {
    if (!this.api || this.exporting) return;
    const form = this.renderRoot.querySelector('form');
    const filters = form ? this.filtersFrom(form) : this.filters;
    this.exporting = true;
    try {
      const format = this.exportFormat;
      const blob = await this.api.exportCsv(filters, format);
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = `pagamentos-${format === 'csv-iso' ? 'iso-' : ''}${new Date().toISOString().slice(0, 10)}.csv`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
      notify(this, 'Exportação CSV pronta.', 'success');
    } catch (error) {
      notify(this, (error as Error).message, 'error');
    } finally {
      this.exporting = false;
    }
  }

  private renderFlags(c: AdminCheckoutView) {
    return html`<span class="flags">
      ${c.duplicateOf ? html`<span class="pill" data-tone="bad">Duplicado</span>` : nothing}
      ${c.late ? html`<span class="pill" data-tone="wait">Pago após o prazo</span>` : nothing}
      ${
        c.refund
          ? html`<span class="pill" data-tone=${toneOf(c.refund.state)}>Reembolso: ${cashOutLabel(c.refund.state).toLowerCase()}</span>`
          : nothing
      }
    </span>`;
  }

  private renderRow(c: AdminCheckoutView) {
    return html`<tr aria-current=${this.currentId === c.id ? 'true' : 'false'} data-order=${c.orderId}>
      <td data-label="Pedido" class="nowrap">${c.orderId}</td>
      <td data-label="Valor" class="num">${formatMoney(c.amount)}</td>
      <td data-label="Situação"><span class="pill" data-tone=${toneOf(c.state)}>${checkoutLabel(c.state)}</span></td>
      <td data-label="Meio">${methodLabel(c.method)}</td>
      <td data-label="Criado em" class="nowrap">${formatDate(c.createdAt)}</td>
      <td data-label="Pago em" class="nowrap">${formatDate(c.paidAt)}</td>
      <td data-label="Sinais">${this.renderFlags(c)}</td>
      <td class="actions">
        <button class="secondary small" type="button" aria-label="Detalhes do pagamento do pedido ${c.orderId}, ${checkoutLabel(c.state)}"
          @click=${() => emit(this, 'bo-checkout-open', { id: c.id })}>Detalhes</button>
      </td>
    </tr>`;
  }

  private renderFilters() {
    const f = this.filters;
    const day = (iso?: string, previous = false) => {
      if (!iso) return '';
      const date = new Date(Date.parse(iso) - (previous ? 1 : 0));
      return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
    };
    return html`<form class="filters" @submit=${this.handleFilter} aria-label="Filtros dos pagamentos">
      <div class="row">
        <div class="field">
          <label for="pay-state">Situação</label>
          <select id="pay-state" name="state">
            ${STATES.map((s) => html`<option value=${s.value} ?selected=${(f.state ?? '') === s.value}>${s.label}</option>`)}
          </select>
        </div>
        <div class="field">
          <label for="pay-method">Meio</label>
          <select id="pay-method" name="method">
            <option value="" ?selected=${!f.method}>Todos</option>
            ${METHODS.map((m) => html`<option value=${m} ?selected=${f.method === m}>${METHOD_LABELS[m]}</option>`)}
          </select>
        </div>
        <div class="field">
          <label for="pay-flag">Sinais</label>
          <select id="pay-flag" name="flag">
            ${FLAGS.map((s) => html`<option value=${s.value} ?selected=${(f.flag ?? '') === s.value}>${s.label}</option>`)}
          </select>
        </div>
      </div>
      <div class="row">
        <div class="field">
          <label for="pay-from">De</label>
          <input id="pay-from" name="from" type="date" .value=${day(f.from)} />
        </div>
        <div class="field">
          <label for="pay-to">Até</label>
          <input id="pay-to" name="to" type="date" .value=${day(f.to, true)} />
        </div>
        <div class="field">
          <label for="pay-order">Pedido</label>
          <input id="pay-order" name="orderId" type="search" autocomplete="off" .value=${f.orderId ?? ''} />
        </div>
      </div>
      <div class="actions-row">
        <button type="submit" ?disabled=${this.loading.busy}>Filtrar</button>
        <label class="sr-only" for="pay-export-format">Formato da exportação</label>
        <select id="pay-export-format" class="export-format"
          @change=${(e: Event) => (this.exportFormat = (e.target as HTMLSelectElement).value as CsvFormat)}>
          <option value="csv" ?selected=${this.exportFormat === 'csv'}>Planilha (CSV pt-BR)</option>
          <option value="csv-iso" ?selected=${this.exportFormat === 'csv-iso'}>CSV técnico (ISO)</option>
        </select>
        <button type="button" class="secondary" ?disabled=${this.exporting} @click=${this.handleExport}>
          ${this.exporting ? 'Exportando…' : 'Exportar CSV'}
        </button>
      </div>
    </form>`;
  }

  override render() {
    const p = this.page;
    const pageNumber = this.trail.length + 1;
    return html`
      <section class="card" id="payments" aria-labelledby="pay-title" aria-busy=${this.loading.busy ? 'true' : 'false'}>
        <h2 id="pay-title">Pagamentos recebidos</h2>
        ${this.renderFilters()}
        ${this.loading.error ? html`<p class="error" role="alert">${this.loading.error}</p>` : nothing}
        ${
          p && p.items.length > 0
            ? html`<div class="table-wrap"><table data-testid="payments-table">
                <caption class="sr-only">Pagamentos recebidos, mais recentes primeiro</caption>
                <thead><tr><th>Pedido</th><th class="num">Valor</th><th>Situação</th><th>Meio</th><th>Criado em</th><th>Pago em</th><th>Sinais</th><th><span class="sr-only">Ação</span></th></tr></thead>
                <tbody>${p.items.map((c) => this.renderRow(c))}</tbody>
              </table></div>
              <nav class="pager" aria-label="Páginas de pagamentos">
                <button class="secondary small" type="button" ?disabled=${this.loading.busy || this.trail.length === 0} @click=${() => this.go('newer')}>
                  Mais recentes
                </button>
                <span class="muted">Página ${pageNumber}</span>
                <button class="secondary small" type="button" ?disabled=${this.loading.busy || !p.nextCursor} @click=${() => this.go('older')}>
                  Mais antigos
                </button>
              </nav>`
            : html`<p class="muted">${p ? 'Nenhum pagamento com esses filtros.' : 'Carregando…'}</p>`
        }
      </section>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-payments': BoPayments;
  }
}
