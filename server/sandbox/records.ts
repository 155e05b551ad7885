/** Building new transaction records and moving them between states; pure functions of their inputs. */
import { randomBytes } from 'node:crypto';
import { taxNumberDigits } from '../../core/cpf';
import { formatAmount6 } from '../../core/money';
import { recipientAccount, type Participant, type TransactionRecord, type TransactionState, type WebhookConfig } from '../provider/schemas';
import type { Addresses } from './addresses';
import type { ChargesOf } from './billing';
import { MERCHANT, OPERATOR, SANDBOX_BANK } from './defaults';
import type { StoredTransaction, TransactionKind } from './model';

/** Random, unguessable ids: 24 hex characters, like the provider's object ids but never sequential. */
export const newId = () => randomBytes(12).toString('hex');

const KIND: Record<TransactionKind, Pick<TransactionRecord['transaction'], 'type' | 'category' | 'paymentType'>> = {
  'pix-cashin': { type: 'Credit', category: 'PartnerSales', paymentType: 'PIX' },
  'pix-cashout': { type: 'Debit', category: 'PartnerWithdrawals', paymentType: 'PIX' },
  openfinance: { type: 'Credit', category: null, paymentType: 'OpenFinance' },
};

export interface NewTransaction {
  id: string;
  kind: TransactionKind;
  now: Date;
  state: 'Created' | 'Registered';
  amountCents: number;
  orderId?: string | undefined;
  orderDescription?: string | undefined;
  webhook: WebhookConfig;
  payment: TransactionRecord['payment'];
  internal: StoredTransaction['internal'];
}

export function newTransaction(input: NewTransaction, chargesOf: ChargesOf): StoredTransaction {
  const id = input.id;
  const date = input.now.toISOString();
  const transaction: TransactionRecord['transaction'] = {
    id,
    externalId: newId(),
    orderId: input.orderId ?? null,
    orderDescription: input.orderDescription ?? null,
    date,
    ...KIND[input.kind],
    state: input.state,
    stateRegisteredDate: input.state === 'Registered' ? date : null,
    stateCompletedDate: null,
    stateCancelledDate: null,
    stateRefundDate: null,
    stateReversedDate: null,
    stateErrorDate: null,
    stateErrorCause: null,
    amount: formatAmount6(input.amountCents),
    receiptAmount: null,
    currency: 'BRL',
    ...chargesOf(input.amountCents),
    receiptUrl: null,
    receiptDate: null,
    receiptVoucher: null,
    metadata: {},
    payer: null,
    recipient: null,
    customerName: MERCHANT.name,
    accountName: MERCHANT.accountName,
    accountNumber: MERCHANT.accountNumber,
  };
  // The contract knows three delivery statuses; before the first event there is nothing delivered yet: Pending.
  const webhook = {
    url: input.webhook.url,
    customHeaderName: input.webhook.customHeaderName ?? null,
    customHeaderValue: input.webhook.customHeaderValue ?? null,
    deliveryStatus: 'Pending',
    deliveryTime: null,
  };
  const internal = {
    ...input.internal,
    noEventYet: true,
    ...(input.state === 'Registered' ? { registeredAt: date } : {}),
  };
  return { kind: input.kind, record: { transaction, payment: input.payment, webhook }, internal };
}

/** The end user of a completing transaction (payer of a cash-in, recipient of a cash-out); the operator is the other side. */
export interface Settlement {
  counterparty: { name: string; taxNumber: string };
  /** Effective amount of an editable cash-in. */
  amountCents?: number;
}

const participant = (who: { name: string; taxNumber: string }): Participant => ({ ...SANDBOX_BANK, ...who });

/** The recipient of a cash-out paid to a bank account: that account, at an institution the sandbox knows only by ISPB. */
function accountParticipant(who: { name: string; taxNumber: string }, account: unknown): Participant {
  const parsed = recipientAccount.safeParse(account);
  if (!parsed.success) return participant(who);
  const { ispb, branch, number, digit, type } = parsed.data;
  return {
    bankCode: null,
    bankIspb: ispb,
    bankName: null,
    accountAgency: branch,
    accountNumber: number,
    accountDigit: digit ?? null,
    accountType: type,
    ...who,
  };
}

/** 32 characters shaped like a PIX end-to-end id: E + participant + minute + random. */
function voucher(now: Date): string {
  const minute = now.toISOString().replace(/\D/g, '').slice(0, 12);
  return `E${SANDBOX_BANK.bankIspb}${minute}${randomBytes(6).toString('hex').toUpperCase().slice(0, 11)}`;
}

/**
 * The record after moving to `to`. Only stateRegisteredDate and the current state's date are set; the receipt and the
 * effective participants exist only on Completed.
 */
export function transition(
  tx: StoredTransaction,
  to: TransactionState,
  now: Date,
  deps: { addresses: Addresses; chargesOf: ChargesOf; settlement?: Settlement },
): StoredTransaction {
  const next = structuredClone(tx);
  const t = next.record.transaction;
  const at = now.toISOString();
  t.state = to;
  // "Date fields other than the one matching the current state are empty": the registration date shows while
  // Registered only; the emulator keeps it (internal.registeredAt) for the payment requests' execution fields.
  delete next.internal.noEventYet;
  if (to === 'Registered' || (to === 'Completed' && !next.internal.registeredAt)) next.internal.registeredAt ??= at;
  t.stateRegisteredDate = to === 'Registered' ? (next.internal.registeredAt ?? at) : null;
  t.stateCompletedDate = to === 'Completed' ? at : null;
  t.stateCancelledDate = to === 'Cancelled' ? at : null;
  t.stateReversedDate = to === 'Reversed' ? at : null;
  t.stateErrorDate = to === 'Error' ? at : null;
  t.stateErrorCause = to === 'Error' ? 'PaymentProcessingError' : null;
  t.stateRefundDate = null;
  if (to === 'Completed' && deps.settlement) {
    const { amountCents } = deps.settlement;
    // The request keeps a tax number as sent; the effective participant carries it as the bank reports it, digits only.
    const counterparty = { ...deps.settlement.counterparty, taxNumber: taxNumberDigits(deps.settlement.counterparty.taxNumber) };
    if (amountCents !== undefined) Object.assign(t, { amount: formatAmount6(amountCents), ...deps.chargesOf(amountCents) });
    t.receiptAmount = t.amount;
    t.receiptUrl = deps.addresses.receipt(t.id);
    t.receiptDate = at;
    t.receiptVoucher = voucher(now);
    const operator = participant(OPERATOR);
    t.payer = tx.kind === 'pix-cashout' ? operator : participant(counterparty);
    t.recipient = tx.kind === 'pix-cashout' ? accountParticipant(counterparty, next.record.payment.receiver?.account) : operator;
  }
  return next;
}
