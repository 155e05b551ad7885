/**
 * Text for people (the bank page, the receipt) that core/ does not cover: HTML escaping and Brasília dates. Money
 * (formatMoney) and the masked CPF (maskCpf) come from core/, as for the element and the back-office.
 */

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** "15/01/2026 09:00" in Brasília time (UTC−3, no daylight saving since 2019). */
export function formatDateBr(iso: string): string {
  const d = new Date(Date.parse(iso) - 3 * 3_600_000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCDate())}/${two(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
}
