import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { formatCnpj } from '../../core/cpf';
import { hasRole, type ApprovalFilter, type ProviderPage, type ReceiverAccountView, type ReceiverView } from '../../core/backoffice';
import type { AdminApi, PageSize, Role } from '../api';
import { emit } from '../events';
import { approvalLabel, formatDate, toneOf } from '../format';
import { pager, pageSizeField } from '../pager';
import { Loading } from '../loading';
import shared from '../shared.styles';

/**
 * The companies registered to receive payments, filtered by approval status and paged 5/10/20 at a time, and the
 * bank accounts of the one the merchant opens. Only an approved receiver's account can be chosen for a payment, and
 * only by an operator or an owner. Receivers are registered and reviewed at the provider's portal, not here.
 *
 * @event bo-account-selected - The merchant chose an account to pay. `detail: { receiver, account }`.
 */
@customElement('bo-receivers')
export class BoReceivers extends LitElement {
  static override styles = [
    shared,
    css`
      .filters {
        margin-bottom: 0.5rem;
      }
      .accounts {
        margin-top: 1rem;
        padding-top: 0.25rem;
        border-top: 2px solid var(--bo-color-border, #d5dbe3);
      }
    `,
  ];

  @state() private page?: ProviderPage<ReceiverView>;
  @state() private status: ApprovalFilter | '' = 'Approved';
  @state() private limit: PageSize = 5;
  @state() private offset = 0;
  private readonly loading = new Loading(this);
  @state() private open?: ReceiverView;
  @state() private accounts?: ReceiverAccountView[];
  @state() private accountsError = '';

  /** The back-office API of the signed-in merchant. */
  @property({ attribute: false }) api?: AdminApi;
  /** Id of the account currently chosen for a payment, highlighted in the list. */
  @property({ attribute: false }) selectedAccountId?: string;
  /** The signed-in role: a viewer chooses no account to pay (a property only: the attribute is ARIA's). */
  @property({ attribute: false }) override role: Role = 'viewer';

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
  }

  /** Reloads the list (a receiver was registered or reviewed). */
  refresh() {
    return this.load();
  }

  private async load() {
    const api = this.api;
    if (!api) return;
    await this.loading.run(async () => {
      this.page = await api.receivers({ ...(this.status ? { status: this.status } : {}), limit: this.limit, offset: this.offset });
    });
  }

  private handleStatus(event: Event) {
    this.status = (event.target as HTMLSelectElement).value as ApprovalFilter | '';
    this.offset = 0;
    void this.load();
  }

  private handlePage(limit: PageSize, offset: number) {
    this.limit = limit;
    this.offset = offset;
    void this.load();
  }

  private async handleOpen(receiver: ReceiverView) {
    this.open = receiver;
    this.accounts = undefined;
    this.accountsError = '';
    try {
      this.accounts = (await this.api!.accounts(receiver.id)).items;
    } catch (error) {
      this.accountsError = (error as Error).message;
    }
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#accounts-title')?.focus();
  }

  private renderReceiver(r: ReceiverView) {
    return html`<tr aria-current=${this.open?.id === r.id ? 'true' : 'false'}>
      <td data-label="Empresa">${r.companyFantasyName}${r.reviewNote ? html`<div class="muted">${r.reviewNote}</div>` : nothing}</td>
      <td class="nowrap" data-label="CNPJ">${formatCnpj(r.companyCNPJ)}</td>
      <td data-label="Situação"><span class="pill" data-tone=${toneOf(r.receiverStatus)}>${approvalLabel(r.receiverStatus)}</span></td>
      <td class="nowrap" data-label="Cadastro">${formatDate(r.creationDate)}</td>
      <td class="actions">
        <button class="secondary small" type="button" @click=${() => this.handleOpen(r)} aria-label="Ver contas de ${r.companyFantasyName}">
          Ver contas
        </button>
      </td>
    </tr>`;
  }

  private renderAccounts(receiver: ReceiverView) {
    const payable = receiver.receiverStatus === 'Approved';
    const payer = hasRole(this.role, 'operator');
    return html`<section class="accounts" aria-labelledby="accounts-title">
      <h3 id="accounts-title" tabindex="-1">Contas de ${receiver.companyFantasyName}</h3>
      ${payable || !payer ? nothing : html`<p class="muted">Só é possível pagar recebedores aprovados.</p>`}
      ${this.accountsError ? html`<p class="error" role="alert">${this.accountsError}</p>` : nothing}
      ${
        !this.accounts
          ? html`<p class="muted">${this.accountsError ? nothing : 'Carregando contas…'}</p>`
          : this.accounts.length === 0
            ? html`<p class="muted">Nenhuma conta cadastrada.</p>`
            : html`<div class="table-wrap"><table>
              <thead><tr><th>Banco</th><th>Agência</th><th>Conta</th><th>Chave PIX</th>${
                payer ? html`<th><span class="sr-only">Ação</span></th>` : nothing
              }</tr></thead>
              <tbody>
                ${this.accounts.map(
                  (a) => html`<tr aria-current=${this.selectedAccountId === a.id ? 'true' : 'false'}>
                    <td data-label="Banco">${a.bankCode} · ${a.bankName}</td>
                    <td data-label="Agência">${a.accountAgency}</td>
                    <td class="nowrap" data-label="Conta">${a.accountNumber}</td>
                    <td class="nowrap" data-label="Chave PIX">${a.pixKeyType}: ${a.pixKeyType === 'CNPJ' ? formatCnpj(a.pixKey) : a.pixKey}</td>
                    ${
                      payer
                        ? html`<td class="actions">
                          <button class="small" type="button" ?disabled=${!payable}
                            aria-label="Pagar nesta conta: ${a.accountNumber} (${a.bankName})"
                            @click=${() => emit(this, 'bo-account-selected', { receiver, account: a })}>
                            Pagar nesta conta
                          </button>
                        </td>`
                        : nothing
                    }
                  </tr>`,
                )}
              </tbody>
            </table></div>`
      }
    </section>`;
  }

  override render() {
    const p = this.page;
    return html`
      <section class="card" aria-labelledby="receivers-title" aria-busy=${this.loading.busy ? 'true' : 'false'}>
        <h2 id="receivers-title">Recebedores</h2>
        <div class="row filters">
          <div class="field">
            <label for="receiver-status">Situação</label>
            <select id="receiver-status" @change=${this.handleStatus}>
              <option value="Approved" ?selected=${this.status === 'Approved'}>Aprovados</option>
              <option value="Pending" ?selected=${this.status === 'Pending'}>Pendentes</option>
              <option value="Denied" ?selected=${this.status === 'Denied'}>Recusados</option>
              <option value="" ?selected=${this.status === ''}>Todos</option>
            </select>
          </div>
          ${pageSizeField('receivers-limit', this.limit, (limit) => this.handlePage(limit, 0))}
        </div>
        ${this.loading.error ? html`<p class="error" role="alert">${this.loading.error}</p>` : nothing}
        ${
          p && p.items.length > 0
            ? html`<div class="table-wrap"><table>
                <caption class="sr-only">Recebedores cadastrados</caption>
                <thead><tr><th>Empresa</th><th>CNPJ</th><th>Situação</th><th>Cadastro</th><th><span class="sr-only">Ação</span></th></tr></thead>
                <tbody>${p.items.map((r) => this.renderReceiver(r))}</tbody>
              </table></div>
              ${pager(p, this.loading.busy, (offset) => this.handlePage(this.limit, offset), 'recebedores')}`
            : html`<p class="muted">${p ? 'Nenhum recebedor com essa situação.' : 'Carregando…'}</p>`
        }
        ${this.open ? this.renderAccounts(this.open) : nothing}
      </section>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-receivers': BoReceivers;
  }
}
