/**
 * The table of a payment's refunds (every role sees it): amount, recipient, state in words, who asked and who decided
 * when it needed an owner's approval, the provider's transaction and when it was made.
 */
import { html } from 'lit';
import { formatMoney } from '../../core/money';
import type { CashOutView } from '../api';
import { formatDate, refundLabel, toneOf } from '../format';

const decision = (r: CashOutView) => {
  if (r.state === 'PendingApproval') return 'aguardando outro proprietário';
  if (!r.decidedBy) return '—';
  return `${r.state === 'Rejected' ? 'rejeitado' : 'aprovado'} por ${r.decidedBy}${r.decidedAt ? `, ${formatDate(r.decidedAt)}` : ''}`;
};

/** The refunds, oldest first as the BFF lists them; a line saying there are none otherwise. */
export function refundTable(refunds: CashOutView[]) {
  if (refunds.length === 0) return html`<p class="muted">Nenhum reembolso deste pagamento.</p>`;
  return html`<div class="table-wrap">
    <table data-testid="refunds">
      <caption class="sr-only">Reembolsos deste pagamento</caption>
      <thead>
        <tr>
          <th class="num">Valor</th>
          <th>Destinatário</th>
          <th>Situação</th>
          <th>Pedido por</th>
          <th>Decisão</th>
          <th>Transação</th>
          <th>Criado em</th>
        </tr>
      </thead>
      <tbody>
        ${refunds.map(
          (r) => html`<tr data-testid="refund">
            <td data-label="Valor" class="num">${formatMoney(r.amount)}</td>
            <td data-label="Destinatário">${r.recipient.name} · CPF ${r.recipient.cpf}</td>
            <td data-label="Situação"><span class="pill" data-tone=${toneOf(r.state)} data-testid="refund-state">${refundLabel(r.state)}</span></td>
            <td data-label="Pedido por">${r.requestedBy ?? '—'}</td>
            <td data-label="Decisão">${decision(r)}</td>
            <td data-label="Transação">${r.transactionId ? html`<code>${r.transactionId}</code>` : '—'}</td>
            <td data-label="Criado em" class="nowrap">${formatDate(r.createdAt)}</td>
          </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
