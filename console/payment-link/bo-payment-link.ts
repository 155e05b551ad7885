/**
 * Payment links, for operators and owners: the order number and how many days the link lasts (7 unless changed, 1 to
 * 365); the BFF checks the order with the shop and answers the link, shown here to copy and send by WhatsApp or
 * e-mail. Anyone with the link can pay that order, and nobody else can pay through it: the page says so.
 */
import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { AdminApi, PaymentLink } from '../api';
import { formatDate } from '../format';
import shared from '../shared.styles';

const ORDER_ID = /^[\w.:-]{1,64}$/;
const MAX_DAYS = 365;

@customElement('bo-payment-link')
export class BoPaymentLink extends LitElement {
  static override styles = [
    shared,
    css`
      .link {
        border: 2px solid var(--bo-color-primary, #1849a9);
        border-radius: 10px;
        padding: 0.75rem 1rem;
        margin-top: 0.75rem;
      }
      .link input {
        font-family: ui-monospace, monospace;
        font-size: 0.85rem;
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

  @state() private errors: { orderId?: string; days?: string } = {};
  @state() private error = '';
  @state() private busy = false;
  @state() private link?: PaymentLink;
  @state() private copied = '';

  private async submit(event: SubmitEvent) {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    const text = (name: string) => {
      const value = data.get(name);
      return typeof value === 'string' ? value.trim() : '';
    };
    const orderId = text('orderId');
    const daysText = text('days');
    const days = /^\d+$/.test(daysText) ? Number(daysText) : NaN;
    this.errors = {
      ...(ORDER_ID.test(orderId) ? {} : { orderId: 'Informe o número do pedido: letras, números e . _ : - (até 64).' }),
      ...(days >= 1 && days <= MAX_DAYS ? {} : { days: `Informe um número inteiro de dias, de 1 a ${MAX_DAYS}.` }),
    };
    this.error = '';
    if (this.errors.orderId || this.errors.days) {
      this.renderRoot.querySelector<HTMLInputElement>(this.errors.orderId ? '#pl-order' : '#pl-days')?.focus();
      return;
    }
    if (!this.api) return;
    this.busy = true;
    this.link = undefined;
    this.copied = '';
    try {
      this.link = await this.api.paymentLink(orderId, days);
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('#pl-copy')?.focus();
    } catch (error) {
      this.error = (error as Error).message;
    } finally {
      this.busy = false;
    }
  }

  private async copy() {
    if (!this.link) return;
    try {
      await navigator.clipboard.writeText(this.link.url);
      this.copied = 'Link copiado para a área de transferência.';
    } catch {
      // No clipboard (an insecure origin, a refused permission): the text is selected for Ctrl+C instead.
      this.renderRoot.querySelector<HTMLInputElement>('#pl-url')?.select();
      this.copied = 'Não foi possível copiar: o link está selecionado, copie-o com Ctrl+C.';
    }
  }

  override render() {
    const { errors, link } = this;
    return html`<section class="card" aria-labelledby="pl-title">
      <h2 id="pl-title">Links de pagamento</h2>
      <p class="muted">
        Um link para o cliente pagar um pedido da loja por Pix ou Open Finance, sem passar pela vitrine. Envie por
        WhatsApp ou e-mail.
      </p>
      <form @submit=${this.submit} novalidate aria-labelledby="pl-title">
        <div class="row">
          <div class="field">
            <label for="pl-order">Número do pedido</label>
            <input id="pl-order" name="orderId" autocomplete="off" spellcheck="false" aria-invalid=${errors.orderId ? 'true' : 'false'}
              aria-describedby="pl-order-hint" />
            <p id="pl-order-hint" class=${errors.orderId ? 'error' : 'muted'}>${errors.orderId ?? 'Como a loja o numera, por exemplo A-1001.'}</p>
          </div>
          <div class="field">
            <label for="pl-days">Validade (dias)</label>
            <input id="pl-days" name="days" inputmode="numeric" value="7" aria-invalid=${errors.days ? 'true' : 'false'}
              aria-describedby="pl-days-hint" />
            <p id="pl-days-hint" class=${errors.days ? 'error' : 'muted'}>${errors.days ?? `De 1 a ${MAX_DAYS} dias.`}</p>
          </div>
        </div>
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
        <button type="submit" ?disabled=${this.busy}>${this.busy ? 'Gerando…' : 'Gerar link'}</button>
      </form>
      ${
        link
          ? html`<div class="link" data-testid="payment-link">
              <div class="field">
                <label for="pl-url">Link do pedido ${link.orderId}</label>
                <input id="pl-url" readonly .value=${link.url} autocomplete="off" spellcheck="false" aria-describedby="pl-url-hint" />
                <p id="pl-url-hint" class="muted">
                  Válido até ${formatDate(link.expiresAt)}. Quem tiver o link pode pagar este pedido: envie só ao cliente.
                </p>
              </div>
              <p class="muted" role="status">${this.copied || nothing}</p>
              <div class="actions"><button id="pl-copy" type="button" @click=${this.copy}>Copiar link</button></div>
            </div>`
          : nothing
      }
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-payment-link': BoPaymentLink;
  }
}
