/**
 * What the BFF keeps of a payment once the provider's record says Completed: when it was paid, the receipt voucher,
 * the payer's bank and the provider's charges (the merchant's fee, shown only in the back office). Never the payer's
 * CPF, account or name: the record has them, the checkout does not keep them.
 */
import { MICRO_SCALE, parseDecimal } from '../../core/money';
import type { TransactionStatus } from '../provider';

export interface Receipt {
  /** The provider's `stateCompletedDate`, else when the BFF saw the payment. */
  paidAt: string;
  receiptVoucher?: string;
  /** `transaction.payer.bankName`: the effective payer's bank, when the provider names it. */
  payerBank?: string;
  /**
   * `transaction.charges`: the provider's fee on this payment, its decimal string as given ("0.599000"), kept when it
   * is a non-negative amount of at most six decimals (the provider's precision).
   */
  charges?: string;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/** An ISO-8601 instant in `toISOString()` form, or undefined when `value` is not a date. */
function instant(value: unknown): string | undefined {
  const given = text(value);
  const ms = given === undefined ? Number.NaN : Date.parse(given);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/** The receipt fields of a completed transaction's record; `seenAt` stands in for a missing completion date. */
export function receiptOf(record: TransactionStatus, seenAt: string): Receipt {
  const { transaction } = record;
  const receiptVoucher = text(transaction.receiptVoucher);
  const payerBank = text(transaction.payer?.bankName);
  const charges = text(transaction.charges);
  return {
    paidAt: instant(transaction.stateCompletedDate) ?? seenAt,
    ...(receiptVoucher ? { receiptVoucher } : {}),
    ...(payerBank ? { payerBank } : {}),
    ...(charges !== undefined && parseDecimal(charges, MICRO_SCALE) !== undefined ? { charges } : {}),
  };
}
