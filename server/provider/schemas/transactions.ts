/**
 * A transaction as the provider reports it: its record (whole, or the fields its status rests on), the webhook of
 * each change of its state, and the listing by order id.
 */
import { z } from 'zod';
import { decimalString, isoDate, keepRaw, page } from './common';
import { transactionState } from './pix';

/** Who effectively paid or received; filled once a transaction is Completed. */
export const participant = z.looseObject({
  bankCode: z.string().nullish(),
  bankIspb: z.string().nullish(),
  bankName: z.string().nullish(),
  accountAgency: z.string().nullish(),
  accountNumber: z.string().nullish(),
  accountDigit: z.string().nullish(),
  accountType: z.string().nullish(),
  name: z.string().nullish(),
  taxNumber: z.string().nullish(),
});
export type Participant = z.infer<typeof participant>;

const nullableDate = isoDate.nullish();

export const transactionRecord = z.looseObject({
  transaction: z.looseObject({
    id: z.string(),
    externalId: z.string().nullish(),
    orderId: z.string().nullish(),
    orderDescription: z.string().nullish(),
    date: isoDate,
    type: z.enum(['Credit', 'Debit']),
    category: z.string().nullish(),
    paymentType: z.string().nullish(),
    state: transactionState,
    stateRegisteredDate: nullableDate,
    stateCompletedDate: nullableDate,
    stateCancelledDate: nullableDate,
    stateRefundDate: nullableDate,
    stateReversedDate: nullableDate,
    stateErrorDate: nullableDate,
    stateErrorCause: z.string().nullish(),
    amount: decimalString,
    receiptAmount: decimalString.nullish(),
    currency: z.string().nullish(),
    charges: decimalString.nullish(),
    chargesObject: z
      .looseObject({ costValue: decimalString.nullish(), rateValue: decimalString.nullish(), rate: decimalString.nullish() })
      .nullish(),
    receiptUrl: z.string().nullish(),
    receiptDate: nullableDate,
    receiptVoucher: z.string().nullish(),
    metadata: z.record(z.string(), z.unknown()).nullish(),
    payer: participant.nullish(),
    recipient: participant.nullish(),
    customerName: z.string().nullish(),
    accountName: z.string().nullish(),
    accountNumber: z.string().nullish(),
  }),
  payment: z.looseObject({
    value: z.looseObject({ original: decimalString, editable: z.boolean().optional() }).nullish(),
    payer: z.looseObject({ name: z.string().nullish(), cpf: z.string().nullish(), cnpj: z.string().nullish() }).nullish(),
    receiver: z.looseObject({ name: z.string().nullish(), cpf: z.string().nullish(), cnpj: z.string().nullish() }).nullish(),
    key: z.string().nullish(),
    keyType: z.string().nullish(),
    qrCode: z.string().nullish(),
    qrCodeLocation: z.string().nullish(),
  }),
  webhook: z.looseObject({
    url: z.string().nullish(),
    customHeaderName: z.string().nullish(),
    customHeaderValue: z.string().nullish(),
    deliveryStatus: z.string().nullish(),
    deliveryTime: nullableDate,
  }),
});
export type TransactionRecord = z.infer<typeof transactionRecord>;

/**
 * The same answer as `transactionRecord`, read for a payment's status: the fields the status and its receipt rest on
 * (`state`, `stateErrorCause`, `stateCompletedDate`, `receiptVoucher`, `charges`, the payer's `bankName`), each
 * checked as strictly as there, and nothing else of the record kept. The status path reads nothing else, and a check
 * (and copy) of the whole record's fifty fields it never reads cost a fifth of a millisecond of every payment, with
 * the caches cold as they are between payments (the bench's status row).
 */
const recorded = transactionRecord.shape.transaction.shape;
export const transactionStatus = z.object({
  transaction: z.object({
    id: recorded.id,
    state: recorded.state,
    stateErrorCause: recorded.stateErrorCause,
    stateCompletedDate: recorded.stateCompletedDate,
    receiptVoucher: recorded.receiptVoucher,
    charges: recorded.charges,
    payer: z.object({ bankName: participant.shape.bankName }).nullish(),
  }),
});
export type TransactionStatus = z.infer<typeof transactionStatus>;

/** The body the provider POSTs to `webhook.url` on each state change. */
export const webhookEvent = z.looseObject({
  id: z.string(),
  transactionState: transactionState,
  transactionDate: isoDate.nullish(),
  transactionOrderId: z.string().nullish(),
  transactionOrderDescription: z.string().nullish(),
  transactionReceipt: z.string().nullish(),
  transactionReceiptDate: nullableDate,
  transactionReceiptVoucher: z.string().nullish(),
  transactionAmount: decimalString,
  transactionType: z.enum(['Credit', 'Debit']),
  transactionPaymentType: z.string().nullish(),
  stateRegisteredDate: nullableDate,
  stateCompletedDate: nullableDate,
  stateCancelledDate: nullableDate,
  stateRefundDate: nullableDate,
  stateReversedDate: nullableDate,
  stateErrorDate: nullableDate,
  stateErrorCause: z.string().nullish(),
  webhookUrl: z.string().nullish(),
  payer: participant.nullish(),
  recipient: participant.nullish(),
});
export type WebhookEvent = z.infer<typeof webhookEvent>;

/** Query of the order-id listing; all five are required by the provider, the range at most one day. */
export const listTransactionsQuery = z.object({
  transactionOrderId: z.string().min(1),
  startDate: isoDate,
  endDate: isoDate,
  'dataset.limit': z.union([z.literal(5), z.literal(10), z.literal(20)]),
  'dataset.offset': z.number().int().min(0),
  account: z.string().optional(),
});
export type ListTransactionsQuery = z.input<typeof listTransactionsQuery>;

/** The contract does not publish the listing's answer; the public docs show this page, kept whole as `raw`. */
export const transactionList = keepRaw(page(z.looseObject({ transaction: transactionRecord.shape.transaction })));
export type TransactionList = z.infer<typeof transactionList>;
