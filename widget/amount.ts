/** Money display for the element: exact, from the decimal string, never through a binary float. */
import { formatCents, parseCents } from '../core/money.js';

/**
 * "R$ 1.234,50" (pt-BR) or "R$1,234.50" (en) from "1234.5". The whole part goes through `Intl` as a bigint (exact)
 * and the cents replace the fraction digits, so the locale still decides symbol, grouping and separators.
 */
export function formatAmount(amount: string, currency: string, locale: string): string {
  const cents = parseCents(amount);
  if (cents === undefined) return `${currency} ${amount}`;
  const fraction = (cents % 100n).toString().padStart(2, '0');
  try {
    const format = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 2 });
    return format
      .formatToParts(cents / 100n)
      .map((part) => (part.type === 'fraction' ? fraction : part.value))
      .join('');
  } catch {
    // An unknown currency code makes Intl throw; the plain form is still correct.
    return `${currency} ${formatCents(cents)}`;
  }
}
