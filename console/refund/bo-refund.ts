/**
 * The refund of a paid payment, inside its detail: what was paid, refunded and is left to refund, to whom (the payer,
 * CPF masked) or why it cannot be refunded, and the payment's refunds with their states. An operator or owner types
 * an amount (prefilled with all that is left, pt-BR "1.234,56", read exactly by core/money.ts), confirms it, and the
 * refund is sent, or waits for another owner's approval above the approval threshold. Each intended refund (a payment
 * and an amount) holds one Idempotency-Key (../intent-key.ts), kept while it is retried, reviewed again or confirmed
 * again after an error, so a double press, a retry or a lost answer makes one refund.
 */
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { formatMoney } from '../../core/money';
import { AdminApiError, type AdminApi, type CheckoutRefunds, type Role } from '../api';
import { hasRole } from '../../core/backoffice';
import { emit, notify } from '../events';
import { formatMoney6 } from '../format';
import { IntentKeys } from '../intent-key';
import shared from '../shared.styles';
import { confirmStep } from '../confirm/confirm-step';
import confirmStyles from '../confirm/confirm.styles';
import { Confirmation } from '../confirm/confirmation';
import { checkRefundAmount, typedAmount } from './refund-amount';
import { refundTable } from './refund-list';

/** Why a payment cannot be refunded, by the code the BFF gives. */
const REASONS: Record<string, string> = {
  checkout_not_paid: 'Este pagamento não foi concluído: não há valor a reembolsar.',
  payer_not_refundable: 'O provedor não informa um pagador com CPF para este pagamento; reembolse-o manualmente.',
  refund_exceeds_paid: 'Todo o valor pago já foi reembolsado ou está em reembolso.',
  refund_in_progress:
    'Um reembolso deste pagamento ainda está sendo enviado e o resultado não é conhecido. Aguarde a confirmação do provedor.',
  no_transaction: 'Este pagamento não tem transação no provedor.',
  provider_unavailable: 'O provedor não respondeu: não foi possível saber quem recebe o reembolso. Atualize em instantes.',
};
const reasonText = (reason: string | undefined) =>
  reason ? (REASONS[reason] ?? `Não é possível reembolsar este pagamento (${reason}).`) : 'Não há valor a reembolsar.';

/** The amount about to be refunded and the key that makes sending it twice impossible. */
interface Intent {
  amount: string;
  idempotencyKey: string;
  charges: string | null;
}

/**
 * @event bo-balance-changed - A refund was sent.
 * @event bo-cashout-created - A refund was made (sent, or waiting for approval). `detail: { cashOut }`
 * @event bo-notice - A status message for the page's live region.
 */
@customElement('bo-refund')
export class BoRefund extends LitElement {
  static override styles = [
    shared,
    confirmStyles,
    css`
      dl {
        display: grid;
        grid-template-columns: max-content 1fr;
        gap: 0.3rem 0.9rem;
        margin: 0 0 0.75rem;
      }
      dt {
        font-weight: 600;
      }
      dd {
        margin: 0;
        overflow-wrap: anywhere;
      }
      /* On a phone each fact takes its own lines: the term, then its value. */
      @media (max-width: 600px) {
        dl {
          grid-template-columns: minmax(0, 1fr);
          gap: 0 0;
        }
        dd {
          margin-bottom: 0.4rem;
        }
      }
      .field.amount {
        max-width: 18rem;
      }
      form {
        margin-bottom: 0.75rem;
      }
      h4 {
        font-size: 1rem;
        margin: 0.75rem 0 0.5rem;
      }
    `,
  ];

  /** The back-office API of the signed-in merchant. */
  @property({ attribute: false }) api?: AdminApi;
  /** The signed-in role: operators and owners refund, viewers see. A property only (the attribute is ARIA's). */
  @property({ attribute: false }) override role: Role = 'viewer';
  /** The payment (checkout) to refund. */
  @property({ attribute: 'checkout-id' }) checkoutId = '';

  @state() private summary?: CheckoutRefunds;
  @state() private loadError = '';
  @state() private fieldError = '';
  @state() private typed = '';
  /** After a refund that waits for an owner's approval: said beside the list, besides the page's notice. */
  @state() private waiting = '';
  private readonly keys = new IntentKeys();
  private readonly confirmation = new Confirmation<Intent>(this, { id: 'rf-confirm', back: () => '#rf-amount' });

  override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('checkoutId')) {
      this.summary = undefined;
      this.confirmation.close();
      this.waiting = '';
      this.typed = '';
    }
  }

  override updated(changed: PropertyValues<this>) {
    if ((changed.has('checkoutId') || changed.has('api')) && this.checkoutId) void this.refresh();
  }

  /** Reads again what is refundable and the refunds (the live stream moved something). */
  async refresh() {
    const api = this.api;
    const id = this.checkoutId;
    if (!api || !id) return;
    try {
      const summary = await api.checkoutRefunds(id);
      if (id !== this.checkoutId) return;
      // The amount is prefilled with what is left, until the merchant types another.
      if (!this.typed || this.summary?.refundable !== summary.refundable) this.typed = typedAmount(summary.refundable);
      this.summary = summary;
      this.loadError = '';
    } catch (error) {
      this.loadError = (error as Error).message;
    }
  }

  private async review(event: SubmitEvent) {
    event.preventDefault();
    const summary = this.summary;
    if (!summary || !this.api) return;
    const input = this.renderRoot.querySelector<HTMLInputElement>('#rf-amount');
    this.typed = input?.value ?? this.typed;
    const check = checkRefundAmount(this.typed, summary.refundable);
    if (check.error !== undefined) {
      this.fieldError = check.error;
      await this.updateComplete;
      input?.focus();
      return;
    }
    this.fieldError = '';
    const charges = await this.api
      .quote(check.amount)
      .then((q) => q.charges)
      .catch(() => summary.charges);
    await this.confirmation.ask({ amount: check.amount, idempotencyKey: this.keys.keyFor(`${this.checkoutId}:${check.amount}`), charges });
  }

  private async confirm() {
    const api = this.api;
    if (!api) return;
    await this.confirmation.run(
      async (intent) => {
        const refund = await api.refundCheckout(this.checkoutId, intent.amount, intent.idempotencyKey);
        this.keys.answered();
        this.typed = '';
        // A refund is a cash-out: the recent transfers list it, and the approvals when it waits for an owner.
        emit(this, 'bo-cashout-created', { cashOut: refund });
        if (refund.state === 'PendingApproval') {
          this.waiting = `Reembolso de ${formatMoney(refund.amount)}: aguardando aprovação de outro proprietário.`;
          notify(this, `Reembolso de ${formatMoney(refund.amount)} aguardando aprovação de outro proprietário.`, 'info');
        } else {
          this.waiting = '';
          notify(this, `Reembolso de ${formatMoney(refund.amount)} enviado para ${refund.recipient.name}.`, 'success');
          emit(this, 'bo-balance-changed', null);
        }
        await this.refresh();
        return '#rf-list-title';
      },
      // What is left changed meanwhile (another refund): show the new amounts; the key stays for a retry.
      (error) => {
        if (error instanceof AdminApiError && error.status === 409) void this.refresh();
      },
    );
  }

  private renderForm(s: CheckoutRefunds) {
    const error = this.fieldError;
    return html`<form @submit=${this.review} novalidate ?hidden=${!!this.confirmation.subject} aria-label="Reembolso">
      <div class="field amount">
          <label for="rf-amount">Valor do reembolso (R$)</label>
          <input id="rf-amount" name="amount" inputmode="decimal" autocomplete="off" .value=${this.typed}
            aria-invalid=${error ? 'true' : 'false'} aria-describedby="rf-amount-hint"
            @input=${(e: Event) => (this.typed = (e.target as HTMLInputElement).value)} />
          <p id="rf-amount-hint" class=${error ? 'error' : 'muted'}>${error || `Até ${formatMoney(s.refundable)}, por exemplo 1.234,56.`}</p>
      </div>
      <button class="danger" type="submit">Revisar reembolso</button>
    </form>`;
  }

  private renderConfirm(s: CheckoutRefunds, intent: Intent) {
    const body = html`<dl data-testid="refund-confirmation">
      <dt>Destinatário</dt>
      <dd>${s.recipient ? `${s.recipient.name} · CPF ${s.recipient.cpf}` : '—'}</dd>
      <dt>Chave PIX</dt>
      <dd>o CPF do pagador</dd>
      <dt>Valor</dt>
      <dd>${formatMoney(intent.amount)}</dd>
      <dt>Tarifa</dt>
      <dd>${intent.charges ? formatMoney6(intent.charges) : 'a do plano, conhecida após o envio'}</dd>
    </dl>`;
    return confirmStep(
      this.confirmation,
      { title: 'Confirme o reembolso', level: 4, body, confirm: 'Confirmar reembolso', busy: 'Enviando…', danger: true, frame: 'danger' },
      () => void this.confirm(),
    );
  }

  private renderAction(s: CheckoutRefunds) {
    if (!hasRole(this.role, 'operator')) {
      return html`<p class="muted">Reembolsos são feitos por operadores e proprietários.</p>`;
    }
    if (!s.recipient || s.refundable === '0.00' || !/^\d+\.\d{2}$/.test(s.refundable)) {
      return html`<p class="muted" data-testid="refund-unavailable">${reasonText(s.reason)}</p>`;
    }
    return html`${this.renderForm(s)}${this.confirmation.subject ? this.renderConfirm(s, this.confirmation.subject) : nothing}`;
  }

  override render() {
    const s = this.summary;
    return html`<section aria-labelledby="rf-title">
      <h3 id="rf-title">Reembolso</h3>
      ${this.loadError ? html`<p class="error" role="alert">${this.loadError}</p>` : nothing}
      ${
        s
          ? html`<dl data-testid="refund-summary">
                <dt>Pago</dt>
                <dd>${formatMoney(s.paid)}</dd>
                <dt>Reembolsado</dt>
                <dd>${formatMoney(s.refunded)}</dd>
                <dt>Disponível para reembolso</dt>
                <dd>${formatMoney(s.refundable)}</dd>
                <dt>Destinatário</dt>
                <dd>${s.recipient ? `${s.recipient.name} · CPF ${s.recipient.cpf}` : reasonText(s.reason)}</dd>
              </dl>
              ${this.renderAction(s)}
              ${this.waiting ? html`<p class="muted" data-testid="refund-waiting">${this.waiting}</p>` : nothing}
              <h4 id="rf-list-title" tabindex="-1">Reembolsos deste pagamento</h4>
              ${refundTable(s.data)}`
          : this.loadError
            ? nothing
            : html`<p class="muted">Carregando…</p>`
      }
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-refund': BoRefund;
  }
}
