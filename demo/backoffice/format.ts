/**
 * pt-BR display of what the API returns that core/ does not cover: dates, file sizes and status names. Money
 * (formatMoney, parseTypedAmount), the CNPJ (formatCnpj) and which transaction states are final
 * (isFinalTransactionState) come from core/.
 */
import type { TransactionState } from '../../core/states';

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
  Approved: 'good',
  Completed: 'good',
  Pending: 'wait',
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
