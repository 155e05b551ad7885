/**
 * The rows of the approvals' two tables: a movement waiting for an owner (kind, amount, whom it pays, who asked and
 * when) and one already decided (who decided, when, and what became of it). A refund or cash-out pays a person (CPF
 * masked); a payment request pays a company (its CNPJ, and what it pays for).
 */
import { html, nothing } from 'lit';
import { formatCnpj } from '../../core/cpf';
import { formatMoney } from '../../core/money';
import type { ApprovalView } from '../api';
import { formatDate, movementLabel, toneOf } from '../format';

const KINDS: Record<ApprovalView['kind'], string> = {
  refund: 'Reembolso',
  cashout: 'Transferência',
  payment_request: 'Pagamento a empresa',
};
export const kindLabel = (kind: ApprovalView['kind']) => KINDS[kind];

/** Whom the movement pays: the recipient, or the company (its id when the provider named none). */
export const payeeName = (a: ApprovalView) =>
  a.kind === 'payment_request' ? (a.receiver.name ?? `recebedor ${a.receiver.id}`) : a.recipient.name;

/** Whom it pays with the number that names them: the masked CPF, or the company's CNPJ. */
export const payeeDocument = (a: ApprovalView) =>
  a.kind === 'payment_request' ? (a.receiver.cnpj ? `CNPJ ${formatCnpj(a.receiver.cnpj)}` : '') : `CPF ${a.recipient.cpf}`;

/** "Reembolso de R$ 1.500,00 para Maria da Silva": what a button or a notice is about. */
export const approvalSubject = (a: ApprovalView) => `${kindLabel(a.kind)} de ${formatMoney(a.amount)} para ${payeeName(a)}`;

/** One flex item in the phone's card layout: the name, then its document. */
const payee = (a: ApprovalView) => html`<span>${payeeName(a)} <span class="muted nowrap">· ${payeeDocument(a)}</span></span>`;

/** What the kind's cell adds: a refund's order, a payment request's description. */
const about = (a: ApprovalView) =>
  a.kind === 'payment_request'
    ? html` <span class="muted">· ${a.description}</span>`
    : a.checkout
      ? html` <span class="muted nowrap">· pedido ${a.checkout.orderId}</span>`
      : nothing;

/** The common cells of both tables. */
export const movementCells = (a: ApprovalView) => html`
  <td data-label="Tipo">
    <span>${kindLabel(a.kind)}${about(a)}</span>
  </td>
  <td data-label="Valor" class="num">${formatMoney(a.amount)}</td>
  <td data-label="Destinatário">${payee(a)}</td>
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
