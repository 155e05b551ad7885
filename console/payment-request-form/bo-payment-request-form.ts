import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { formatCnpj } from '../../core/cpf';
import { formatMoney, parseTypedAmount } from '../../core/money';
import type { ReceiverView, ReceiverAccountView } from '../../core/backoffice';
import type { AdminApi } from '../api';
import { emit, notify } from '../events';
import shared from '../shared.styles';

/**
 * Creates a payment request (company payment) for the chosen receiver account: an amount with at most two decimals
 * and a description, sent once under its own idempotency key (a double click or a retry makes one request). The
 * request starts Pending and waits for the provider's approval; above the approval threshold the BFF keeps it for
 * another owner's approval first (Aprovações), and the provider gets nothing before.
 *
 * @event bo-payment-request-created - The provider created the request. `detail: { request }`.
 * @event bo-notice - A status message for the page's live region.
 */
@customElement('bo-payment-request-form')
export class BoPaymentRequestForm extends LitElement {
  static override styles = [
    shared,
    css`
      .target {
        margin: 0 0 0.75rem;
        padding: 0.5rem 0.75rem;
        background: var(--bo-color-selected, #eef4ff);
        border-radius: 8px;
      }
    `,
  ];

  @state() private amountError = '';
  @state() private descriptionError = '';
  @state() private error = '';
  @state() private busy = false;
  /** The last request sent and its key: sent again unchanged (a retry after a failure), it keeps its key. */
  private pending?: { sent: string; key: string };

  /** The back-office API of the signed-in merchant. */
  @property({ attribute: false }) api?: AdminApi;
  /** The approved receiver to pay. */
  @property({ attribute: false }) receiver?: ReceiverView;
  /** Its bank account that receives the payment. */
  @property({ attribute: false }) account?: ReceiverAccountView;

  private async handleSubmit(event: SubmitEvent) {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    const field = (name: string) => {
      const value = data.get(name);
      return typeof value === 'string' ? value : '';
    };
    const amount = parseTypedAmount(field('amount'));
    const description = field('description').trim();
    this.amountError = amount ? '' : 'Informe um valor maior que zero, com até 2 casas decimais (por exemplo 150,00).';
    this.descriptionError = description ? '' : 'Informe uma descrição.';
    if (!amount || !description || !this.receiver || !this.account || !this.api) {
      form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    this.busy = true;
    this.error = '';
    try {
      const input = { amount, description, receiverId: this.receiver.id, accountId: this.account.id };
      const sent = JSON.stringify(input);
      if (this.pending?.sent !== sent) this.pending = { sent, key: crypto.randomUUID() };
      const request = await this.api.createPaymentRequest(input, this.pending.key);
      this.pending = undefined;
      form.reset();
      if ('kind' in request) {
        notify(
          this,
          `Solicitação de pagamento de ${formatMoney(request.amount)} guardada: aguardando a aprovação de outro proprietário.`,
          'success',
        );
      } else {
        notify(this, `Solicitação de pagamento de ${formatMoney(request.amount)} criada: aguardando aprovação.`, 'success');
        emit(this, 'bo-payment-request-created', { request });
      }
    } catch (error) {
      this.error = (error as Error).message;
    } finally {
      this.busy = false;
    }
  }

  override render() {
    const { receiver, account } = this;
    return html`
      <section class="card" aria-labelledby="pr-form-title">
        <h2 id="pr-form-title">Nova solicitação de pagamento</h2>
        ${
          receiver && account
            ? html`<p class="target" data-testid="pr-target">
                Para <strong>${receiver.companyFantasyName}</strong> (${formatCnpj(receiver.companyCNPJ)}) · ${account.bankName},
                agência ${account.accountAgency}, conta ${account.accountNumber}
              </p>
              <form @submit=${this.handleSubmit} novalidate>
                <div class="row">
                  <div class="field">
                    <label for="pr-amount">Valor (R$)</label>
                    <input id="pr-amount" name="amount" inputmode="decimal" autocomplete="off" placeholder="150,00"
                      aria-invalid=${this.amountError ? 'true' : 'false'} aria-describedby="pr-amount-error" />
                    <p id="pr-amount-error" class="error">${this.amountError || nothing}</p>
                  </div>
                  <div class="field">
                    <label for="pr-description">Descrição</label>
                    <input id="pr-description" name="description" maxlength="140" autocomplete="off"
                      aria-invalid=${this.descriptionError ? 'true' : 'false'} aria-describedby="pr-description-error" />
                    <p id="pr-description-error" class="error">${this.descriptionError || nothing}</p>
                  </div>
                </div>
                ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
                <button type="submit" ?disabled=${this.busy}>${this.busy ? 'Criando…' : 'Criar solicitação'}</button>
              </form>`
            : html`<p class="muted">Escolha um recebedor aprovado e uma das contas dele em “Recebedores”.</p>`
        }
      </section>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-payment-request-form': BoPaymentRequestForm;
  }
}
