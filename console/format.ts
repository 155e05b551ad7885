/**
 * pt-BR display of what the API returns: dates, file sizes, and the names of states, methods, roles and event types
 * (the words are core/backoffice/labels.ts's and, for methods, core/method-labels.ts's, which the CSV exports write too;
 * the pills' colours are the page's own).
 * Money (formatMoney, parseTypedAmount), the CNPJ (formatCnpj) and which transaction states are final
 * (isFinalTransactionState) come from core/.
 */
import {
  APPROVAL_STATUS_LABELS,
  CASH_OUT_STATE_LABELS,
  CHECKOUT_STATE_LABELS,
  COMPANY_PAYMENT_STATE_LABELS,
  labelOf,
  MERCHANT_EVENT_LABELS,
  REFUND_STATE_LABELS,
  ROLE_LABELS,
  TRANSACTION_STATE_LABELS,
  type CheckoutDetail,
} from '../core/backoffice';
import { METHOD_LABELS } from '../core/method-labels';
import { formatMoney } from '../core/money';

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

export const approvalLabel = (status: string) => labelOf(APPROVAL_STATUS_LABELS, status);
/** A provider transaction's state; "—" when it has none yet. */
export const executionLabel = (state: string | null | undefined) => (state ? labelOf(TRANSACTION_STATE_LABELS, state) : '—');

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

export const checkoutLabel = (state: string) => labelOf(CHECKOUT_STATE_LABELS, state);
export const cashOutLabel = (state: string) => labelOf(CASH_OUT_STATE_LABELS, state);
export const refundLabel = (state: string) => labelOf(REFUND_STATE_LABELS, state);

/** A movement's state in its own gender: a refund's, a cash-out's, or a payment request's ("a solicitação"). */
export const movementLabel = (state: string, kind: 'refund' | 'cashout' | 'payment_request') =>
  kind === 'refund' ? refundLabel(state) : kind === 'payment_request' ? labelOf(COMPANY_PAYMENT_STATE_LABELS, state) : cashOutLabel(state);

export const roleLabel = (role: string) => labelOf(ROLE_LABELS, role);
export const methodLabel = (method: string) => labelOf(METHOD_LABELS, method);
export const eventTypeLabel = (type: string) => labelOf(MERCHANT_EVENT_LABELS, type);

/** What made the BFF store an event of a checkout. */
const SOURCES: Readonly<Record<CheckoutDetail['events'][number]['source'], string>> = {
  create: 'criação no provedor',
  webhook: 'webhook do provedor',
  reconcile: 'conciliação (releitura no provedor)',
  read: 'leitura após o prazo',
};
export const sourceLabel = (source: string) => labelOf(SOURCES, source);

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
