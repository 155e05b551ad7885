/**
 * The rows of the approvals' two tables: a movement waiting for an owner (kind, amount, recipient masked, who asked
 * and when) and one already decided (who decided, when, and what became of it).
 */
import { html, nothing } from 'lit';
import { formatMoney } from '../../core/money';
import type { ApprovalView } from '../api';
import { formatDate, movementLabel, toneOf } from '../format';

export const kindLabel = (kind: ApprovalView['kind']) => (kind === 'refund' ? 'Reembolso' : 'Transferência');

/** "Reembolso de R$ 1.500,00 para Maria da Silva": what a button or a notice is about. */
export const approvalSubject = (a: ApprovalView) => `${kindLabel(a.kind)} de ${formatMoney(a.amount)} para ${a.recipient.name}`;

/** One flex item in the phone's card layout: the name, then the masked CPF. */
const recipient = (a: ApprovalView) => html`<span>${a.recipient.name} <span class="muted nowrap">· CPF ${a.recipient.cpf}</span></span>`;

/** The common cells of both tables. */
export const movementCells = (a: ApprovalView) => html`
  <td data-label="Tipo">
    <span>${kindLabel(a.kind)}${a.checkout ? html` <span class="muted nowrap">· pedido ${a.checkout.orderId}</span>` : nothing}</span>
  </td>
  <td data-label="Valor" class="num">${formatMoney(a.amount)}</td>
  <td data-label="Destinatário">${recipient(a)}</td>
  <td data-label="Pedido por">${a.requestedBy ?? '—'}</td>
`;

export const pendingHead = html`<thead>
  <tr>
    <th>Tipo</th>
    <th class="num">Valor</th>
    <th>Destinatário</th>
    <th>Pedido por</th>
    <th>Quando</th>
    <th><span class="sr-only">Decisão</span></th>
  </tr>
</thead>`;

export const decidedHead = html`<thead>
  <tr>
    <th>Tipo</th>
    <th class="num">Valor</th>
    <th>Destinatário</th>
    <th>Pedido por</th>
    <th>Decidido por</th>
    <th>Decidido em</th>
    <th>Situação</th>
  </tr>
</thead>`;

export const decidedRow = (a: ApprovalView) => html`<tr data-key=${a.idempotencyKey}>
  ${movementCells(a)}
  <td data-label="Decidido por">${a.decidedBy ?? '—'}</td>
  <td data-label="Decidido em" class="nowrap">${formatDate(a.decidedAt)}</td>
  <td data-label="Situação"><span class="pill" data-tone=${toneOf(a.state)}>${movementLabel(a.state, a.kind)}</span></td>
</tr>`;
