/**
 * The approval of cash-outs and refunds (maker-checker): a movement above the threshold is kept `PendingApproval`
 * by the cash-out desk (./cashouts.ts), and nothing reaches the provider until an owner other than its maker decides
 * it. The decision is one atomic change in the store, so of two owners deciding at once exactly one does; an
 * approval then sends the movement through the saga (the provider call under its own order id, so a crash after the
 * approval is settled by the usual look-up), a rejection ends it (a refund's amount is free again).
 */
import type { Clock } from '../lib/clock';
import { CASH_OUT_PENDING_APPROVAL, type ApprovalListState, type CashOut } from '../store/back-office';
import type { Store } from '../store/types';
import type { CashOutDesk } from './cashouts';
import { approvalByMaker, approvalNotFound, approvalNotPending } from './errors';

/** A movement that needs (or needed) an owner's decision: waiting for one, or decided. */
export const isApproval = (cashOut: CashOut) => cashOut.state === CASH_OUT_PENDING_APPROVAL || cashOut.decidedAt !== null;

export interface Decision {
  approve: boolean;
  /** The deciding owner's name (the back office's actor). */
  by: string;
}

export function createApprovals({ store, desk, clock }: { store: Store; desk: CashOutDesk; clock: Clock }) {
  return {
    /** Movements waiting for a decision (oldest first), or decided ones (most recently decided first). */
    list: (state: ApprovalListState, limit: number) => store.listApprovals(state, limit),

    /**
     * Decides the movement under `key`: 404 when none needs a decision there, 403 when `by` asked for it, 409 when
     * it was decided already. Approved, it is sent at once and answered as the provider left it (a refusal of the
     * provider's comes back as the merchant's refusal, and the movement waits for a decision again); rejected, it is
     * answered `Rejected`.
     */
    async decide(key: string, { approve, by }: Decision): Promise<CashOut> {
      const current = await store.getCashOut(key);
      if (!current || !isApproval(current)) throw approvalNotFound();
      if (current.requestedBy === by) throw approvalByMaker();
      const result = await store.decideCashOut(key, { approve, by, at: clock.now().toISOString() });
      if (result.outcome === 'not_found') throw approvalNotFound();
      if (result.outcome === 'not_pending') throw approvalNotPending(result.cashOut.state);
      return approve ? desk.proceed(result.cashOut) : result.cashOut;
    },
  };
}

export type Approvals = ReturnType<typeof createApprovals>;
