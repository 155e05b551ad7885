import { html } from 'lit';
import type { ProviderRecord } from '../api';
import { executionLabel, formatDate, formatMoney6 } from '../format';

/** The provider's record of a checkout, as read again on demand: the facts a merchant checks, then the whole JSON. */
export function providerRecordView(r: ProviderRecord) {
  const t = r.record.transaction;
  return html`<dl data-testid="provider-record">
      <dt>Lido em</dt>
      <dd>${formatDate(r.readAt)}</dd>
      <dt>Situação no provedor</dt>
      <dd>${executionLabel(t.state)}</dd>
      <dt>Valor</dt>
      <dd>${formatMoney6(t.amount)}</dd>
      <dt>Tarifa</dt>
      <dd>${formatMoney6(t.charges)}</dd>
      <dt>Concluída em</dt>
      <dd>${formatDate(t.stateCompletedDate)}</dd>
      <dt>Pagador</dt>
      <dd>${t.payer?.name ?? '—'}${t.payer?.bankName ? ` · ${t.payer.bankName}` : ''}</dd>
      <dt>Webhook</dt>
      <dd>${r.record.webhook.deliveryStatus ?? '—'} · ${formatDate(r.record.webhook.deliveryTime)}</dd>
    </dl>
    <details>
      <summary>Registro completo (JSON)</summary>
      <pre>${JSON.stringify(r.record, null, 2)}</pre>
    </details>`;
}
