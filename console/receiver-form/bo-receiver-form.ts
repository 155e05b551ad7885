import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { formatCnpj, isValidCnpj } from '../../core/cpf';
import type { Receiver, ReceiverAccount } from '../../server/provider/schemas';
import type { AdminApi } from '../api';
import { emit, notify } from '../events';
import { approvalLabel, toneOf } from '../format';
import shared from '../shared.styles';

interface Registered {
  receiver: Receiver;
  account: ReceiverAccount;
}

/**
 * Sandbox only: registers a company to receive payments and its bank account, then approves or rejects it, as the
 * provider's administration portal would (the partner API has no route for it). Shown by `<bo-app>` only when the
 * emulator's admin routes answer.
 *
 * @event bo-receivers-changed - A receiver was registered or reviewed. `detail: { receiver }`
 * @event bo-notice - A status message for the page's live region.
 */
@customElement('bo-receiver-form')
export class BoReceiverForm extends LitElement {
  static override styles = [
    shared,
    css`
      fieldset {
        border: 1px solid var(--bo-color-border, #d5dbe3);
        border-radius: 8px;
        margin: 0 0 0.75rem;
        padding: 0.5rem 0.75rem 0;
      }
      legend {
        font-weight: 700;
        padding: 0 0.25rem;
      }
      .result {
        margin-top: 0.75rem;
        padding: 0.6rem 0.8rem;
        border-radius: 8px;
        background: var(--bo-color-selected, #eef4ff);
      }
      .actions {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem;
      }
    `,
  ];

  /** The back-office API of the signed-in merchant. */
  @property({ attribute: false }) api?: AdminApi;

  @state() private errors: Record<string, string> = {};
  @state() private error = '';
  @state() private busy = false;
  @state() private registered?: Registered;

  private async handleSubmit(event: SubmitEvent) {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = Object.fromEntries([...new FormData(form)].map(([k, v]) => [k, typeof v === 'string' ? v.trim() : '']));
    const cnpj = (data.cnpj ?? '').replace(/\D/g, '');
    this.errors = {
      ...(data.name ? {} : { name: 'Informe o nome fantasia.' }),
      ...(isValidCnpj(cnpj) ? {} : { cnpj: 'Informe um CNPJ válido.' }),
      ...(/^\d{3}$/.test(data.bankCode ?? '') ? {} : { bankCode: 'Três dígitos, por exemplo 341.' }),
      ...(data.bankName ? {} : { bankName: 'Informe o nome do banco.' }),
      ...(/^\d{1,6}(-?[\dxX])?$/.test(data.agency ?? '') ? {} : { agency: 'Só dígitos, por exemplo 0001.' }),
      ...(/^\d{1,20}(-?[\dxX])?$/.test(data.account ?? '') ? {} : { account: 'Dígitos e o dígito verificador, por exemplo 12345-6.' }),
    };
    if (Object.keys(this.errors).length > 0 || !this.api) {
      await this.updateComplete;
      form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    this.busy = true;
    this.error = '';
    try {
      const { data: receiver } = await this.api.createReceiver({ companyFantasyName: data.name!, companyCNPJ: cnpj });
      const { data: account } = await this.api.addAccount(receiver.id, {
        bankCode: data.bankCode!,
        bankName: data.bankName!,
        accountAgency: data.agency!,
        accountNumber: data.account!,
      });
      this.registered = { receiver, account };
      form.reset();
      notify(
        this,
        `Recebedor ${receiver.companyFantasyName} cadastrado com a conta ${account.accountNumber}: aguardando aprovação.`,
        'success',
      );
      emit(this, 'bo-receivers-changed', { receiver });
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('#rf-result-title')?.focus();
    } catch (error) {
      this.error = (error as Error).message;
    } finally {
      this.busy = false;
    }
  }

  private async review(decision: 'approve' | 'reject') {
    const current = this.registered;
    if (!current || !this.api) return;
    this.busy = true;
    try {
      const { data: receiver } = await this.api.reviewReceiver(current.receiver.id, decision);
      this.registered = { ...current, receiver };
      notify(this, `Recebedor ${receiver.companyFantasyName} ${decision === 'approve' ? 'aprovado' : 'recusado'} (sandbox).`, 'success');
      emit(this, 'bo-receivers-changed', { receiver });
    } catch (error) {
      notify(this, (error as Error).message, 'error');
    } finally {
      this.busy = false;
    }
  }

  private field(name: string, label: string, attrs: { hint?: string; inputmode?: string } = {}) {
    const error = this.errors[name];
    return html`<div class="field">
      <label for="rf-${name}">${label}</label>
      <input id="rf-${name}" name=${name} inputmode=${attrs.inputmode ?? 'text'} autocomplete="off"
        aria-invalid=${error ? 'true' : 'false'} aria-describedby="rf-${name}-hint" />
      <p id="rf-${name}-hint" class=${error ? 'error' : 'muted'}>${error ?? attrs.hint ?? nothing}</p>
    </div>`;
  }

  private renderResult(r: Registered) {
    const pending = r.receiver.receiverStatus === 'Pending';
    return html`<section class="result" aria-labelledby="rf-result-title">
      <h3 id="rf-result-title" tabindex="-1">${r.receiver.companyFantasyName}</h3>
      <p>
        CNPJ ${formatCnpj(r.receiver.companyCNPJ)} · conta ${r.account.accountNumber} (${r.account.bankName}) ·
        <span class="pill" data-tone=${toneOf(r.receiver.receiverStatus)} data-testid="rf-status">${approvalLabel(r.receiver.receiverStatus)}</span>
      </p>
      ${
        pending
          ? html`<div class="actions">
              <button type="button" ?disabled=${this.busy} @click=${() => this.review('approve')}>Aprovar recebedor</button>
              <button type="button" class="danger" ?disabled=${this.busy} @click=${() => this.review('reject')}>Recusar recebedor</button>
            </div>`
          : html`<p class="muted">
              ${
                r.receiver.receiverStatus === 'Approved'
                  ? 'Aprovado: já pode receber pagamentos (veja em Recebedores).'
                  : 'Recusado: não pode receber pagamentos.'
              }
            </p>`
      }
    </section>`;
  }

  override render() {
    return html`
      <section class="card" aria-labelledby="rf-title">
        <h2 id="rf-title">Cadastrar recebedor (sandbox)</h2>
        <p class="muted">No provedor real, recebedores são cadastrados e aprovados no portal; aqui o emulador faz esse papel.</p>
        <form @submit=${this.handleSubmit} novalidate>
          <fieldset>
            <legend>Empresa</legend>
            <div class="row">
              ${this.field('name', 'Nome fantasia')}
              ${this.field('cnpj', 'CNPJ', { inputmode: 'numeric', hint: 'por exemplo 11.222.333/0001-81' })}
            </div>
          </fieldset>
          <fieldset>
            <legend>Conta bancária</legend>
            <div class="row">
              ${this.field('bankCode', 'Código do banco', { inputmode: 'numeric', hint: 'três dígitos' })}
              ${this.field('bankName', 'Nome do banco')}
            </div>
            <div class="row">
              ${this.field('agency', 'Agência', { inputmode: 'numeric' })}
              ${this.field('account', 'Número da conta', { hint: 'com o dígito, por exemplo 12345-6' })}
            </div>
          </fieldset>
          ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
          <button type="submit" ?disabled=${this.busy}>${this.busy ? 'Cadastrando…' : 'Cadastrar recebedor'}</button>
        </form>
        ${this.registered ? this.renderResult(this.registered) : nothing}
      </section>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-receiver-form': BoReceiverForm;
  }
}
