import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { isValidCpf } from '../../../core/cpf';
import { formatMoney, parseTypedAmount } from '../../../core/money';
import { isFinalTransactionState } from '../../../core/states';
import type { PixKeyType } from '../../../server/provider/schemas';
import type { AdminApi } from '../api';
import { emit, notify } from '../events';
import { executionLabel, formatDate, toneOf } from '../format';
import shared from '../shared.styles';

const KEY_TYPES: { value: PixKeyType; label: string; hint: string }[] = [
  { value: 'CPF', label: 'CPF', hint: '11 dígitos, por exemplo 529.982.247-25' },
  { value: 'EMAIL', label: 'E-mail', hint: 'por exemplo nome@exemplo.com.br' },
  { value: 'PHONE', label: 'Telefone', hint: '+55 seguido de DDD e número, por exemplo +5561912345678' },
  { value: 'EVP', label: 'Chave aleatória', hint: 'o identificador (UUID) da chave' },
];
const POLL_MS = 2_000;
const POLLS = 15;

interface Sent {
  id: string;
  orderId: string;
  state: string;
  amount: string;
  date: string;
}

/**
 * A PIX cash-out from the merchant's account to a PIX key, then the transaction's state, followed for a while.
 *
 * @event bo-balance-changed - A cash-out was created (the balance moves).
 * @event bo-notice - A status message for the page's live region.
 */
@customElement('bo-cashout-form')
export class BoCashoutForm extends LitElement {
  static override styles = [
    shared,
    css`
      .result {
        margin-top: 0.75rem;
        padding: 0.5rem 0.75rem;
        border-radius: 8px;
        background: var(--bo-color-selected, #eef4ff);
      }
    `,
  ];

  @state() private keyType: PixKeyType = 'CPF';
  @state() private errors: Record<string, string> = {};
  @state() private error = '';
  @state() private busy = false;
  @state() private sent?: Sent;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** The back-office API of the signed-in merchant. */
  @property({ attribute: false }) api?: AdminApi;

  override disconnectedCallback() {
    super.disconnectedCallback();
    clearTimeout(this.timer);
  }

  private follow(orderId: string, left: number) {
    this.timer = setTimeout(() => void this.refreshSent(orderId, left), POLL_MS);
  }

  private async refreshSent(orderId: string, left: number) {
    try {
      const found = (await this.api!.transactions(orderId)).items.find((i) => i.transaction.id === this.sent?.id);
      if (found && this.sent?.orderId === orderId) this.sent = { ...this.sent, state: found.transaction.state };
    } catch {
      // The created state stays on screen; following is a convenience.
    }
    if (this.sent?.orderId === orderId && !isFinalTransactionState(this.sent.state) && left > 1) this.follow(orderId, left - 1);
  }

  private async handleSubmit(event: SubmitEvent) {
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
    this.busy = true;
    this.error = '';
    clearTimeout(this.timer);
    const orderId = `payout-${Date.now().toString(36)}`;
    try {
      const { transaction: t } = await this.api.cashOut({
        recipient: { name: data.name!, cpf: data.cpf! },
        key: { type: this.keyType, value: keyValue },
        amount,
        orderId,
        ...(data.description ? { description: data.description } : {}),
      });
      this.sent = { id: t.id, orderId, state: t.state, amount: t.amount, date: t.date };
      form.reset();
      this.keyType = 'CPF';
      notify(this, `Transferência PIX de ${formatMoney(t.amount)} criada.`, 'success');
      emit(this, 'bo-balance-changed', null);
      this.follow(orderId, POLLS);
    } catch (error) {
      this.error = (error as Error).message;
    } finally {
      this.busy = false;
    }
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

  override render() {
    const key = KEY_TYPES.find((k) => k.value === this.keyType)!;
    return html`
      <section class="card" aria-labelledby="co-title">
        <h2 id="co-title">Transferência PIX (cash-out)</h2>
        <form @submit=${this.handleSubmit} novalidate>
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
          ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
          <button type="submit" ?disabled=${this.busy}>${this.busy ? 'Enviando…' : 'Transferir'}</button>
        </form>
        ${
          this.sent
            ? html`<div class="result" aria-live="polite">
              <p>
                Transação <code>${this.sent.id}</code> de ${formatMoney(this.sent.amount)}:
                <span class="pill" data-tone=${toneOf(this.sent.state)} data-testid="cashout-state">${executionLabel(this.sent.state)}</span>
              </p>
              <p class="muted">Pedido ${this.sent.orderId} · criada em ${formatDate(this.sent.date)}</p>
            </div>`
            : nothing
        }
      </section>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-cashout-form': BoCashoutForm;
  }
}
