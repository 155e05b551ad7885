/**
 * The sandbox portal's three lists, built with `h` (text is never parsed as HTML): the receivers with their accounts
 * (approve or reject a pending one), the pending payment requests (approve or reject), and the cash-outs still moving
 * (complete, fail or cancel, as the bank would). Each action button says what it acts on to a screen reader; the
 * page passes what a click does.
 */
import { formatCnpj } from '../../core/cpf';
import { formatMoney } from '../../core/money';
import { isFinalTransactionState } from '../../core/states';
import { h } from './common';
import type { Overview, PortalCashOut } from './portal-api';

const APPROVAL: Record<string, { label: string; tone: string }> = {
  Pending: { label: 'Pendente', tone: 'wait' },
  Approved: { label: 'Aprovado', tone: 'good' },
  Rejected: { label: 'Recusado', tone: 'bad' },
};

const CASHOUT_STATES: Record<string, string> = { Created: 'Criada', Registered: 'Registrada' };

const state = (text: string, tone: string, testId?: string) =>
  h('span', { class: 'portal-state', 'data-tone': tone, 'data-testid': testId }, text);

const button = (label: string, name: string, onclick: () => void, danger = false) =>
  h('button', { type: 'button', class: `button ${danger ? 'button-danger' : 'button-ghost'}`, 'aria-label': name, onclick }, label);

function table(caption: string, headings: string[], rows: HTMLTableRowElement[]) {
  return h(
    'div',
    { class: 'portal-table-wrap' },
    h(
      'table',
      {},
      h('caption', { class: 'visually-hidden' }, caption),
      h('thead', {}, h('tr', {}, ...headings.map((text) => h('th', { scope: 'col' }, text)))),
      h('tbody', {}, ...rows),
    ),
  );
}

const empty = (text: string) => h('p', { class: 'portal-empty' }, text);

export interface Actions {
  reviewReceiver(id: string, name: string, decision: 'approve' | 'reject'): void;
  decideRequest(id: string, description: string, decision: 'approve' | 'reject'): void;
  decideCashOut(cashOut: PortalCashOut, operation: 'complete' | 'error' | 'cancel'): void;
}

/** Newest first; each pending one with its two decisions. */
export function receiversTable(receivers: Overview['receivers'], act: Actions) {
  if (receivers.length === 0) return empty('Nenhum recebedor cadastrado.');
  const rows = [...receivers].reverse().map((r) => {
    const status = APPROVAL[r.receiverStatus] ?? { label: r.receiverStatus, tone: 'wait' };
    const accounts = r.accounts.map((a) => `${a.bankName} ${a.accountAgency} / ${a.accountNumber}`).join('; ') || '—';
    const name = r.companyFantasyName;
    return h(
      'tr',
      { 'data-receiver': name },
      h('td', { 'data-label': 'Empresa' }, name),
      h('td', { 'data-label': 'CNPJ' }, formatCnpj(r.companyCNPJ)),
      h('td', { 'data-label': 'Contas' }, accounts),
      h('td', { 'data-label': 'Situação' }, state(status.label, status.tone, 'receiver-status')),
      h(
        'td',
        {},
        r.receiverStatus === 'Pending'
          ? h(
              'div',
              { class: 'portal-actions' },
              button('Aprovar', `Aprovar recebedor ${name}`, () => act.reviewReceiver(r.id, name, 'approve')),
              button('Recusar', `Recusar recebedor ${name}`, () => act.reviewReceiver(r.id, name, 'reject'), true),
            )
          : null,
      ),
    );
  });
  return table('Recebedores cadastrados no provedor', ['Empresa', 'CNPJ', 'Contas', 'Situação', 'Ações'], rows);
}

/** The requests waiting for the provider's reviewer. */
export function requestsTable(requests: Overview['paymentRequests'], act: Actions) {
  const pending = requests.filter((r) => r.entity.status === 'Pending');
  if (pending.length === 0) return empty('Nenhuma solicitação aguardando aprovação.');
  const rows = pending.map(({ entity: e }) =>
    h(
      'tr',
      { 'data-request': e.id },
      h('td', { 'data-label': 'Recebedor' }, e.referencesInfo?.receiverName ?? e.refReceiver),
      h('td', { 'data-label': 'Descrição' }, e.description),
      h('td', { 'data-label': 'Valor', class: 'num' }, formatMoney(e.amount)),
      h(
        'td',
        {},
        h(
          'div',
          { class: 'portal-actions' },
          button('Aprovar', `Aprovar solicitação ${e.description}`, () => act.decideRequest(e.id, e.description, 'approve')),
          button('Rejeitar', `Rejeitar solicitação ${e.description}`, () => act.decideRequest(e.id, e.description, 'reject'), true),
        ),
      ),
    ),
  );
  return table('Solicitações aguardando o revisor do provedor', ['Recebedor', 'Descrição', 'Valor', 'Ações'], rows);
}

const OPERATIONS = [
  { operation: 'complete', label: 'Concluir', danger: false },
  { operation: 'error', label: 'Falhar', danger: true },
  { operation: 'cancel', label: 'Cancelar', danger: true },
] as const;

/** The cash-outs (and refunds) the provider has and the bank has not decided yet. */
export function cashOutsTable(cashOuts: PortalCashOut[], act: Actions) {
  const moving = cashOuts.filter((c) => c.transactionId && CASHOUT_STATES[c.state] && !isFinalTransactionState(c.state));
  if (moving.length === 0) return empty('Nenhuma transferência aguardando o banco.');
  const rows = moving.map((c) => {
    const who = `${formatMoney(c.amount)} para ${c.recipient.name}`;
    return h(
      'tr',
      { 'data-transaction': c.transactionId },
      h('td', { 'data-label': 'Destinatário' }, c.recipient.name, c.refundOf ? ' (reembolso)' : ''),
      h('td', { 'data-label': 'Chave' }, `${c.key.type}: ${c.key.value}`),
      h('td', { 'data-label': 'Valor', class: 'num' }, formatMoney(c.amount)),
      h('td', { 'data-label': 'Situação' }, state(CASHOUT_STATES[c.state]!, 'wait')),
      h(
        'td',
        {},
        h(
          'div',
          { class: 'portal-actions' },
          ...OPERATIONS.map(({ operation, label, danger }) =>
            button(label, `${label} transferência de ${who}`, () => act.decideCashOut(c, operation), danger),
          ),
        ),
      ),
    );
  });
  return table('Transferências aguardando o banco', ['Destinatário', 'Chave', 'Valor', 'Situação', 'Ações'], rows);
}
