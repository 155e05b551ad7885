/**
 * The state machine of a company payment: the back office's record of a payment request it asks the provider for
 * (paying a receiver's bank account). Until the provider has the request, the record is ours: one above the approval
 * threshold waits for an owner (`PendingApproval`) and, rejected, ends (`Rejected`) without ever reaching the
 * provider; approved (or below the threshold), it is ours to send (`Sending`) until the provider answers with its
 * request (`Requested`). From then on the provider's approval flow is the request's truth (its status is read there,
 * never copied here). An approved one the provider refused (nothing was made) waits for a decision again, as a
 * cash-out does. The stores guard their updates with the states listed here (`companyPaymentMovesFrom`).
 */
import { CASH_OUT_PENDING_APPROVAL, CASH_OUT_REJECTED, CASH_OUT_SENDING } from './cashout-machine';

/** The provider answered the create: the request is at the provider, under its id. */
export const COMPANY_PAYMENT_REQUESTED = 'Requested';

export const COMPANY_PAYMENT_STATES = [CASH_OUT_PENDING_APPROVAL, CASH_OUT_REJECTED, CASH_OUT_SENDING, COMPANY_PAYMENT_REQUESTED] as const;
export type CompanyPaymentState = (typeof COMPANY_PAYMENT_STATES)[number];

export type CompanyPaymentEvent =
  /** An owner (not its maker, never the admin token) approved it: it may be sent. */
  | 'approve'
  /** An owner rejected it. */
  | 'reject'
  /** The provider clearly refused the create of an approved one (nothing was made): it waits for a decision again. */
  | 'refused'
  /** The provider answered the create (or a settlement found the request it made). */
  | 'answer';

interface CompanyPaymentTransition {
  from: CompanyPaymentState;
  on: CompanyPaymentEvent;
  to: CompanyPaymentState;
}

export const COMPANY_PAYMENT_TRANSITIONS: readonly CompanyPaymentTransition[] = [
  { from: CASH_OUT_PENDING_APPROVAL, on: 'approve', to: CASH_OUT_SENDING },
  { from: CASH_OUT_PENDING_APPROVAL, on: 'reject', to: CASH_OUT_REJECTED },
  { from: CASH_OUT_SENDING, on: 'refused', to: CASH_OUT_PENDING_APPROVAL },
  { from: CASH_OUT_SENDING, on: 'answer', to: COMPANY_PAYMENT_REQUESTED },
];

/** The states a company payment may be in for `event` to move it: the guard of the store's update. */
export const companyPaymentMovesFrom = (event: CompanyPaymentEvent): CompanyPaymentState[] =>
  COMPANY_PAYMENT_TRANSITIONS.filter((t) => t.on === event).map((t) => t.from);

/** The state `event` moves a company payment in `state` to; undefined when it may not. */
export const companyPaymentNext = (state: string, event: CompanyPaymentEvent): CompanyPaymentState | undefined =>
  COMPANY_PAYMENT_TRANSITIONS.find((t) => t.from === state && t.on === event)?.to;
