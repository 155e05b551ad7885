import { LitElement, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { hasRole } from '../../core/backoffice';
import type { AdminApi, CheckoutDetail, PayerReveal, Role } from '../api';
import { notify } from '../events';
import shared from '../shared.styles';

/**
 * A payment's payer inside its detail: the CPF masked for every role; for operators and owners a "Mostrar CPF"
 * button that reads the payer in full from the back office, which records each reveal in the audit trail.
 *
 * @event bo-notice - A status message for the page's live region.
 */
@customElement('bo-payer')
export class BoPayer extends LitElement {
  static override styles = [shared];

  /** The back-office API of the signed-in merchant. */
  @property({ attribute: false }) api?: AdminApi;
  /** The checkout whose payer this is. */
  @property({ attribute: 'checkout-id' }) checkoutId = '';
  /** The payer as the detail gives it, CPF masked. */
  @property({ attribute: false }) payer?: CheckoutDetail['payer'];
  /** The signed-in role (a property only: the attribute is ARIA's). */
  @property({ attribute: false }) override role: Role = 'viewer';

  @state() private revealed?: PayerReveal;
  @state() private busy = false;

  private async handleReveal() {
    if (!this.api) return;
    this.busy = true;
    try {
      this.revealed = await this.api.revealPayer(this.checkoutId);
      notify(this, 'CPF mostrado; este acesso fica registrado na auditoria.', 'info');
    } catch (error) {
      notify(this, (error as Error).message, 'error');
    } finally {
      this.busy = false;
    }
  }

  override render() {
    const full = this.revealed;
    const paid = full?.paid;
    const account = paid?.accountNumber
      ? `${paid.accountAgency ?? '—'} / ${paid.accountNumber}${paid.accountDigit ? `-${paid.accountDigit}` : ''}`
      : null;
    return html`<dl data-testid="payer">
        <dt>Pagador</dt>
        <dd>${this.payer?.name ?? paid?.name ?? '—'}</dd>
        <dt>CPF do pagador</dt>
        <dd data-testid="payer-cpf">${full ? (full.requested.cpf ?? paid?.taxNumber ?? '—') : (this.payer?.cpf ?? '—')}</dd>
        ${account ? html`<dt>Agência / conta</dt><dd>${account}</dd>` : nothing}
      </dl>
      ${
        hasRole(this.role, 'operator') && !full
          ? html`<button class="secondary" type="button" ?disabled=${this.busy} @click=${this.handleReveal}>
            ${this.busy ? 'Mostrando…' : 'Mostrar CPF'}
          </button>`
          : nothing
      }`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-payer': BoPayer;
  }
}
