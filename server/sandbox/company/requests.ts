/**
 * Payment requests from creation to a decision: the partner creates and cancels, the reviewer (admin routes)
 * approves or rejects. Approving creates the Debit transaction that pays the receiver and starts its execution.
 */
import type { Clock } from '../../lib/clock';
import { formatAmount6, formatCents, MICRO_SCALE, microsOf, parseDecimal, requireCents } from '../../../core/money';
import type { CreatePaymentRequest } from '../../provider/schemas';
import type { ChargesOf } from '../billing';
import { checkAmount } from '../checks';
import { MERCHANT } from '../defaults';
import { notFound, operationError } from '../errors';
import { newId, newTransaction } from '../records';
import type { TransactionStore } from '../store';
import type { CompanyWebhookConfig } from './config';
import type { Execution } from './execution';
import type { CompanyStore, StoredRequest } from './store';

export interface RequestsOptions {
  company: CompanyStore;
  transactions: TransactionStore;
  clock: Clock;
  chargesOf: ChargesOf;
  /** What a new debit may still spend, in millionths (the balance less debits on their way). */
  availableMicros: () => bigint;
  webhook: CompanyWebhookConfig;
  execution: Execution;
}

/** Who decides, as an approval flow step shows it. */
export interface Decider {
  userFullName: string;
  userRealm: string;
  comment: string | null;
}

export const CATEGORY = 'PartnerRecipientPayments';

const stateInvalid = (r: StoredRequest, message: string) => operationError('PaymentRequestStateInvalid', message, { status: r.status });

export function createPaymentRequests(options: RequestsOptions) {
  const { company, clock } = options;
  const step = (status: string, who: Decider) => ({ id: newId(), date: clock.now().toISOString(), status, ...who });

  function find(id: string): StoredRequest {
    const r = company.request(id);
    if (!r) throw notFound(`Payment request ${id} not found`);
    return r;
  }

  /** A cancelled request is Rejected by its own last step, which says Cancelled. */
  const isCancelled = (r: StoredRequest) => r.status === 'Rejected' && company.steps(r.id).at(-1)?.status === 'Cancelled';

  function requireApprovedReceiver(receiverId: string) {
    const receiver = company.receiver(receiverId);
    if (!receiver) throw operationError('ReceiverNotFound', `Receiver ${receiverId} not found`, { refReceiver: receiverId });
    if (receiver.receiverStatus !== 'Approved')
      throw operationError(
        'ReceiverNotApproved',
        `Receiver ${receiverId} is ${receiver.receiverStatus}; only approved receivers can be paid`,
        {
          receiverStatus: receiver.receiverStatus,
        },
      );
    return receiver;
  }

  return {
    find,
    create(body: CreatePaymentRequest, requester: Decider): StoredRequest {
      const amountCents = checkAmount(body.amount, '/amount');
      const receiver = requireApprovedReceiver(body.refReceiver);
      const owned = company.account(body.refBankAccount);
      if (!owned)
        throw operationError('BankAccountNotFound', `Bank account ${body.refBankAccount} not found`, {
          refBankAccount: body.refBankAccount,
        });
      if (owned.receiverId !== receiver.id)
        throw operationError('BankAccountNotOfReceiver', `Bank account ${body.refBankAccount} does not belong to receiver ${receiver.id}`, {
          refBankAccount: body.refBankAccount,
          refReceiver: receiver.id,
        });
      const request: StoredRequest = {
        id: newId(),
        createdAt: clock.now().toISOString(),
        status: 'Pending',
        amount: formatCents(amountCents),
        description: body.description,
        receiverId: receiver.id,
        accountId: owned.account.id,
        pixKey: owned.account.pixKey,
        receiverName: receiver.companyFantasyName,
        customerName: MERCHANT.name,
        transactionId: null,
      };
      company.insertRequest(request, step('Pending', requester));
      return request;
    },

    /**
     * A request can be cancelled until it is approved and executed, as the contract says: a Pending one, and a
     * reviewer-rejected one too (it stays Rejected, and its last step then says Cancelled). Cancelling a cancelled one
     * again answers the same.
     */
    cancel(id: string, requester: Decider) {
      const r = find(id);
      if (isCancelled(r)) return;
      if (r.status === 'Approved') throw stateInvalid(r, `Payment request ${id} is approved and executed; it can no longer be cancelled`);
      company.decide(id, 'Rejected', null, step('Cancelled', requester));
    },

    reject(id: string, reviewer: Decider): StoredRequest {
      const r = find(id);
      if (r.status !== 'Pending') throw stateInvalid(r, `Payment request ${id} is ${r.status}, not Pending`);
      company.decide(id, 'Rejected', null, step('Rejected', reviewer));
      return find(id);
    },

    /** Approves and executes: the Debit transaction is created (state Created) in the same database transaction. */
    approve(id: string, reviewer: Decider): StoredRequest {
      const r = find(id);
      if (r.status !== 'Pending') throw stateInvalid(r, `Payment request ${id} is ${r.status}, not Pending`);
      requireApprovedReceiver(r.receiverId);
      const account = company.account(r.accountId)!.account;
      const amountCents = requireCents(r.amount);
      const webhook = options.webhook.get();
      const tx = newTransaction(
        {
          id: newId(),
          kind: 'pix-cashout',
          now: clock.now(),
          state: 'Created',
          amountCents,
          // The request id as order id: the listing by order id finds the payment's transaction.
          orderId: r.id,
          orderDescription: r.description,
          webhook: webhook ?? { url: '' },
          payment: {
            value: { original: formatAmount6(amountCents) },
            receiver: { name: r.receiverName, cnpj: account.accountOwnerDocNumber },
            key: r.pixKey,
            keyType: 'CNPJ',
          },
          internal: { editable: false, anonymous: false },
        },
        options.chargesOf,
      );
      const t = tx.record.transaction;
      t.category = CATEGORY;
      if (!webhook) tx.record.webhook.url = null;
      // Its Created event is owed at once (the integrator did not create it), so a restart delivers it too.
      tx.record.webhook.deliveryStatus = 'Pending';
      delete tx.internal.noEventYet;
      const needed = microsOf(amountCents) + (parseDecimal(t.charges ?? '0', MICRO_SCALE) ?? 0n);
      if (needed > options.availableMicros())
        throw operationError(
          'InsufficientBalance',
          'The account balance does not cover the amount and its charges; the request stays Pending',
          {
            amount: t.amount,
            charges: t.charges,
          },
        );
      company.atomically(() => {
        options.transactions.insert(tx);
        company.decide(id, 'Approved', t.id, step('Approved', reviewer));
      });
      options.execution.start(t.id);
      return find(id);
    },
  };
}

export type PaymentRequests = ReturnType<typeof createPaymentRequests>;
