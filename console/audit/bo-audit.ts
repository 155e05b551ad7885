/**
 * The audit trail (every role reads it): who did what, with which role, from which address, to what, and how it
 * ended, newest first, filtered by who, action, outcome and dates, "Carregar mais" for older lines (the BFF's `next`
 * cursor), and the filtered trail as a download: a pt-BR spreadsheet CSV or the technical CSV (ISO dates). The
 * downloads are plain links: the session cookie opens them.
 */
import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { AdminApi, AuditEntry, AuditFilters } from '../api';
import { dayOf, dayStart, formatDate, roleLabel } from '../format';
import { Loading } from '../loading';
import { loadError, sectionHead } from '../section';
import shared from '../shared.styles';
import { actionLabel, AUDIT_ACTIONS, AUDIT_GROUPS, AUDIT_OUTCOME_CHOICES, outcomeOf } from './audit-labels';

const PAGE_SIZE = 50;

@customElement('bo-audit')
export class BoAudit extends LitElement {
  static override styles = [
    shared,
    css`
      .filters .field {
        flex: 1 1 10rem;
      }
      .actions-row {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: 0.5rem 1rem;
        margin-bottom: 0.75rem;
      }
      a.download {
        color: var(--bo-color-primary, #1849a9);
        font-weight: 600;
      }
    `,
  ];

  /** The back-office API of the signed-in merchant. */
  @property({ attribute: false }) api?: AdminApi;

  @state() private entries?: AuditEntry[];
  @state() private next: number | null = null;
  @state() private filters: AuditFilters = {};
  @state() private more = false;
  private readonly loading = new Loading(this);

  override connectedCallback() {
    super.connectedCallback();
    void this.refresh();
  }

  /** Reads the newest page again with the filters applied. */
  async refresh() {
    const api = this.api;
    if (!api) return;
    await this.loading.run(async () => {
      const page = await api.audit(this.filters, undefined, PAGE_SIZE);
      this.entries = page.data;
      this.next = page.next;
    });
  }

  private async loadMore() {
    const api = this.api;
    const after = this.next;
    if (!api || after === null || this.more) return;
    this.more = true;
    const shown = this.entries?.length ?? 0;
    await this.loading.run(async () => {
      const page = await api.audit(this.filters, after, PAGE_SIZE);
      this.entries = [...(this.entries ?? []), ...page.data];
      this.next = page.next;
    });
    this.more = false;
    // Focus the first line just read, so a keyboard or screen-reader user goes on from there.
    await this.updateComplete;
    this.renderRoot.querySelectorAll<HTMLElement>('tbody tr')[shown]?.focus();
  }

  private handleFilter(event: SubmitEvent) {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const get = (name: string) => {
      const value = data.get(name);
      return typeof value === 'string' ? value.trim() : '';
    };
    const filters: AuditFilters = {};
    if (get('actor')) filters.actor = get('actor');
    if (get('action')) filters.action = get('action');
    if (get('outcome')) filters.outcome = get('outcome');
    const from = get('from') ? dayStart(get('from')) : undefined;
    const to = get('to') ? dayStart(get('to'), true) : undefined;
    if (from) filters.from = from;
    if (to) filters.to = to;
    this.filters = filters;
    void this.refresh();
  }

  private renderFilters() {
    const f = this.filters;
    return html`<form class="filters" @submit=${this.handleFilter} aria-label="Filtros da trilha de auditoria">
      <div class="row">
        <div class="field">
          <label for="au-actor">Quem (e-mail)</label>
          <input id="au-actor" name="actor" type="search" autocomplete="off" .value=${f.actor ?? ''} />
        </div>
        <div class="field">
          <label for="au-action">Ação</label>
          <select id="au-action" name="action">
            <option value="" ?selected=${!f.action}>Todas</option>
            <optgroup label="Por família">
              ${AUDIT_GROUPS.map((a) => html`<option value=${a.action} ?selected=${f.action === a.action}>${a.label}</option>`)}
            </optgroup>
            <optgroup label="Por ação">
              ${AUDIT_ACTIONS.map((a) => html`<option value=${a.action} ?selected=${f.action === a.action}>${a.label}</option>`)}
            </optgroup>
          </select>
        </div>
        <div class="field">
          <label for="au-outcome">Resultado</label>
          <select id="au-outcome" name="outcome">
            <option value="" ?selected=${!f.outcome}>Todos</option>
            ${AUDIT_OUTCOME_CHOICES.map((o) => html`<option value=${o.outcome} ?selected=${f.outcome === o.outcome}>${o.label}</option>`)}
          </select>
        </div>
      </div>
      <div class="row">
        <div class="field">
          <label for="au-from">De</label>
          <input id="au-from" name="from" type="date" .value=${dayOf(f.from)} />
        </div>
        <div class="field">
          <label for="au-to">Até</label>
          <input id="au-to" name="to" type="date" .value=${dayOf(f.to, true)} />
        </div>
      </div>
      <div class="actions-row">
        <button type="submit" ?disabled=${this.loading.busy}>Filtrar</button>
        ${this.renderExports()}
      </div>
    </form>`;
  }

  /** The downloads, with the filters applied to the table (not those typed and not yet applied). */
  private renderExports() {
    const api = this.api;
    if (!api) return nothing;
    return html`<span class="muted">Exportar:</span>
      <a class="download" href=${api.auditExportUrl(this.filters, 'csv')} download="auditoria.csv">Planilha (CSV pt-BR)</a>
      <a class="download" href=${api.auditExportUrl(this.filters, 'csv-iso')} download="auditoria-iso.csv">CSV técnico (ISO)</a>`;
  }

  private renderRow(e: AuditEntry) {
    const outcome = outcomeOf(e.outcome);
    return html`<tr tabindex="-1">
      <td data-label="Quando" class="nowrap">${formatDate(e.at)}</td>
      <td data-label="Quem">${e.actor}</td>
      <td data-label="Papel">${e.role ? roleLabel(e.role) : '—'}</td>
      <td data-label="Endereço">${e.ip ? html`<code>${e.ip}</code>` : '—'}</td>
      <td data-label="Ação">${actionLabel(e.action)}</td>
      <td data-label="Alvo">${e.target ? html`<code>${e.target}</code>` : '—'}</td>
      <td data-label="Resultado"><span class="pill" data-tone=${outcome.tone}>${outcome.label}</span></td>
    </tr>`;
  }

  override render() {
    const entries = this.entries;
    return html`<section class="card" aria-labelledby="au-title" aria-busy=${this.loading.busy ? 'true' : 'false'}>
      ${sectionHead('au-title', 'Trilha de auditoria', this.loading, () => void this.refresh())}
      ${this.renderFilters()}
      ${loadError(this.loading)}
      ${
        entries && entries.length > 0
          ? html`<div class="table-wrap"><table data-testid="audit-table">
                <caption class="sr-only">Trilha de auditoria, mais recentes primeiro</caption>
                <thead><tr><th>Quando</th><th>Quem</th><th>Papel</th><th>Endereço</th><th>Ação</th><th>Alvo</th><th>Resultado</th></tr></thead>
                <tbody>${entries.map((e) => this.renderRow(e))}</tbody>
              </table></div>
              ${
                this.next !== null
                  ? html`<div class="pager">
                      <button class="secondary" type="button" ?disabled=${this.loading.busy} @click=${this.loadMore}>
                        ${this.more ? 'Carregando…' : 'Carregar mais'}
                      </button>
                    </div>`
                  : html`<p class="muted">Fim da trilha${Object.keys(this.filters).length ? ' com esses filtros' : ''}.</p>`
              }`
          : html`<p class="muted">${entries ? 'Nada na trilha com esses filtros.' : 'Carregando…'}</p>`
      }
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-audit': BoAudit;
  }
}
