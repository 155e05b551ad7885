/** PIX cash-in/out, OpenFinance initiation, balance, sandbox; a transaction as reported is ./transactions.ts. */
import { z } from 'zod';
import { TRANSACTION_STATES, type TransactionState } from '../../../core/states';
import { decimalString, isoDate, keepRaw, maybe, webhookConfig } from './common';

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
