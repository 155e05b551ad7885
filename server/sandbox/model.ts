/**
 * What the emulator stores per transaction: the record exactly as the partner API returns it, plus the few facts the
 * record has no field for (which flow created it, the editable flag, the BR Code location, the bank page secret).
 */
import { z } from 'zod';
import { transactionRecord, type TransactionRecord, type WebhookEvent } from '../provider/schemas';

export const transactionKind = z.enum(['pix-cashin', 'pix-cashout', 'openfinance']);
export type TransactionKind = z.infer<typeof transactionKind>;

export const internalFacts = z.object({
  editable: z.boolean(),
  /** Cash-in created without a payer: the complete operation names who paid. */
  anonymous: z.boolean(),
  /** 32 hex characters of the BR Code location `…/QR/cob/<cobId>`. */
  cobId: z.string().optional(),
  /** OpenFinance: the uuid segment of the bank page address, and where the page sends the payer back. */
  checkoutUuid: z.string().optional(),
  redirectUrl: z.string().optional(),
  /**
   * Set from creation until the first state change: no event is owed yet, so the record's `deliveryStatus` says
   * Pending (the contract's word) while nothing waits to be delivered after a restart.
   */
  noEventYet: z.boolean().optional(),
  /** When the transaction was registered: the record shows `stateRegisteredDate` only while Registered. */
  registeredAt: z.string().optional(),
});

export const storedTransaction = z.object({ kind: transactionKind, record: transactionRecord, internal: internalFacts });
export type StoredTransaction = { kind: TransactionKind; record: TransactionRecord; internal: z.infer<typeof internalFacts> };

const participantOf = (p: TransactionRecord['transaction']['payer']) =>
  p
    ? {
        name: p.name ?? null,
        taxNumber: p.taxNumber ?? null,
        bankCode: p.bankCode ?? null,
        bankName: p.bankName ?? null,
        accountAgency: p.accountAgency ?? null,
        accountNumber: p.accountNumber ?? null,
        accountDigit: p.accountDigit ?? null,
      }
    : null;

/** The webhook payload of the transaction's current state: the spec's Events fields, nothing else. */
export function webhookEventOf({ record }: StoredTransaction): WebhookEvent {
  const t = record.transaction;
  return {
    id: t.id,
    transactionState: t.state,
    transactionDate: t.date,
    transactionOrderId: t.orderId ?? null,
    transactionOrderDescription: t.orderDescription ?? null,
    transactionReceipt: t.receiptUrl ?? null,
    transactionReceiptDate: t.receiptDate ?? null,
    transactionReceiptVoucher: t.receiptVoucher ?? null,
    transactionAmount: t.amount,
    transactionType: t.type,
    transactionPaymentType: t.paymentType ?? null,
    stateRegisteredDate: t.stateRegisteredDate ?? null,
    stateCompletedDate: t.stateCompletedDate ?? null,
    stateCancelledDate: t.stateCancelledDate ?? null,
    stateRefundDate: t.stateRefundDate ?? null,
    stateReversedDate: t.stateReversedDate ?? null,
    stateErrorDate: t.stateErrorDate ?? null,
    stateErrorCause: t.stateErrorCause ?? null,
    webhookUrl: record.webhook.url ?? null,
    payer: participantOf(t.payer),
    recipient: participantOf(t.recipient),
  };
}
