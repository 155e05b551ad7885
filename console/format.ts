/**
 * pt-BR display of what the API returns that core/ does not cover: dates, file sizes and status names. Money
 * (formatMoney, parseTypedAmount), the CNPJ (formatCnpj) and which transaction states are final
 * (isFinalTransactionState) come from core/.
 */
import { formatMoney } from '../core/money';
import type { TransactionState } from '../core/states';

const dateTime = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'medium' });

export const formatDate = (iso: string | null | undefined): string => {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
};

export function formatBytes(size: number | null | undefined): string {
  if (size === null || size === undefined) return '—';
  if (size < 1024) return `${size} B`;
  return `${(size / 1024).toLocaleString('pt-BR', { maximumFractionDigits: 1 })} KB`;
}

const APPROVAL: Record<string, string> = {
  Pending: 'Pendente',
  Approved: 'Aprovado',
  Rejected: 'Recusado',
  Denied: 'Recusado',
  Cancelled: 'Cancelado',
};
/** Display text of the provider's transaction states. */
const EXECUTION: Record<TransactionState, string> = {
  Created: 'Criada',
  Registered: 'Registrada',
  Completed: 'Concluída',
  Cancelled: 'Cancelada',
  Reversed: 'Estornada',
  Error: 'Erro',
  Refunded: 'Reembolsada',
};

export const approvalLabel = (status: string) => APPROVAL[status] ?? status;
export const executionLabel = (state: string | null | undefined) =>
  state ? ((EXECUTION as Record<string, string | undefined>)[state] ?? state) : '—';

const TONES: Record<string, 'good' | 'bad' | 'wait'> = {
  Sending: 'wait',
  Requested: 'good',
  Expired: 'wait',
  Approved: 'good',
  Completed: 'good',
  Pending: 'wait',
  PendingApproval: 'wait',
  Created: 'wait',
  Registered: 'wait',
  Rejected: 'bad',
  Denied: 'bad',
  Cancelled: 'bad',
  Reversed: 'bad',
  Error: 'bad',
};

/** The colour family of a status pill (`data-tone`). */
export const toneOf = (status: string | null | undefined) => (status ? (TONES[status] ?? 'neutral') : 'neutral');

/** Display text of a checkout's state, as the merchant reads the payments received. */
const CHECKOUT: Record<string, string> = {
  Created: 'Criado',
  Registered: 'Aguardando pagamento',
  Expired: 'Expirado',
  Completed: 'Pago',
  Error: 'Erro',
  Cancelled: 'Cancelado',
  Reversed: 'Estornado',
};
export const checkoutLabel = (state: string) => CHECKOUT[state] ?? state;

/** Our states of a movement before the provider has it: waiting for an owner, refused by one, being sent. */
const MOVEMENT: Record<string, string> = {
  PendingApproval: 'Aguardando aprovação',
  Rejected: 'Rejeitada',
  Sending: 'Enviando',
};

/** Display text of a cash-out's state: the provider's, or ours while the provider has not answered. */
export const cashOutLabel = (state: string) => MOVEMENT[state] ?? executionLabel(state);

/** Display text of a refund's state ("o reembolso": the masculine forms). */
const REFUND: Record<string, string> = {
  PendingApproval: 'Aguardando aprovação',
  Sending: 'Enviando',
  Created: 'Criado',
  Registered: 'Registrado',
  Completed: 'Concluído',
  Rejected: 'Rejeitado',
  Cancelled: 'Cancelado',
  Reversed: 'Estornado',
  Refunded: 'Devolvido',
  Error: 'Erro',
};
export const refundLabel = (state: string) => REFUND[state] ?? state;

/** A payment request the BFF kept: ours until the provider has it (then the provider's approval flow is its state). */
const COMPANY_PAYMENT: Record<string, string> = { ...MOVEMENT, Requested: 'Enviada ao provedor' };

/** A movement's state in its own gender: a refund's, a cash-out's, or a payment request's ("a solicitação"). */
export const movementLabel = (state: string, kind: 'refund' | 'cashout' | 'payment_request') =>
  kind === 'refund' ? refundLabel(state) : kind === 'payment_request' ? (COMPANY_PAYMENT[state] ?? state) : cashOutLabel(state);

/** The roles, as the console names them. */
const ROLE_NAMES: Record<string, string> = { viewer: 'Leitura', operator: 'Operador', owner: 'Proprietário' };
export const roleLabel = (role: string) => ROLE_NAMES[role] ?? role;

/** What made the BFF store an event of a checkout. */
const SOURCES: Record<string, string> = {
  create: 'criação no provedor',
  webhook: 'webhook do provedor',
  reconcile: 'conciliação (releitura no provedor)',
  read: 'leitura após o prazo',
};
export const sourceLabel = (source: string) => SOURCES[source] ?? source;

export const methodLabel = (method: string) => (method === 'openfinance' ? 'Open Finance' : method === 'pix' ? 'PIX' : method);

/**
 * An amount that may be absent, such as the provider's six-decimal charges ("1.490000" → "R$ 1,49"): core's
 * formatMoney (rounded half away from zero to cents; unreadable text shown as it is), or "—" when there is none.
 */
export const formatMoney6 = (value: string | null | undefined): string => (value ? formatMoney(value) : '—');

/** The start of a local calendar day (`<input type=date>`'s "2025-03-01") as an instant; `next`: the next day's start. */
export function dayStart(day: string, next = false): string | undefined {
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return undefined;
  return new Date(y, m - 1, d + (next ? 1 : 0)).toISOString();
}

/** The local calendar day of an instant, as `<input type=date>` takes it; `previous`: of the instant just before. */
export function dayOf(iso: string | undefined, previous = false): string {
  if (!iso) return '';
  const date = new Date(Date.parse(iso) - (previous ? 1 : 0));
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}
