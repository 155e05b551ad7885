/**
 * The approval of movements (maker-checker): a cash-out or refund above the threshold is kept `PendingApproval` by the
 * cash-out desk (./cashouts.ts), a payment request to a company by its desk (./company-payments.ts), and nothing
 * reaches the provider until an owner other than its maker approves it. The admin token is no person, so it is never
 * that second owner: it may reject what a user asked for, never approve it. The decision is one atomic change in the
 * store, so of two owners deciding at once exactly one does; an approval then sends the movement through the saga
 * (the provider call, a crash after the approval settled by the usual look-up), a rejection ends it (a refund's
 * amount is free again).
 */
import type { Clock } from '../lib/clock';
import { CASH_OUT_PENDING_APPROVAL, type ApprovalListState, type BackOfficeStore, type CashOut } from '../store/back-office';
import type { CompanyPayment, CompanyPaymentStore } from '../store/company-payments';
import type { CashOutDesk } from './cashouts';
import type { CompanyPaymentDesk, DeskPayment } from './company-payments';
import { approvalByMaker, approvalByToken, approvalNotFound, approvalNotPending } from './errors';

/** A movement that needs (or needed) an owner's decision: waiting for one, or decided. */
export const isApproval = (movement: CashOut | CompanyPayment) =>
  movement.state === CASH_OUT_PENDING_APPROVAL || movement.decidedAt !== null;

export interface Decision {
  approve: boolean;
  /** The deciding owner's name (the back office's actor). */
  by: string;
  /** The decision comes from the admin token (a script), not from a signed-in owner. */
  byToken: boolean;
}

/** Maker-checker: the maker never decides its own movement, and the admin token never approves one. */
function assertChecker(requestedBy: string | null, { approve, by, byToken }: Decision) {
  if (requestedBy === by) throw approvalByMaker();
  if (approve && byToken) throw approvalByToken();
}

export interface ApprovalsOptions {
  store: BackOfficeStore & CompanyPaymentStore;
  desk: CashOutDesk;
  companyPayments: CompanyPaymentDesk;
  clock: Clock;
}

/** The approvals of movements, for the back office's routes. */
export interface Approvals {
  /** Cash-outs and refunds waiting for a decision (oldest first), or decided ones (most recently decided first). */
  list(state: ApprovalListState, limit: number): Promise<CashOut[]>;
  /** Payment requests waiting for a decision (oldest first), or decided ones (most recently decided first). */
  listCompanyPayments(state: ApprovalListState, limit: number): Promise<CompanyPayment[]>;
  /**
   * Decides the cash-out or refund under `key`: 404 when none needs a decision there, 403 when `by` asked for it
   * (or it is the token approving), 409 when it was decided already. Approved, it is sent at once and answered as
   * the provider left it (a refusal of the provider's comes back as the merchant's refusal, and the movement waits
   * for a decision again); rejected, it is answered `Rejected`.
   */
  decide(key: string, decision: Decision): Promise<CashOut>;
  /**
   * Decides the payment request under `key`, with the same rules; approved, it is asked of the provider at once
   * (`Requested` with the provider's request, which the provider's approval flow then executes).
   */
  decideCompanyPayment(key: string, decision: Decision): Promise<DeskPayment>;
}

export function createApprovals({ store, desk, companyPayments, clock }: ApprovalsOptions): Approvals {
  return {
    list: (state, limit) => store.listApprovals(state, limit),
    listCompanyPayments: (state, limit) => store.listCompanyPaymentApprovals(state, limit),

    async decide(key, decision) {
      const current = await store.getCashOut(key);
      if (!current || !isApproval(current)) throw approvalNotFound();
      assertChecker(current.requestedBy, decision);
      const result = await store.decideCashOut(key, { approve: decision.approve, by: decision.by, at: clock.now().toISOString() });
      if (result.outcome === 'not_found') throw approvalNotFound();
      if (result.outcome === 'not_pending') throw approvalNotPending(result.cashOut.state);
      return decision.approve ? desk.proceed(result.cashOut) : result.cashOut;
    },

    async decideCompanyPayment(key, decision) {
      const current = await store.getCompanyPayment(key);
      if (!current || !isApproval(current)) throw approvalNotFound();
      assertChecker(current.requestedBy, decision);
      const result = await store.decideCompanyPayment(key, { approve: decision.approve, by: decision.by, at: clock.now().toISOString() });
      if (result.outcome === 'not_found') throw approvalNotFound();
      if (result.outcome === 'not_pending') throw approvalNotPending(result.payment.state);
      return decision.approve ? companyPayments.proceed(result.payment) : result.payment;
    },
  };
}
