/**
 * What the store keeps of the payment requests the back office asks the provider for ("company payments": paying a
 * receiver's bank account). Each is kept under its key before the provider is called, so the same key answers the
 * same request and the provider gets one; one above the approval threshold is kept `PendingApproval` until an owner
 * decides it (core/company-payment-machine.ts), and nothing reaches the provider before. Once the provider answered,
 * the record holds its request id (`requestId`): the request's approval and execution are the provider's, read there.
 * Written once for both databases in `company-payments-part.ts` (the store contract tests run on both).
 */
import { z } from 'zod';
import { COMPANY_PAYMENT_STATES } from '../../core/company-payment-machine';
import type { ApprovalListState, CashOutDecision } from './back-office';

const InstantSchema = z.iso.datetime({ offset: true }).transform((value) => new Date(value).toISOString());

export const CompanyPaymentSchema = z.object({
  /** The client's `Idempotency-Key` (or one the back office chose): the same key is always this payment. */
  idempotencyKey: z.string().min(1).max(128),
  /** Hash of what was asked under the key; the key with another request is refused. */
  fingerprint: z.string().min(1),
  state: z.enum(COMPANY_PAYMENT_STATES),
  amountCents: z.int().positive(),
  description: z.string(),
  receiverId: z.string().min(1),
  accountId: z.string().min(1),
  /** The receiver and its account as the provider listed them when the payment was kept for approval (for the owner). */
  receiverName: z.string().nullable(),
  receiverCnpj: z.string().nullable(),
  bankName: z.string().nullable(),
  accountAgency: z.string().nullable(),
  accountNumber: z.string().nullable(),
  /** The provider's payment request, once it answered; null before. */
  requestId: z.string().nullable(),
  /** Who asked for it (the back office's actor name: an e-mail, or `api-token`). */
  requestedBy: z.string(),
  /** The owner who approved or rejected it, and when; null while it needs no decision or waits for one. */
  decidedBy: z.string().nullable(),
  decidedAt: InstantSchema.nullable(),
  createdAt: InstantSchema,
  updatedAt: InstantSchema,
});
export type CompanyPayment = z.infer<typeof CompanyPaymentSchema>;

export const NewCompanyPaymentSchema = CompanyPaymentSchema.omit({
  state: true,
  requestId: true,
  decidedBy: true,
  decidedAt: true,
  updatedAt: true,
}).extend({
  receiverName: z.string().nullable().default(null),
  receiverCnpj: z.string().nullable().default(null),
  bankName: z.string().nullable().default(null),
  accountAgency: z.string().nullable().default(null),
  accountNumber: z.string().nullable().default(null),
  /** Kept `PendingApproval` (nothing is sent before an owner approves it) rather than taken `Sending`. */
  awaitsApproval: z.boolean().default(false),
});
export type NewCompanyPayment = z.input<typeof NewCompanyPaymentSchema>;

export type ReserveCompanyPaymentResult =
  /** The key was free: the caller makes the provider call (or waits for the approval), then activates or discards. */
  | { outcome: 'created'; payment: CompanyPayment }
  /** The key was taken: its payment (maybe still `Sending` or `PendingApproval`). */
  | { outcome: 'existing'; payment: CompanyPayment };

export type DecideCompanyPaymentResult =
  /** It was `PendingApproval` and is now `Sending` (approved) or `Rejected`. */
  | { outcome: 'decided'; payment: CompanyPayment }
  /** It is not waiting for a decision (decided already, or never needed one). */
  | { outcome: 'not_pending'; payment: CompanyPayment }
  | { outcome: 'not_found' };

export interface CompanyPaymentStore {
  /** Takes the key for a new payment in state `Sending` (or `PendingApproval`), atomically; or returns the key's payment. */
  reserveCompanyPayment(draft: NewCompanyPayment): Promise<ReserveCompanyPaymentResult>;
  /** An owner's decision, atomically: `PendingApproval` → `Sending` or `Rejected`. Of two at once, exactly one is `decided`. */
  decideCompanyPayment(idempotencyKey: string, decision: CashOutDecision): Promise<DecideCompanyPaymentResult>;
  /**
   * `Sending` → `Requested` with the provider's request id; undefined when it is not `Sending` (settled meanwhile) or
   * another key holds that request already (one provider request is never two payments).
   */
  activateCompanyPayment(idempotencyKey: string, requestId: string, at: string): Promise<CompanyPayment | undefined>;
  /**
   * Frees a key whose provider call was refused or found to have made nothing: a `Sending` payment is deleted, or,
   * when an owner had approved it, waits for a decision again (`PendingApproval`). A `Requested` one stays.
   */
  discardCompanyPayment(idempotencyKey: string): Promise<void>;
  getCompanyPayment(idempotencyKey: string): Promise<CompanyPayment | undefined>;
  /** The payment whose provider request is `requestId`: how the product knows a request at the provider is its own. */
  findCompanyPaymentByRequest(requestId: string): Promise<CompanyPayment | undefined>;
  /** Payments waiting for approval (oldest first), or decided ones (most recently decided first), at most `limit`. */
  listCompanyPaymentApprovals(state: ApprovalListState, limit: number): Promise<CompanyPayment[]>;
  /**
   * The reconciler's claim: at most `limit` payments `Sending` since before `before` (taken for sending: created, or
   * approved) whose last claim ended by `now`, oldest first, each leased until `until` so that an instance claiming
   * at the same moment takes others.
   */
  claimStaleCompanyPayments(now: string, before: string, limit: number, until: string): Promise<CompanyPayment[]>;
}
