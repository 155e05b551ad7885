/** PIX cash-in/out, OpenFinance initiation, transaction record, webhook payload, listing, balance, sandbox. */
import { z } from 'zod';
import { TRANSACTION_STATES, type TransactionState } from '../../../core/states';
import { decimalString, isoDate, keepRaw, maybe, page, webhookConfig } from './common';

/** Every spelling the provider uses; `Canceled` and `Reverted` are read as `Cancelled` and `Reversed`. */
export const transactionState = z
  .enum([...TRANSACTION_STATES, 'Canceled', 'Reverted'])
  .transform((s): TransactionState => (s === 'Canceled' ? 'Cancelled' : s === 'Reverted' ? 'Reversed' : s));
export type { TransactionState };

/** Upper case only, as the contract lists them; `cpf`, `e-mail` or `phone` are refused with a 400 `enum`. */
export const pixKeyType = z.enum(['CPF', 'EMAIL', 'PHONE', 'EVP']);
export type PixKeyType = z.infer<typeof pixKeyType>;

/** Kinds of bank account, as the contract spells a participant's `accountType`. */
export const bankAccountType = z.enum(['CheckingAccount', 'SavingsAccount', 'SalaryAccount']);
export type BankAccountType = z.infer<typeof bankAccountType>;

/**
 * A recipient's bank account for a cash-out (the provider's public docs): the institution's 8-digit ISPB, the branch,
 * the account number and its check digit, and the kind of account. `digit` is required when no PIX key is given.
 */
export const recipientAccount = z.object({
  ispb: z.string().regex(/^\d{8}$/, 'Expected the 8-digit ISPB of the institution'),
  branch: z.string().regex(/^\d{1,4}$/, 'Expected the branch number, up to 4 digits'),
  number: z.string().regex(/^\d{1,20}$/, 'Expected the account number, digits only'),
  digit: z
    .string()
    .regex(/^[\dxX]$/, 'Expected the check digit, one digit or X')
    .optional(),
  type: bankAccountType,
});
export type RecipientAccount = z.infer<typeof recipientAccount>;

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

/**
 * One endpoint, three bodies (the provider's public docs): a PIX key; a PIX key plus the recipient's bank account; or
 * the bank account alone (`payment.recipient.account`, with its `digit`). A body with neither key nor account is
 * refused by the provider (400 `required` naming `key`).
 */
export const cashOutRequest = z.object({
  payment: z.object({
    recipient: z.object({ name: z.string(), cpf: z.string(), account: recipientAccount.optional() }),
    // `type` is optional here on purpose: the provider answers a missing type with 409 PixKeyTypeNotAllowed.
    key: z.object({ type: pixKeyType.optional(), value: z.string() }).optional(),
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

export const cashInResponse = z.looseObject({
  transaction: createdTransaction,
  payment: z.looseObject({ qrCode: z.string(), qrCodeLocation: z.string() }),
});
export type CashInResponse = z.infer<typeof cashInResponse>;

export const cashOutResponse = z.looseObject({ transaction: createdTransaction });
export type CashOutResponse = z.infer<typeof cashOutResponse>;

export const initiationResponse = z.looseObject({ transactionId: z.string(), checkoutUrl: z.string() });
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

/** Options of the balance: one account (`/balance/{accountUid}`) and the closing balance of a past day. */
export const balanceQuery = z.object({
  /** Another account of the merchant; without it, the access key's own account. */
  accountUid: z.string().min(1).optional(),
  /** A day, read in UTC: the closing balance of that day. Sent as `YYYY-MM-DDT00:00:00.000Z`. */
  filterDate: z
    .union([z.date(), z.string()])
    .transform((value, ctx) => {
      const ms = value instanceof Date ? value.getTime() : Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
      if (!Number.isFinite(ms)) {
        ctx.addIssue({ code: 'custom', message: 'filterDate must be a date or an ISO 8601 date' });
        return z.NEVER;
      }
      return `${new Date(ms).toISOString().slice(0, 10)}T00:00:00.000Z`;
    })
    .optional(),
});
export type BalanceQuery = z.input<typeof balanceQuery>;

/** A signed decimal as text; a JSON number is turned into its shortest text (never used in arithmetic as a float). */
const balanceAmount = z.union([
  z.string().regex(/^-?\d+(\.\d+)?$/),
  z
    .number()
    .refine((n) => Number.isFinite(n) && !/e/i.test(String(n)))
    .transform((n) => String(n)),
]);
/** Where a balance answer may hold its amount, in this order: the emulator's name first, then common spellings. */
const BALANCE_FIELDS = ['balance', 'availableBalance', 'available', 'currentBalance', 'amount', 'value', 'total'] as const;

function findAmount(answer: Record<string, unknown>, depth = 0): string | undefined {
  for (const name of BALANCE_FIELDS) {
    const value = answer[name];
    const amount = balanceAmount.safeParse(value);
    if (amount.success) return amount.data;
    if (depth === 0 && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const inner = findAmount(value as Record<string, unknown>, 1);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

/**
 * Balance: the provider does not publish its shape. The amount is read from `balance` (what the emulator sends) or
 * the first of the other common names that holds a decimal; everything else is optional, and the whole answer is
 * kept as `raw`. An answer with no amount under any of those names is refused (there is no balance to give).
 */
export const balance = keepRaw(
  z
    .looseObject({
      currency: maybe(z.string()),
      date: maybe(isoDate),
      accountUid: maybe(z.string()),
    })
    .transform((answer, ctx) => {
      const amount = findAmount(answer);
      if (amount === undefined) {
        ctx.addIssue({ code: 'custom', message: `no balance amount (looked for ${BALANCE_FIELDS.join(', ')})` });
        return z.NEVER;
      }
      return { ...answer, balance: amount };
    }),
);
export type Balance = z.infer<typeof balance>;

export const sandboxResult = z.looseObject({
  transactionId: z.string(),
  transactionState: transactionState,
  stateErrorCause: z.string().nullish(),
});
export type SandboxResult = z.infer<typeof sandboxResult>;
