import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { formatMoney } from '../../core/money';
import type { AdminApi, CheckoutDetail, ProviderRecord, Role } from '../api';
import { notify } from '../events';
import { checkoutLabel, formatDate, methodLabel, sourceLabel, toneOf } from '../format';
import '../refund/bo-refund';
import type { BoRefund } from '../refund/bo-refund';
import shared from '../shared.styles';
import styles from './bo-checkout-detail.styles';
import { providerRecordView } from './provider-record';
import './bo-payer';

/** What the BFF made of a webhook, in the merchant's words. */
const WEBHOOK_OUTCOMES = {
  applied: 'mudou a situação',
  adopted: 'pagamento recuperado',
  ignored: 'nada a mudar (repetido ou já conhecido)',
} as const;
/**
 * One payment received: its facts, the timeline of its events (what moved it and when), the webhooks that moved it,
 * the provider's record read again on demand, and its refunds (`<bo-refund>`: what is left to refund, the refund of
 * any amount of it to the payer by PIX after a confirmation, for operators and owners). `<bo-app>` calls `refresh()`
 * when the live stream reports a change.
 *
 * @event bo-balance-changed - A refund was sent (from `<bo-refund>`).
 * @event bo-notice - A status message for the page's live region.
 */
@customElement('bo-checkout-detail')
export class BoCheckoutDetail extends LitElement {
  static override styles = [shared, styles];

  /** The back-office API of the signed-in merchant. */
  @property({ attribute: false }) api?: AdminApi;
  /** The checkout to show. */
  @property({ attribute: 'checkout-id' }) checkoutId = '';
  /** The signed-in role, passed on to the refund (a property only: the attribute is ARIA's). */
  @property({ attribute: false }) override role: Role = 'viewer';

  @state() private detail?: CheckoutDetail;
  @state() private record?: ProviderRecord;
  @state() private error = '';
  @state() private busy = false;
  @state() private reading = false;

  override updated(changed: PropertyValues<this>) {
    if (changed.has('checkoutId') && this.checkoutId) {
      this.record = undefined;
      this.detail = undefined;
      void this.refresh();
    }
  }

  /** Reads the checkout again (its state, events and refunds). */
  async refresh() {
    if (!this.api || !this.checkoutId) return;
    void this.renderRoot.querySelector<BoRefund>('bo-refund')?.refresh();
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
                <bo-payer .api=${this.api} .role=${this.role} .payer=${d.payer} checkout-id=${c.id}></bo-payer>
                <bo-refund .api=${this.api} .role=${this.role} checkout-id=${c.id}></bo-refund>
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
