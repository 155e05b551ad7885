/**
 * What the BFF keeps of a payment once the provider's record says Completed: when it was paid, the receipt voucher
 * and the payer's bank. Never the payer's CPF, account or name: the record has them, the checkout does not keep them.
 */
import type { TransactionRecord } from '../provider';

export interface Receipt {
  /** The provider's `stateCompletedDate`, else when the BFF saw the payment. */
  paidAt: string;
  receiptVoucher?: string;
  /** `transaction.payer.bankName`: the effective payer's bank, when the provider names it. */
  payerBank?: string;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/** An ISO-8601 instant in `toISOString()` form, or undefined when `value` is not a date. */
function instant(value: unknown): string | undefined {
  const given = text(value);
  const ms = given === undefined ? Number.NaN : Date.parse(given);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/** The receipt fields of a completed transaction's record; `seenAt` stands in for a missing completion date. */
export function receiptOf(record: TransactionRecord, seenAt: string): Receipt {
  const { transaction } = record;
  const receiptVoucher = text(transaction.receiptVoucher);
  const payerBank = text(transaction.payer?.bankName);
  return {
    paidAt: instant(transaction.stateCompletedDate) ?? seenAt,
    ...(receiptVoucher ? { receiptVoucher } : {}),
    ...(payerBank ? { payerBank } : {}),
  };
}
