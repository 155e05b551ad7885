/**
 * What the merchant's back-office needs from the store besides the checkouts themselves: the checkouts listed with
 * filters and a cursor, and the cash-outs the back-office made (each under its `Idempotency-Key`, so a repeated or
 * concurrent request, on any instance and after a restart, makes one cash-out; a refund of a paid checkout, whole or
 * partial, is a cash-out linked to its checkout, and the refunds of a checkout never add up to more than was paid).
 * A movement above the approval threshold is kept `PendingApproval` until an owner decides it. Written once for both
 * databases in `back-office-part.ts` (the store contract tests run on both).
 */
import { z } from 'zod';
import {
  CASH_OUT_PENDING_APPROVAL,
  CASH_OUT_REJECTED,
  CASH_OUT_SENDING,
  CASH_OUT_STATES,
  isFinalCashOutState,
} from '../../core/cashout-machine';
import { METHODS } from '../../core/methods';
import { CHECKOUT_STATES } from '../../core/states';
import type { Checkout } from './types';

const InstantSchema = z.iso.datetime({ offset: true }).transform((value) => new Date(value).toISOString());

/** Ours before the provider's: waiting for an owner, rejected by one, and sent but not answered yet. */
export { CASH_OUT_PENDING_APPROVAL, CASH_OUT_REJECTED, CASH_OUT_SENDING, isFinalCashOutState };
export const CashOutStateSchema = z.enum(CASH_OUT_STATES);
export type CashOutState = z.infer<typeof CashOutStateSchema>;

/** Cash-out states that still move at the provider (`Sending` is ours: the provider has not answered). */
export const UNSETTLED_CASH_OUT_STATES = ['Created', 'Registered'] as const;
/**
 * A refund in these states holds its amount: the refunds of a checkout in them never add up to more than it was paid
 * (a failed or rejected one frees its amount).
 */
export const HOLDING_REFUND_STATES = [CASH_OUT_PENDING_APPROVAL, CASH_OUT_SENDING, 'Created', 'Registered', 'Completed'] as const;
/** Whether a refund in `state` holds its amount. */
export const holdsRefund = (state: string) => (HOLDING_REFUND_STATES as readonly string[]).includes(state);

export const CashOutSchema = z.object({
  /** The client's `Idempotency-Key`: the same key is always this cash-out. */
  idempotencyKey: z.string().min(1).max(128),
  /** Hash of what was asked under the key; the key with another request is refused. */
  fingerprint: z.string().min(1),
  /** The provider's `transaction.orderId`, chosen before the call so a lost answer can be looked up. */
  orderId: z.string().min(1),
  transactionId: z.string().nullable(),
  state: CashOutStateSchema,
  amountCents: z.int().positive(),
  recipientName: z.string(),
  recipientCpf: z.string(),
  keyType: z.string(),
  keyValue: z.string(),
  description: z.string().nullable(),
  /** The checkout whose payment (all of it or a part) this cash-out gives back, when it is a refund. */
  refundOf: z.string().nullable(),
  /** The provider's charges (a decimal string), once its record was read. */
  charges: z.string().nullable(),
  /** Who asked for it (the back office's actor name: an e-mail, or `api-token`); null for those made before step 13. */
  requestedBy: z.string().nullable(),
  /** The owner who approved or rejected it, and when; null while it needs no decision or waits for one. */
  decidedBy: z.string().nullable(),
  decidedAt: InstantSchema.nullable(),
  createdAt: InstantSchema,
  updatedAt: InstantSchema,
});
export type CashOut = z.infer<typeof CashOutSchema>;

export const NewCashOutSchema = CashOutSchema.omit({
  transactionId: true,
  state: true,
  charges: true,
  decidedBy: true,
  decidedAt: true,
  updatedAt: true,
}).extend({
  description: z.string().nullable().default(null),
  refundOf: z.string().nullable().default(null),
  requestedBy: z.string().nullable().default(null),
  /** Kept `PendingApproval` (nothing is sent before an owner approves it) rather than taken `Sending`. */
  awaitsApproval: z.boolean().default(false),
});
export type NewCashOut = z.input<typeof NewCashOutSchema>;

export type ReserveCashOutResult =
  /** The key was free: the caller makes the provider call (or waits for the approval), then activates or discards. */
  | { outcome: 'created'; cashOut: CashOut }
  /** The key was taken: its cash-out (maybe still `Sending` or `PendingApproval`). */
  | { outcome: 'existing'; cashOut: CashOut }
  /** A refund of a checkout that is not (or no longer) Completed: nothing was paid to give back. */
  | { outcome: 'not_paid' }
  /**
   * A refund of a checkout while another refund of it is still `Sending` (its provider call unanswered, so whether its
   * money left is unknown): a new refund waits until that one is settled, so one intent is never paid twice.
   */
  | { outcome: 'in_progress' }
  /** A refund that would take the checkout's refunds past what was paid: `refundableCents` is what is left. */
  | { outcome: 'exceeds_paid'; refundableCents: number };

/** An owner's decision on a movement waiting for approval. */
export interface CashOutDecision {
  approve: boolean;
  /** The owner's name, as the actor's. */
  by: string;
  at: string;
}

export type DecideCashOutResult =
  /** It was `PendingApproval` and is now `Sending` (approved) or `Rejected`. */
  | { outcome: 'decided'; cashOut: CashOut }
  /** It is not waiting for a decision (decided already, or never needed one). */
  | { outcome: 'not_pending'; cashOut: CashOut }
  | { outcome: 'not_found' };

/** Which movements the approvals list shows: those waiting, or those decided (most recently decided first). */
export type ApprovalListState = 'pending' | 'decided';

/** Which checkouts a back-office list shows; every field narrows it. `Creating` reservations are never listed. */
export const CheckoutFilterSchema = z.object({
  states: z.array(z.enum(CHECKOUT_STATES)).optional(),
  method: z.enum(METHODS).optional(),
  /** Created at or after. */
  from: InstantSchema.optional(),
  /** Created before. */
  to: InstantSchema.optional(),
  orderId: z.string().min(1).optional(),
  /** `duplicate`: a second transaction of its order; `late`: paid after its window; `flagged`: either. */
  flag: z.enum(['duplicate', 'late', 'flagged']).optional(),
  /** Cursor: only checkouts after this one in the list's order (newest first, then id descending). */
  after: z.object({ createdAt: InstantSchema, id: z.string() }).optional(),
});
export type CheckoutFilter = z.input<typeof CheckoutFilterSchema>;

/** One provider webhook about a checkout, and what the BFF made of it (`WebhookReceipt.outcome`). */
export const CheckoutWebhookSchema = z.object({
  checkoutId: z.string().min(1),
  transactionId: z.string().min(1),
  /** The state the payload claimed (a hint: the BFF re-reads the provider). */
  state: z.string().nullable(),
  outcome: z.enum(['applied', 'adopted', 'ignored']),
  receivedAt: InstantSchema,
});
export type CheckoutWebhook = z.infer<typeof CheckoutWebhookSchema>;

/**
 * A provider transaction of one of our orders that is not provably ours (our secret and webhook address echoed, the
 * order's amount): never adopted, never shown to a shopper, listed for the merchant.
 */
export const ForeignTransactionSchema = z.object({
  transactionId: z.string().min(1),
  orderId: z.string().min(1),
  method: z.string().nullable(),
  /** As the provider gave it. */
  amount: z.string(),
  state: z.string(),
  /** What failed: `secret`, `webhook_url`, `amount`, `unknown_order`. */
  reason: z.string().min(1),
  seenAt: InstantSchema,
});
export type ForeignTransaction = z.infer<typeof ForeignTransactionSchema>;

export interface BackOfficeStore {
  /** Keeps a foreign transaction once (the first sighting wins); true when it was new. */
  recordForeignTransaction(transaction: z.input<typeof ForeignTransactionSchema>): Promise<boolean>;
  /** The foreign transactions, most recently seen first. */
  listForeignTransactions(limit: number): Promise<ForeignTransaction[]>;
  /** Keeps one webhook a checkout received; written after the webhook is answered, so it never delays it. */
  recordWebhook(webhook: z.input<typeof CheckoutWebhookSchema>): Promise<void>;
  /** The checkout's webhooks, oldest first, at most `limit` (the most recent ones when there are more). */
  webhooksOf(checkoutId: string, limit: number): Promise<CheckoutWebhook[]>;
  /** Checkouts matching `filter`, newest first (`createdAt` then `id`, both descending), at most `limit`. */
  listCheckouts(filter: CheckoutFilter, limit: number): Promise<Checkout[]>;
  /**
   * Takes the idempotency key for a new cash-out in state `Sending` (or `PendingApproval`), atomically across
   * processes and instances; or returns the key's cash-out. A refund is taken only of a Completed checkout and only
   * while the refunds holding an amount (`HOLDING_REFUND_STATES`), this one included, add up to at most the checkout's
   * amount: checked in the reservation's transaction (the checkout's row locked), so concurrent refunds on any
   * instance never pass it.
   */
  reserveCashOut(draft: NewCashOut): Promise<ReserveCashOutResult>;
  /**
   * An owner's decision, atomically: `PendingApproval` → `Sending` (approved) or `Rejected`, with who and when. Of two
   * decisions at once, exactly one is `decided`.
   */
  decideCashOut(idempotencyKey: string, decision: CashOutDecision): Promise<DecideCashOutResult>;
  /** Movements waiting for approval (oldest first), or decided ones (most recently decided first), at most `limit`. */
  listApprovals(state: ApprovalListState, limit: number): Promise<CashOut[]>;
  /** `Sending` → the provider's answer. Returns undefined when the key's cash-out is not `Sending` (settled meanwhile). */
  activateCashOut(idempotencyKey: string, transactionId: string, state: string, at: string): Promise<CashOut | undefined>;
  /**
   * Stores the provider's answer to a call that came after its reservation was settled without it (its key freed, or
   * the approved movement back to waiting for a decision, or rejected since): the money left, so it is never dropped.
   * The cash-out is put back as `reserved` had it, activated, when its key is free; else activated from any state that
   * holds no transaction (`late-answer` in core/cashout-machine.ts). With its merchant events, as an activation's.
   * Resolves with what the key holds afterwards (unchanged when it holds a transaction already).
   */
  adoptCashOut(reserved: CashOut, transactionId: string, state: string, at: string): Promise<CashOut | undefined>;
  /**
   * Frees a key whose provider call was refused or found to have made nothing: a `Sending` cash-out is deleted, or,
   * when an owner had approved it, waits for a decision again (`PendingApproval`). A cash-out past `Sending` stays.
   */
  discardCashOut(idempotencyKey: string): Promise<void>;
  /**
   * Records the provider's state (and charges, when given) of an activated cash-out. Changes nothing once it is
   * final, or when nothing differs; `changed` says whether a row moved.
   */
  updateCashOut(
    idempotencyKey: string,
    fields: { state: string; charges?: string | null },
    at: string,
  ): Promise<{ changed: boolean; cashOut: CashOut | undefined }>;
  getCashOut(idempotencyKey: string): Promise<CashOut | undefined>;
  /** The cash-out the provider's transaction is (a webhook of it names only the transaction). */
  findCashOutByTransaction(transactionId: string): Promise<CashOut | undefined>;
  /** The most recent cash-outs, newest first. */
  listCashOuts(limit: number): Promise<CashOut[]>;
  /** Cash-outs still `Created` or `Registered` at the provider, least recently updated first. */
  listUnsettledCashOuts(limit: number): Promise<CashOut[]>;
  /** The refunds (cash-outs with `refundOf`) of these checkouts, oldest first. */
  refundsOf(checkoutIds: readonly string[]): Promise<CashOut[]>;
}
