import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { formatMoney } from '../../core/money';
import type { AdminApi, CheckoutDetail, ProviderRecord, RefundPreview } from '../api';
import { emit, notify } from '../events';
import { cashOutLabel, checkoutLabel, formatDate, formatMoney6, methodLabel, sourceLabel, toneOf } from '../format';
import shared from '../shared.styles';
import styles from './bo-checkout-detail.styles';
import { providerRecordView } from './provider-record';

/** What the BFF made of a webhook, in the merchant's words. */
const WEBHOOK_OUTCOMES = {
  applied: 'mudou a situação',
  adopted: 'pagamento recuperado',
  ignored: 'nada a mudar (repetido ou já conhecido)',
} as const;
/**
 * One payment received: its facts, the timeline of its events (what moved it and when), the webhooks that moved it,
 * the provider's record read again on demand, and, for a duplicate payment of an order paid twice, its refund by a
 * PIX cash-out to the payer after a confirmation that shows recipient, key, amount and charges. `<bo-app>` calls
 * `refresh()` when the live stream reports a change.
 *
 * @event bo-balance-changed - A refund was sent.
 * @event bo-notice - A status message for the page's live region.
 */
@customElement('bo-checkout-detail')
export class BoCheckoutDetail extends LitElement {
  static override styles = [shared, styles];

  /** The back-office API of the signed-in merchant. */
  @property({ attribute: false }) api?: AdminApi;
  /** The checkout to show. */
  @property({ attribute: 'checkout-id' }) checkoutId = '';

  @state() private detail?: CheckoutDetail;
  @state() private record?: ProviderRecord;
  @state() private preview?: RefundPreview;
  @state() private error = '';
  @state() private refundError = '';
  @state() private busy = false;
  @state() private reading = false;
  @state() private refunding = false;
  /** One key per confirmation: pressing "Confirmar reembolso" again sends the same refund, never a second one. */
  private refundKey = '';

  override updated(changed: PropertyValues<this>) {
    if (changed.has('checkoutId') && this.checkoutId) {
      this.record = undefined;
      this.preview = undefined;
      this.detail = undefined;
      void this.refresh();
    }
  }

  /** Reads the checkout again (its state, events and refunds). */
  async refresh() {
    if (!this.api || !this.checkoutId) return;
    this.busy = true;
    try {
      this.detail = await this.api.checkout(this.checkoutId);
      this.error = '';
    } catch (error) {
      this.error = (error as Error).message;
    } finally {
      this.busy = false;
    }
  }

  private async readProvider() {
    if (!this.api) return;
    this.reading = true;
    try {
      this.record = await this.api.providerRecord(this.checkoutId);
      notify(this, 'Registro relido no provedor.', 'info');
    } catch (error) {
      notify(this, (error as Error).message, 'error');
    } finally {
      this.reading = false;
    }
  }

  private async askRefund() {
    if (!this.api) return;
    this.refundError = '';
    try {
      this.preview = await this.api.refundPreview(this.checkoutId);
      this.refundKey = crypto.randomUUID();
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('#refund-title')?.focus();
    } catch (error) {
      this.refundError = (error as Error).message;
    }
  }

  private async confirmRefund() {
    if (!this.api || !this.preview || this.refunding) return;
    this.refunding = true;
    this.refundError = '';
    try {
      const refund = await this.api.refund(this.checkoutId, this.refundKey);
      this.preview = undefined;
      notify(this, `Reembolso de ${formatMoney(refund.amount)} enviado para ${refund.recipient.name}.`, 'success');
      emit(this, 'bo-balance-changed', null);
      await this.refresh();
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('#refunds-title')?.focus();
    } catch (error) {
      this.refundError = (error as Error).message;
    } finally {
      this.refunding = false;
    }
  }

  private async cancelRefund() {
    this.preview = undefined;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#refund-ask')?.focus();
  }

  private renderRefund(d: CheckoutDetail) {
    const c = d.checkout;
    const held = d.refunds.find((r) => !['Error', 'Cancelled', 'Reversed'].includes(r.state));
    const refundable = !!c.duplicateOf && c.state === 'Completed' && !held;
    return html`
      ${
        d.refunds.length > 0
          ? html`<h3 id="refunds-title" tabindex="-1">Reembolsos</h3>
              <ul>
                ${d.refunds.map(
                  (r) => html`<li data-testid="refund">
                    ${formatMoney(r.amount)} para ${r.recipient.name} (chave ${r.key.type} ${r.key.value}):
                    <span class="pill" data-tone=${toneOf(r.state)}>${cashOutLabel(r.state)}</span>
                    <span class="muted">· transação <code>${r.transactionId ?? '—'}</code> · ${formatDate(r.createdAt)}</span>
                  </li>`,
                )}
              </ul>`
          : nothing
      }
      ${
        refundable && !this.preview
          ? html`<p class="muted">Este pedido foi pago duas vezes: devolva este pagamento ao pagador por PIX.</p>
              <button id="refund-ask" class="danger" type="button" @click=${this.askRefund}>Reembolsar pagamento duplicado</button>`
          : nothing
      }
      ${this.refundError && !this.preview ? html`<p class="error" role="alert">${this.refundError}</p>` : nothing}
      ${
        this.preview
          ? html`<section class="confirm" aria-labelledby="refund-title">
              <h3 id="refund-title" tabindex="-1">Confirme o reembolso</h3>
              <dl data-testid="refund-confirmation">
                <dt>Destinatário</dt>
                <dd>${this.preview.recipient.name} · CPF ${this.preview.recipient.cpf}</dd>
                <dt>Chave PIX</dt>
                <dd>${this.preview.key.type}: ${this.preview.key.value}</dd>
                <dt>Valor</dt>
                <dd>${formatMoney(this.preview.amount)}</dd>
                <dt>Tarifa</dt>
                <dd>${this.preview.charges ? formatMoney6(this.preview.charges) : 'a do plano, conhecida após o envio'}</dd>
              </dl>
              ${this.refundError ? html`<p class="error" role="alert">${this.refundError}</p>` : nothing}
              <div class="actions">
                <button class="danger" type="button" ?disabled=${this.refunding} @click=${this.confirmRefund}>
                  ${this.refunding ? 'Enviando…' : 'Confirmar reembolso'}
                </button>
                <button class="secondary" type="button" ?disabled=${this.refunding} @click=${this.cancelRefund}>Voltar</button>
              </div>
            </section>`
          : nothing
      }
    `;
  }

  override render() {
    const d = this.detail;
    const c = d?.checkout;
    return html`
      <section class="card" aria-labelledby="cd-title" aria-busy=${this.busy ? 'true' : 'false'}>
        <div class="head">
          <h2 id="cd-title" tabindex="-1">Pagamento do pedido ${c?.orderId ?? '…'}</h2>
          <button class="secondary small" type="button" ?disabled=${this.busy} @click=${() => this.refresh()}>Atualizar</button>
        </div>
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
        ${
          d && c
            ? html`
                <dl>
                  <dt>Situação</dt>
                  <dd><span class="pill" data-tone=${toneOf(c.state)} data-testid="cd-state">${checkoutLabel(c.state)}</span></dd>
                  <dt>Valor</dt>
                  <dd>${formatMoney(c.amount)} · ${methodLabel(c.method)}</dd>
                  <dt>Transação</dt>
                  <dd><code>${c.transactionId ?? '—'}</code></dd>
                  <dt>Criado em</dt>
                  <dd>${formatDate(c.createdAt)}</dd>
                  <dt>Prazo</dt>
                  <dd>${formatDate(c.expiresAt)}</dd>
                  <dt>Pago em</dt>
                  <dd>${formatDate(c.paidAt)}${c.late ? html` <span class="pill" data-tone="wait">após o prazo</span>` : nothing}</dd>
                  ${c.payerBank ? html`<dt>Banco do pagador</dt><dd>${c.payerBank}</dd>` : nothing}
                  ${
                    c.duplicateOf
                      ? html`<dt>Duplicado de</dt><dd><span class="pill" data-tone="bad">Duplicado</span> <code>${c.duplicateOf}</code></dd>`
                      : nothing
                  }
                </dl>
                ${
                  d.order.length > 0
                    ? html`<p class="muted">
                        Outros pagamentos do pedido:
                        ${d.order.map((o) => html`<code>${o.id}</code> (${checkoutLabel(o.state)}${o.duplicateOf ? ', duplicado' : ''}) `)}
                      </p>`
                    : nothing
                }
                ${this.renderRefund(d)}
                <h3>Linha do tempo</h3>
                <ol class="timeline" data-testid="timeline">
                  ${d.events.map(
                    (e) => html`<li>
                      <span class="pill" data-tone=${toneOf(e.state)}>${checkoutLabel(e.state)}</span>
                      ${formatDate(e.at)} · ${sourceLabel(e.source)}${e.data.late === true ? ' · pagamento após o prazo' : ''}${
                        typeof e.data.duplicateOf === 'string' ? ' · guardado como duplicado' : ''
                      }
                    </li>`,
                  )}
                </ol>
                <h3>Webhooks</h3>
                <p class="muted">
                  Último webhook recebido: ${formatDate(d.webhooks.lastWebhookAt)} · última releitura no provedor:
                  ${formatDate(d.webhooks.lastCheckedAt)} · ${d.webhooks.applied.length} webhook(s) mudaram a situação.
                </p>
                ${
                  d.webhooks.received.length
                    ? html`<ol class="timeline" data-testid="webhooks">
                      ${d.webhooks.received.map(
                        (w) => html`<li>
                          ${formatDate(w.receivedAt)} · ${w.state ? checkoutLabel(w.state) : 'sem estado'} · ${WEBHOOK_OUTCOMES[w.outcome]}
                        </li>`,
                      )}
                    </ol>`
                    : html`<p class="muted">Nenhum webhook recebido.</p>`
                }
                <h3>Registro no provedor</h3>
                <button class="secondary" type="button" ?disabled=${this.reading || !c.transactionId} @click=${this.readProvider}>
                  ${this.reading ? 'Relendo…' : 'Reler no provedor'}
                </button>
                ${this.record ? providerRecordView(this.record) : nothing}
              `
            : html`<p class="muted">Carregando…</p>`
        }
      </section>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-checkout-detail': BoCheckoutDetail;
  }
}
