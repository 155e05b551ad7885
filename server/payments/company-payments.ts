/**
 * Payment requests to companies ("company payments": the merchant pays a receiver's bank account), made through the
 * money-moving saga (./saga) as cash-outs are: each under its key, taken in the store before the provider is asked,
 * so the same key (a double click, a retry, another instance) answers the same request and the provider gets one.
 * A request is the merchant's order to pay: once the provider has it, its own approval flow executes it, so one above
 * the approval threshold is only kept (`PendingApproval`, with the receiver and account the owner is shown) until an
 * owner other than its maker approves it (`proceed`, through ./approvals.ts), and nothing reaches the provider before.
 * An answer lost on the way is looked up among the provider's requests of the day (the contract gives a request no
 * id of ours, so it is found by what it asks: amount, description, receiver, account, and no other key holding it).
 */
import { CASH_OUT_PENDING_APPROVAL, CASH_OUT_SENDING } from '../../core/cashout-machine';
import { formatCents } from '../../core/money';
import type { Clock } from '../lib/clock';
import type { PaymentRequest, ProviderClient } from '../provider';
import type { CompanyPayment, CompanyPaymentStore } from '../store/company-payments';
import { needsApproval, sha256 } from './cashout-request';
import { idempotencyKeyInProgress, idempotencyKeyReused, merchantRefusal, receiverNotPayable } from './errors';
import { sentFrom, settleCompanyPayment } from './company-payment-settle';
import { createSaga } from './saga';

export interface CompanyPaymentRequest {
  amountCents: number;
  description: string;
  receiverId: string;
  accountId: string;
  /** Who asks for it (the back office's actor): kept, and never the one who may approve it. */
  requestedBy: string;
}

/** A payment as the desk answers it: the stored record and, when this call made the request, the provider's answer. */
export type DeskPayment = CompanyPayment & { answer?: PaymentRequest };

/** What the owner deciding it is shown of the payee (read at the provider when the payment is kept for approval). */
type Payee = Pick<CompanyPayment, 'receiverName' | 'receiverCnpj' | 'bankName' | 'accountAgency' | 'accountNumber'>;

interface KeyedPayment {
  key: string;
  request: CompanyPaymentRequest;
  fingerprint: string;
  /** Kept for an owner's approval (above the threshold), with what the owner is shown of the payee. */
  awaitsApproval: boolean;
  payee?: Payee | undefined;
}

export interface CompanyPaymentDeskOptions {
  provider: ProviderClient;
  store: CompanyPaymentStore;
  clock: Clock;
  /** Payments of more than this many cents wait for an owner's approval; 0: every one does; undefined: none does. */
  approvalAboveCents: number | undefined;
  /** How long a second request with a key still `Sending` waits for the first one's answer. */
  waitMs?: number;
  /** A key `Sending` for longer than this had its call lost: it is looked up at the provider. */
  staleMs?: number;
  logger?: Pick<Console, 'warn'>;
}

/** The fingerprint of a payment request: what it asks (the same key with another request is refused). */
export const companyPaymentFingerprint = (r: CompanyPaymentRequest) =>
  sha256(JSON.stringify(['company-payment', r.amountCents.toString(), r.description, r.receiverId, r.accountId]));

/** The back office's payment requests to companies, each under its idempotency key. */
export interface CompanyPaymentDesk {
  /**
   * Asks the provider for the payment request of `request` under `key` (or keeps it for an owner's approval:
   * `PendingApproval`), or answers the key's: `created` says which. Another request under the same key is 422.
   */
  request(key: string, request: CompanyPaymentRequest): Promise<{ created: boolean; payment: DeskPayment }>;
  /** Asks the provider for a payment an owner just approved (the store moved it from `PendingApproval` to `Sending`). */
  proceed(approved: CompanyPayment): Promise<DeskPayment>;
}

export function createCompanyPaymentDesk({
  provider,
  store,
  clock,
  approvalAboveCents,
  waitMs = 10_000,
  staleMs = 30_000,
  logger = console,
}: CompanyPaymentDeskOptions): CompanyPaymentDesk {
  const now = () => clock.now().toISOString();

  const saga = createSaga<KeyedPayment, DeskPayment, PaymentRequest>(
    {
      async reserve({ key, request, fingerprint, awaitsApproval, payee }) {
        const reserved = await store.reserveCompanyPayment({
          idempotencyKey: key,
          fingerprint,
          amountCents: request.amountCents,
          description: request.description,
          receiverId: request.receiverId,
          accountId: request.accountId,
          requestedBy: request.requestedBy,
          ...payee,
          awaitsApproval,
          createdAt: now(),
        });
        if (reserved.outcome === 'existing' && reserved.payment.fingerprint !== fingerprint) throw idempotencyKeyReused();
        return { created: reserved.outcome === 'created', record: reserved.payment };
      },
      isReserved: (payment) => payment.state === CASH_OUT_SENDING,
      awaitsApproval: (payment) => payment.state === CASH_OUT_PENDING_APPROVAL,
      call: (payment) =>
        provider.paymentRequests.create({
          amount: formatCents(payment.amountCents),
          description: payment.description,
          refReceiver: payment.receiverId,
          refBankAccount: payment.accountId,
        }),
      async activate(payment, answer) {
        const stored = await store.activateCompanyPayment(payment.idempotencyKey, answer.id, now());
        return stored && { ...stored, answer };
      },
      adoptAnswer: (payment) => store.getCompanyPayment(payment.idempotencyKey),
      settle: (payment, { release }) => settleCompanyPayment({ provider, store, clock }, payment, { release }),
      discard: (payment) => store.discardCompanyPayment(payment.idempotencyKey),
      reload: (payment) => store.getCompanyPayment(payment.idempotencyKey),
      createdAt: sentFrom,
      gaveUp: () => false,
      async markGaveUp(payment) {
        logger.warn(`payment request ${payment.idempotencyKey}: no clear answer from the provider; its key waits for a look-up`);
      },
      pending: idempotencyKeyInProgress,
      failure: merchantRefusal,
    },
    { clock, settleAfterMs: staleMs, waitMs, pollMs: 150 },
  );

  /** The receiver (approved) and its account as the provider lists them: what the deciding owner is shown. */
  async function payeeOf({ receiverId, accountId }: CompanyPaymentRequest): Promise<Payee> {
    const receiver = (await provider.receivers.retrieve(receiverId).catch((e: unknown) => Promise.reject(merchantRefusal(e)))).items[0];
    if (!receiver || receiver.receiverStatus !== 'Approved') throw receiverNotPayable({ receiverStatus: receiver?.receiverStatus ?? null });
    const accounts = await provider.receivers.listAccounts(receiverId).catch((e: unknown) => Promise.reject(merchantRefusal(e)));
    const account = accounts.find((a) => a.id === accountId);
    if (!account) throw receiverNotPayable({ accountId });
    return {
      receiverName: receiver.companyFantasyName,
      receiverCnpj: receiver.companyCNPJ,
      bankName: account.bankName,
      accountAgency: account.accountAgency,
      accountNumber: account.accountNumber,
    };
  }

  return {
    async request(key: string, request: CompanyPaymentRequest): Promise<{ created: boolean; payment: DeskPayment }> {
      const fingerprint = companyPaymentFingerprint(request);
      const awaitsApproval = needsApproval(request.amountCents, approvalAboveCents);
      // The payee is read only for a new payment that will wait: the owner deciding it sees whom it pays (and a
      // receiver that cannot be paid is refused now, not at the approval).
      const payee = awaitsApproval && !(await store.getCompanyPayment(key)) ? await payeeOf(request) : undefined;
      const { created, record } = await saga.run({ key, request, fingerprint, awaitsApproval, payee });
      return { created, payment: record };
    },
    proceed: (approved: CompanyPayment): Promise<DeskPayment> =>
      saga.proceed(approved, {
        key: approved.idempotencyKey,
        request: approved,
        fingerprint: approved.fingerprint,
        awaitsApproval: false,
      }),
  };
}
