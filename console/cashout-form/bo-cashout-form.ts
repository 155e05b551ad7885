import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { formatCpf, isValidCpf } from '../../core/cpf';
import { formatDecimal, formatMoney, MICRO_SCALE, microsOf, parseDecimal, parseTypedAmount, requireCents } from '../../core/money';
import type { PixKeyType } from '../../core/backoffice';
import type { AdminApi, CashOutInput } from '../api';
import { emit, notify } from '../events';
import { formatMoney6 } from '../format';
import { IntentKeys } from '../intent-key';
import shared from '../shared.styles';
import { confirmStep } from '../confirm/confirm-step';
import confirmStyles from '../confirm/confirm.styles';
import { Confirmation } from '../confirm/confirmation';

const KEY_TYPES: { value: PixKeyType; label: string; hint: string }[] = [
  { value: 'CPF', label: 'CPF', hint: '11 dígitos, por exemplo 529.982.247-25' },
  { value: 'EMAIL', label: 'E-mail', hint: 'por exemplo nome@exemplo.com.br' },
  { value: 'PHONE', label: 'Telefone', hint: '+55 seguido de DDD e número, por exemplo +5561912345678' },
  { value: 'EVP', label: 'Chave aleatória', hint: 'o identificador (UUID) da chave' },
];

/** What the merchant is about to send, with the key that makes sending it twice impossible. */
interface Pending {
  input: CashOutInput;
  keyLabel: string;
  /** Drawn once per intended cash-out (../intent-key.ts): a double click, a retry or the same confirmation again sends it. */
  idempotencyKey: string;
  charges: string | null;
}

/**
 * A PIX cash-out from the merchant's account to a PIX key, in two steps: the form, then a confirmation that shows the
 * recipient, the key, the amount and the plan's charges before anything is sent. Each intended cash-out holds one
 * Idempotency-Key, kept across retries and across going back and confirming the same cash-out again, so however often
 * "Confirmar transferência" is pressed, and whatever answer was lost, one cash-out is made.
 *
 * @event bo-cashout-created - A cash-out was created. `detail: { cashOut }`
 * @event bo-balance-changed - A cash-out was created (the balance moves).
 * @event bo-notice - A status message for the page's live region.
 */
@customElement('bo-cashout-form')
export class BoCashoutForm extends LitElement {
  static override styles = [
    shared,
    confirmStyles,
    css`
      dl {
        display: grid;
        grid-template-columns: auto 1fr;
        gap: 0.3rem 0.75rem;
        margin: 0 0 0.75rem;
      }
      dt {
        font-weight: 600;
      }
      dd {
        margin: 0;
        overflow-wrap: anywhere;
      }
    `,
  ];

  @state() private keyType: PixKeyType = 'CPF';
  @state() private errors: Record<string, string> = {};
  private readonly keys = new IntentKeys();
  private readonly confirmation = new Confirmation<Pending>(this, { id: 'co-confirm', back: () => '#co-keyValue' });

  /** The back-office API of the signed-in merchant. */
  @property({ attribute: false }) api?: AdminApi;

  private async handleReview(event: SubmitEvent) {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = Object.fromEntries([...new FormData(form)].map(([k, v]) => [k, typeof v === 'string' ? v.trim() : '']));
    const amount = parseTypedAmount(data.amount ?? '');
    const keyValue = this.keyType === 'CPF' ? (data.keyValue ?? '').replace(/\D/g, '') : (data.keyValue ?? '');
    this.errors = {
      ...(keyValue ? {} : { keyValue: 'Informe a chave PIX.' }),
      ...(this.keyType === 'CPF' && keyValue && !isValidCpf(keyValue) ? { keyValue: 'CPF da chave inválido.' } : {}),
      ...(data.name ? {} : { name: 'Informe o nome do destinatário.' }),
      ...(isValidCpf(data.cpf ?? '') ? {} : { cpf: 'Informe um CPF válido.' }),
      ...(amount ? {} : { amount: 'Informe um valor maior que zero, com até 2 casas decimais.' }),
    };
    if (Object.keys(this.errors).length > 0 || !amount || !this.api) {
      await this.updateComplete;
      form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    const input: CashOutInput = {
      recipient: { name: data.name!, cpf: (data.cpf ?? '').replace(/\D/g, '') },
      key: { type: this.keyType, value: keyValue },
      amount,
      ...(data.description ? { description: data.description } : {}),
    };
    const label = KEY_TYPES.find((k) => k.value === this.keyType)!.label;
    const charges = await this.api
      .quote(amount)
      .then((q) => q.charges)
      .catch(() => null);
    await this.confirmation.ask({
      input,
      keyLabel: `${label}: ${this.keyType === 'CPF' ? formatCpf(keyValue) : keyValue}`,
      idempotencyKey: this.keys.keyFor(JSON.stringify(input)),
      charges,
    });
  }

  private async handleConfirm() {
    const api = this.api;
    if (!api) return;
    await this.confirmation.run(async (pending) => {
      const cashOut = await api.cashOut(pending.input, pending.idempotencyKey);
      this.keys.answered();
      this.keyType = 'CPF';
      notify(this, `Transferência PIX de ${formatMoney(cashOut.amount)} para ${cashOut.recipient.name} criada.`, 'success');
      emit(this, 'bo-cashout-created', { cashOut });
      emit(this, 'bo-balance-changed', null);
      // Emptied once the key type shows CPF again, so the reset keeps it.
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLFormElement>('form')?.reset();
      return '#co-key-type';
    });
  }

  private field(name: string, label: string, attrs: { type?: string; hint?: string; inputmode?: string; autocomplete?: string } = {}) {
    const error = this.errors[name];
    return html`<div class="field">
      <label for="co-${name}">${label}</label>
      <input id="co-${name}" name=${name} type=${attrs.type ?? 'text'} inputmode=${attrs.inputmode ?? 'text'}
        autocomplete=${attrs.autocomplete ?? 'off'} aria-invalid=${error ? 'true' : 'false'} aria-describedby="co-${name}-hint" />
      <p id="co-${name}-hint" class=${error ? 'error' : 'muted'}>${error ?? attrs.hint ?? nothing}</p>
    </div>`;
  }

  private renderConfirm(p: Pending) {
    // The amount (ours, from parseTypedAmount) plus the quoted charges, exact at the provider's six decimals.
    const chargesMicros = p.charges ? parseDecimal(p.charges, MICRO_SCALE) : undefined;
    const total =
      chargesMicros === undefined ? undefined : formatDecimal(microsOf(requireCents(p.input.amount)) + chargesMicros, MICRO_SCALE);
    const body = html`<dl data-testid="cashout-confirmation">
      <dt>Destinatário</dt>
      <dd>${p.input.recipient.name} · CPF ${formatCpf(p.input.recipient.cpf)}</dd>
      <dt>Chave PIX</dt>
      <dd>${p.keyLabel}</dd>
      <dt>Valor</dt>
      <dd>${formatMoney(p.input.amount)}</dd>
      <dt>Tarifa</dt>
      <dd>${p.charges ? formatMoney6(p.charges) : 'a do plano, conhecida após o envio'}</dd>
      ${total ? html`<dt>Total debitado</dt><dd>${formatMoney6(total)}</dd>` : nothing}
      ${p.input.description ? html`<dt>Descrição</dt><dd>${p.input.description}</dd>` : nothing}
    </dl>`;
    return confirmStep(
      this.confirmation,
      { title: 'Confirme a transferência', body, confirm: 'Confirmar transferência', busy: 'Enviando…', back: 'Corrigir' },
      () => void this.handleConfirm(),
    );
  }

  override render() {
    const key = KEY_TYPES.find((k) => k.value === this.keyType)!;
    return html`
      <section class="card" aria-labelledby="co-title">
        <h2 id="co-title">Transferência PIX (cash-out)</h2>
        <form @submit=${this.handleReview} novalidate ?hidden=${!!this.confirmation.subject}>
          <div class="row">
            <div class="field narrow">
              <label for="co-key-type">Tipo de chave</label>
              <select id="co-key-type" @change=${(e: Event) => (this.keyType = (e.target as HTMLSelectElement).value as PixKeyType)}>
                ${KEY_TYPES.map((k) => html`<option value=${k.value} ?selected=${k.value === this.keyType}>${k.label}</option>`)}
              </select>
            </div>
            ${this.field('keyValue', 'Chave PIX', { hint: key.hint, type: this.keyType === 'EMAIL' ? 'email' : 'text' })}
          </div>
          ${this.field('name', 'Nome do destinatário', { autocomplete: 'name' })}
          <div class="row">
            ${this.field('cpf', 'CPF do destinatário', { inputmode: 'numeric' })}
            ${this.field('amount', 'Valor (R$)', { inputmode: 'decimal', hint: 'por exemplo 10,00' })}
          </div>
          ${this.field('description', 'Descrição (opcional)')}
          <button type="submit">Revisar transferência</button>
        </form>
        ${this.confirmation.subject ? this.renderConfirm(this.confirmation.subject) : nothing}
      </section>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-cashout-form': BoCashoutForm;
  }
}
