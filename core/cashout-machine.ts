/**
 * The cash-out state machine (refunds are cash-outs): its transitions as data, the one place its state rules are
 * written. A movement above the approval threshold waits for an owner (`PendingApproval`): approved, it becomes ours
 * to send (`Sending`); rejected, it ends (`Rejected`) without ever reaching the provider. A cash-out is ours
 * (`Sending`) until the provider answers; then it follows the provider's transaction states until a final one, after
 * which nothing changes it. An approved movement whose provider call was refused (nothing was made) waits for a
 * decision again. An answer that comes late, after its reservation was settled without it, is taken from any state
 * that holds no transaction: money that left is never dropped. The stores guard their updates with the states listed here (`cashOutMovesFrom`), so neither holds a
 * rule of its own.
 */
import { FINAL_TRANSACTION_STATES, TRANSACTION_STATES, type TransactionState } from './states';

/** A cash-out whose provider call has not answered yet: the key is taken, the transaction not known. */
export const CASH_OUT_SENDING = 'Sending';
/** A cash-out or refund waiting for an owner's approval: nothing was sent to the provider. */
export const CASH_OUT_PENDING_APPROVAL = 'PendingApproval';
/** A cash-out or refund an owner rejected: final, never sent (a refund's amount is free again). */
export const CASH_OUT_REJECTED = 'Rejected';

export type CashOutState = typeof CASH_OUT_PENDING_APPROVAL | typeof CASH_OUT_REJECTED | typeof CASH_OUT_SENDING | TransactionState;

/** Every state a cash-out may be stored in: ours first, then the provider's. */
export const CASH_OUT_STATES = [CASH_OUT_PENDING_APPROVAL, CASH_OUT_REJECTED, CASH_OUT_SENDING, ...TRANSACTION_STATES] as const;

/** States after which nothing moves a cash-out: the provider's final ones, and a rejection. */
export const FINAL_CASH_OUT_STATES = [...FINAL_TRANSACTION_STATES, CASH_OUT_REJECTED] as const;
export const isFinalCashOutState = (state: string): boolean => (FINAL_CASH_OUT_STATES as readonly string[]).includes(state);

export type CashOutEvent =
  /** An owner (not its maker) approved it: it may be sent. */
  | 'approve'
  /** An owner rejected it. */
  | 'reject'
  /** The provider clearly refused the call of an approved movement (nothing was made): it waits for a decision again. */
  | 'refused'
  /** The provider answered the create (or a settlement found what it made). */
  | 'answer'
  /**
   * The provider's answer came after its reservation was settled without it (the look found nothing yet, so the key
   * was freed, or an approved movement waits for a decision again, or was rejected since): the provider made it, so
   * it is stored all the same.
   */
  | 'late-answer'
  /** The provider's state of the transaction, re-read. */
  | 'provider';

export interface CashOutTransition {
  from: CashOutState;
  on: CashOutEvent;
  to: readonly CashOutState[];
}

const LIVE = TRANSACTION_STATES.filter((state) => !(FINAL_TRANSACTION_STATES as readonly string[]).includes(state));

/** Ours: the states that hold no transaction of the provider. */
const UNANSWERED: readonly CashOutState[] = [CASH_OUT_SENDING, CASH_OUT_PENDING_APPROVAL, CASH_OUT_REJECTED];

export const CASH_OUT_TRANSITIONS: readonly CashOutTransition[] = [
  { from: CASH_OUT_PENDING_APPROVAL, on: 'approve', to: [CASH_OUT_SENDING] },
  { from: CASH_OUT_PENDING_APPROVAL, on: 'reject', to: [CASH_OUT_REJECTED] },
  { from: CASH_OUT_SENDING, on: 'refused', to: [CASH_OUT_PENDING_APPROVAL] },
  { from: CASH_OUT_SENDING, on: 'answer', to: TRANSACTION_STATES },
  ...UNANSWERED.map((from) => ({ from, on: 'late-answer' as const, to: TRANSACTION_STATES })),
  ...LIVE.map((from) => ({ from, on: 'provider' as const, to: TRANSACTION_STATES })),
];

/** The states a cash-out may be in for `event` to move it: the guard of the store's update. */
export const cashOutMovesFrom = (event: CashOutEvent): CashOutState[] =>
  CASH_OUT_TRANSITIONS.filter((t) => t.on === event).map((t) => t.from);

/** Whether `event` may move a cash-out in `state` to `to`. */
export const cashOutMay = (state: string, event: CashOutEvent, to: string): boolean =>
  CASH_OUT_TRANSITIONS.some((t) => t.from === state && t.on === event && (t.to as readonly string[]).includes(to));
