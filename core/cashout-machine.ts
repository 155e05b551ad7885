/**
 * The cash-out state machine (refunds are cash-outs): its transitions as data, the one place its state rules are
 * written. A cash-out is ours (`Sending`) until the provider answers; then it follows the provider's transaction
 * states until a final one, after which nothing changes it. The stores guard their updates with the states listed
 * here (`cashOutMovesFrom`), so neither holds a rule of its own.
 */
import { FINAL_TRANSACTION_STATES, TRANSACTION_STATES, type TransactionState } from './states';

/** A cash-out whose provider call has not answered yet: the key is taken, the transaction not known. */
export const CASH_OUT_SENDING = 'Sending';
export type CashOutState = typeof CASH_OUT_SENDING | TransactionState;

export type CashOutEvent =
  /** The provider answered the create (or a settlement found what it made). */
  | 'answer'
  /** The provider's state of the transaction, re-read. */
  | 'provider';

export interface CashOutTransition {
  from: CashOutState;
  on: CashOutEvent;
  to: readonly TransactionState[];
}

const LIVE = TRANSACTION_STATES.filter((state) => !(FINAL_TRANSACTION_STATES as readonly string[]).includes(state));

export const CASH_OUT_TRANSITIONS: readonly CashOutTransition[] = [
  { from: CASH_OUT_SENDING, on: 'answer', to: TRANSACTION_STATES },
  ...LIVE.map((from) => ({ from, on: 'provider' as const, to: TRANSACTION_STATES })),
];

/** The states a cash-out may be in for `event` to move it: the guard of the store's update. */
export const cashOutMovesFrom = (event: CashOutEvent): CashOutState[] =>
  CASH_OUT_TRANSITIONS.filter((t) => t.on === event).map((t) => t.from);

/** Whether `event` may move a cash-out in `state` to `to`. */
export const cashOutMay = (state: string, event: CashOutEvent, to: string): boolean =>
  CASH_OUT_TRANSITIONS.some((t) => t.from === state && t.on === event && (t.to as readonly string[]).includes(to));
