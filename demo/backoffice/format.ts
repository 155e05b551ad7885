/**
 * pt-BR display of what the API returns: money from decimal strings (bigint cents, never binary floats), dates,
 * CNPJ and status names.
 */
import { formatCents, parseCents, parseDecimal, rescale } from '../../core/money';

const grouping = new Intl.NumberFormat('pt-BR', { useGrouping: true });
const symbols: Record<string, string> = { BRL: 'R$' };

/** "100000.000000" → "R$ 100.000,00" (rounded half away from zero to cents); the text itself when it is no number. */
export function formatMoney(amount: string, currency = 'BRL'): string {
  const negative = amount.trim().startsWith('-');
  const units = parseDecimal(negative ? amount.trim().slice(1) : amount, 6);
  if (units === undefined) return amount;
  const cents = rescale(units, 6, 2);
  const whole = grouping.format(cents / 100n);
  const fraction = (cents % 100n).toString().padStart(2, '0');
  return `${negative && cents > 0n ? '-' : ''}${symbols[currency] ?? currency}\u00a0${whole},${fraction}`;
}

/**
 * The amount typed by the merchant as the API wants it ("1.234,5" or "1234.50" → "1234.50"), or undefined when it is
 * not a positive amount with at most two decimals.
 */
export function normalizeAmount(text: string): string | undefined {
  let value = text.trim().replace(/^R\$\s*/, '');
  // pt-BR input: dots group thousands and the comma is the decimal separator.
  if (value.includes(',')) value = value.replace(/\./g, '').replace(',', '.');
  if (!/^\d+(\.\d{1,2})?$/.test(value)) return undefined;
  const cents = parseCents(value);
  if (cents === undefined || cents <= 0n) return undefined;
  return formatCents(cents);
}

const dateTime = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'medium' });

export const formatDate = (iso: string | null | undefined): string => {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
};

export function formatCnpj(value: string): string {
  const digits = value.replace(/\D/g, '');
  return digits.length === 14 ? digits.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5') : value;
}

export function formatBytes(size: number | null | undefined): string {
  if (size === null || size === undefined) return '—';
  if (size < 1024) return `${size} B`;
  return `${(size / 1024).toLocaleString('pt-BR', { maximumFractionDigits: 1 })} KB`;
}

const APPROVAL: Record<string, string> = { Pending: 'Pendente', Approved: 'Aprovado', Rejected: 'Recusado', Denied: 'Recusado', Cancelled: 'Cancelado' };
const EXECUTION: Record<string, string> = {
  Created: 'Criada',
  Registered: 'Registrada',
  Completed: 'Concluída',
  Cancelled: 'Cancelada',
  Reversed: 'Estornada',
  Error: 'Erro',
  Refunded: 'Reembolsada',
};

export const approvalLabel = (status: string) => APPROVAL[status] ?? status;
export const executionLabel = (state: string | null | undefined) => (state ? (EXECUTION[state] ?? state) : '—');

/** Transaction states after which nothing moves any more. */
export const FINAL_EXECUTION = new Set(['Completed', 'Cancelled', 'Reversed', 'Error', 'Refunded']);

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
