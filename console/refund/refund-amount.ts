/**
 * The refund form's amount, exact to the cent: the refundable amount written as a person types it in pt-BR
 * ("1.234,56"), and what was typed read back with core/money.ts (parseTypedAmount, requireCents), checked against
 * what is left to refund. Never a binary float.
 */
import { formatCents, formatMoney, parseTypedAmount, requireCents } from '../../core/money';

/** An API amount ("1234.56") as typed in pt-BR ("1.234,56"), without the currency. */
export function typedAmount(amount: string): string {
  const [whole = '0', cents = '00'] = formatCents(requireCents(amount)).split('.');
  return `${whole.replace(/\B(?=(\d{3})+$)/g, '.')},${cents}`;
}

/** A typed amount that may be refunded (`amount`, the API's decimal string), or why not (`error`, pt-BR). */
export type RefundAmountCheck = { amount: string; error?: undefined } | { amount?: undefined; error: string };

/**
 * Reads `typed` ("1.234,56", "R$ 10", "10.5") and checks it is a positive amount with at most two decimals, no more
 * than `refundable` (the API's decimal string).
 */
export function checkRefundAmount(typed: string, refundable: string): RefundAmountCheck {
  const amount = parseTypedAmount(typed);
  if (!amount) return { error: 'Informe um valor maior que zero, com até 2 casas decimais (por exemplo 1.234,56).' };
  if (requireCents(amount) > requireCents(refundable)) {
    return { error: `O valor passa do disponível para reembolso (${formatMoney(refundable)}).` };
  }
  return { amount };
}
