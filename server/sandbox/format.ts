/** Text for people (the bank page, the receipt): Brazilian money format, masked CPF, HTML escaping. */
import { parseCents } from '../../core/money';

/** "R$ 1.234,50" from "1234.500000", without passing through a binary float. */
export function formatBrl(amount: string): string {
  const cents = parseCents(amount) ?? 0n;
  const whole = (cents / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `R$ ${whole},${(cents % 100n).toString().padStart(2, '0')}`;
}

/** "***.456.789-**": the masking Brazilian banks show, so a CPF on screen is not a CPF leaked. */
export function maskCpf(cpf: string): string {
  const d = cpf.replace(/\D/g, '');
  return d.length === 11 ? `***.${d.slice(3, 6)}.${d.slice(6, 9)}-**` : '***';
}

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** "15/01/2026 09:00" in Brasília time (UTC−3, no daylight saving since 2019). */
export function formatDateBr(iso: string): string {
  const d = new Date(Date.parse(iso) - 3 * 3_600_000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCDate())}/${two(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
}
