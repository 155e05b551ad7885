/** PIX cash-in/out, OpenFinance initiation, transaction record, webhook payload, listing, balance, sandbox. */
import { z } from 'zod';
import { TRANSACTION_STATES, type TransactionState } from '../../../core/states';
import { decimalString, isoDate, page, webhookConfig } from './common';

/** Every spelling the provider uses; `Canceled` and `Reverted` are read as `Cancelled` and `Reversed`. */
export const transactionState = z
  .enum([...TRANSACTION_STATES, 'Canceled', 'Reverted'])
  .transform((s): TransactionState => (s === 'Canceled' ? 'Cancelled' : s === 'Reverted' ? 'Reversed' : s));
export type { TransactionState };

export const pixKeyType = z.enum(['CPF', 'EMAIL', 'PHONE', 'EVP']);
export type PixKeyType = z.infer<typeof pixKeyType>;

// ---- requests ----

export const cashInRequest = z.object({
  payment: z.object({
    payer: z.object({ cpf: z.string(), name: z.string().optional() }).optional(),
    value: z.object({ original: decimalString, editable: z.boolean().optional() }),
  }),
  transaction: z.object({ orderId: z.string().min(1), orderDescription: z.string().optional() }).optional(),
  webhook: webhookConfig,
});
export type CashInRequest = z.input<typeof cashInRequest>;

export const cashOutRequest = z.object({
  payment: z.object({
    recipient: z.object({ name: z.string(), cpf: z.string() }),
    // `type` is optional here on purpose: the provider answers a missing type with 409 PixKeyTypeNotAllowed.
    key: z.object({ type: pixKeyType.optional(), value: z.string() }),
    value: decimalString,
  }),
  transaction: z.object({ orderId: z.string().min(1), orderDescription: z.string().optional() }),
  webhook: webhookConfig,
});
export type CashOutRequest = z.input<typeof cashOutRequest>;

export const initiationRequest = z.object({
  payment: z.object({
    payer: z.object({ taxNumber: z.string() }),
    value: z.object({ original: decimalString }),
    redirectUrl: z.url({ protocol: /^https?$/ }),
  }),
  transaction: z.object({ orderId: z.string().min(1).optional(), orderDescription: z.string().optional() }).optional(),
  webhook: webhookConfig,
});
export type InitiationRequest = z.input<typeof initiationRequest>;

/** Body of the sandbox complete operation; needed only for anonymous PIX. */
export const sandboxCompleteRequest = z.object({ name: z.string().optional(), taxNumber: z.string().optional() });
export type SandboxCompleteRequest = z.infer<typeof sandboxCompleteRequest>;

// ---- responses ----

const createdTransaction = z.looseObject({
  id: z.string(),
  orderId: z.string().nullish(),
  date: isoDate,
  state: transactionState,
  amount: decimalString,
});

export const cashInResponse = z.object({
  transaction: createdTransaction,
  payment: z.looseObject({ qrCode: z.string(), qrCodeLocation: z.string() }),
});
export type CashInResponse = z.infer<typeof cashInResponse>;

export const cashOutResponse = z.object({ transaction: createdTransaction });
export type CashOutResponse = z.infer<typeof cashOutResponse>;

export const initiationResponse = z.object({ transactionId: z.string(), checkoutUrl: z.string() });
export type InitiationResponse = z.infer<typeof initiationResponse>;

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

export const transactionRecord = z.object({
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

export const transactionList = page(z.object({ transaction: transactionRecord.shape.transaction }));
export type TransactionList = z.infer<typeof transactionList>;

/** Balance: the provider does not publish its shape; the emulator answers this one (see docs/spec-gaps.md). */
export const balance = z.looseObject({
  balance: decimalString,
  currency: z.string(),
  date: isoDate,
});
export type Balance = z.infer<typeof balance>;

export const sandboxResult = z.looseObject({
  transactionId: z.string(),
  transactionState: transactionState,
  stateErrorCause: z.string().nullish(),
});
export type SandboxResult = z.infer<typeof sandboxResult>;
