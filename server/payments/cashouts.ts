/**
 * Cash-outs of the back-office (refunds are cash-outs too), made through the money-moving saga (./saga): each under
 * the client's `Idempotency-Key`, taken in the store before the provider is called, so the same key (a double click,
 * a retry, another instance, a restart) always answers the same cash-out and the provider makes one. The provider's
 * `transaction.orderId` is chosen before the call, so an answer lost to a timeout is looked up rather than sent
 * twice. A movement above the approval threshold is only kept (`PendingApproval`) until an owner approves it
 * (`proceed`, through ./approvals.ts), and nothing reaches the provider before. Also: the charges the plan will take
 * (from the provider's own record of an earlier transaction), and the states of recent cash-outs, re-read from the
 * provider.
 */
import { formatCents, formatDecimal, MICRO_SCALE, microsOf, mulDiv, parseDecimal } from '../../core/money';
import type { Clock } from '../lib/clock';
import type { ProviderClient, TransactionRecord } from '../provider';
import { CASH_OUT_PENDING_APPROVAL, CASH_OUT_SENDING, type BackOfficeStore, type CashOut } from '../store/back-office';
import { refreshCashOut, sentFrom, settleCashOut } from './cashout-settle';
import {
  checkoutNotPaid,
  idempotencyKeyInProgress,
  idempotencyKeyReused,
  merchantRefusal,
  refundExceedsPaid,
  refundInProgress,
} from './errors';
import { fingerprintOf, needsApproval, requestOf, sha256, type CashOutRequest } from './cashout-request';
import { createSaga } from './saga';
import type { WebhookTarget } from './webhook-target';

export { cashOutTopic } from '../store/feed';

/** What a request is and how the back office shows a cash-out (./cashout-request.ts), for the desk's callers. */
export {
  cashOutView,
  DEFAULT_APPROVAL_ABOVE_CENTS,
  fingerprintOf,
  IDEMPOTENCY_KEY,
  maskCpf,
  needsApproval,
  sha256,
  type CashOutRequest,
  type CashOutView,
} from './cashout-request';

export interface CashOutDeskOptions {
  provider: ProviderClient;
  store: BackOfficeStore;
  clock: Clock;
  webhook: WebhookTarget;
  /** How long a second request with a key still `Sending` waits for the first one's answer. */
  waitMs?: number;
  /** A key `Sending` for longer than this had its call lost (a crash, a timeout): it is looked up at the provider. */
  staleMs?: number;
  /**
   * Movements of more than this many cents wait for an owner's approval; 0: every one does. Undefined: none does
   * (the back office always passes the configuration's APPROVAL_ABOVE).
   */
  approvalAboveCents?: number | undefined;
  logger?: Pick<Console, 'warn'>;
}

/** A cash-out request under its key: what the saga's steps need. */
interface KeyedRequest {
  key: string;
  request: CashOutRequest;
  fingerprint: string;
  orderId: string;
}

/** The back office's cash-outs and refunds, each under its idempotency key. */
export interface CashOutDesk {
  /** Re-reads one cash-out at the provider and records what changed (../cashout-settle.ts `refreshCashOut`). */
  refresh(cashOut: CashOut): Promise<CashOut>;
  /**
   * Makes the cash-out of `request` under `key` (or keeps it for an owner's approval: `PendingApproval`), or answers
   * the key's cash-out: `created` says which. Another request under the same key is 422; a refund of a checkout not
   * Completed is 409 `checkout_not_paid`, one past what is left of its payment 409 `refund_exceeds_paid`.
   */
  send(key: string, request: CashOutRequest): Promise<{ created: boolean; cashOut: CashOut }>;
  /**
   * Sends a movement an owner just approved (the store moved it from `PendingApproval` to `Sending`): the provider
   * call under its own order id, so a crash after the approval is settled by the usual look-up.
   */
  proceed(approved: CashOut): Promise<CashOut>;
  /** Recent cash-outs, newest first, those still moving re-read at the provider first (a failed read keeps the stored state). */
  recent(limit: number): Promise<CashOut[]>;
  /** Re-reads the cash-outs still moving (20 unless told); errors are logged, never thrown. */
  refreshUnsettled(limit?: number): Promise<void>;
  /**
   * The charges the plan takes from `amountCents`, as the provider's last read record shows the plan (a fixed
   * part plus a rate); undefined while no record was read. Six decimals, like the provider's.
   */
  quote(amountCents: number): Promise<string | undefined>;
}

export function createCashOutDesk({
  provider,
  store,
  clock,
  webhook,
  waitMs = 10_000,
  staleMs = 30_000,
  approvalAboveCents,
  logger = console,
}: CashOutDeskOptions): CashOutDesk {
  const hook = { url: webhook.url, customHeaderName: webhook.headerName, customHeaderValue: webhook.secret };
  const now = () => clock.now().toISOString();
  /** The plan's fixed part and rate (micro-units), as the provider's last record read showed them. */
  let plan: { cost: bigint; rate: bigint } | undefined;

  function learnPlan(record: TransactionRecord) {
    const charges = record.transaction.chargesObject;
    const cost = charges?.costValue ? parseDecimal(charges.costValue, MICRO_SCALE) : undefined;
    const rate = charges?.rate ? parseDecimal(charges.rate, MICRO_SCALE) : undefined;
    if (cost !== undefined && rate !== undefined) plan = { cost, rate };
  }

  const refresh = (cashOut: CashOut) => refreshCashOut({ provider, store, clock }, cashOut, learnPlan);

  /** What each step of the money-moving saga (./saga) means for a cash-out: the idempotency key is the key. */
  const saga = createSaga<KeyedRequest, CashOut, { id: string; state: string }>(
    {
      async reserve({ key, request, fingerprint, orderId }) {
        const reserved = await store.reserveCashOut({
          idempotencyKey: key,
          fingerprint,
          orderId,
          amountCents: request.amountCents,
          recipientName: request.recipient.name,
          recipientCpf: request.recipient.cpf,
          keyType: request.key.type,
          keyValue: request.key.value,
          description: request.description ?? null,
          refundOf: request.refundOf ?? null,
          requestedBy: request.requestedBy ?? null,
          awaitsApproval: needsApproval(request.amountCents, approvalAboveCents),
          createdAt: now(),
        });
        if (reserved.outcome === 'not_paid') throw checkoutNotPaid();
        if (reserved.outcome === 'in_progress') throw refundInProgress();
        if (reserved.outcome === 'exceeds_paid') throw refundExceedsPaid(formatCents(reserved.refundableCents));
        const same =
          reserved.cashOut.fingerprint === fingerprint || (request.wholeRefund === true && reserved.cashOut.refundOf === request.refundOf);
        if (reserved.outcome === 'existing' && !same) throw idempotencyKeyReused();
        return { created: reserved.outcome === 'created', record: reserved.cashOut };
      },
      isReserved: (cashOut) => cashOut.state === CASH_OUT_SENDING,
      awaitsApproval: (cashOut) => cashOut.state === CASH_OUT_PENDING_APPROVAL,
      async call(cashOut, { request }) {
        const { transaction } = await provider.pix.createCashOut({
          payment: { recipient: request.recipient, key: request.key, value: formatCents(request.amountCents) },
          transaction: { orderId: cashOut.orderId, ...(request.description ? { orderDescription: request.description } : {}) },
          webhook: hook,
        });
        return transaction;
      },
      activate: (cashOut, transaction) => store.activateCashOut(cashOut.idempotencyKey, transaction.id, transaction.state, now()),
      // Its reservation was settled without it meanwhile (a call slower than the settle window): the money left, so
      // the answer is stored all the same, whatever became of the reservation.
      adoptAnswer: (cashOut, transaction) => store.adoptCashOut(cashOut, transaction.id, transaction.state, now()),
      settle: (cashOut, { release }) => settleCashOut({ provider, store, clock }, cashOut, { release }),
      discard: (cashOut) => store.discardCashOut(cashOut.idempotencyKey),
      reload: (cashOut) => store.getCashOut(cashOut.idempotencyKey),
      createdAt: sentFrom,
      // The store keeps no mark of a given-up call: a retry waits, and looks once the key is older than `staleMs`.
      gaveUp: () => false,
      async markGaveUp(cashOut) {
        logger.warn(`cash-out ${cashOut.orderId}: no clear answer from the provider; its key waits for a look-up`);
      },
      pending: idempotencyKeyInProgress,
      failure: merchantRefusal,
    },
    { clock, settleAfterMs: staleMs, waitMs, pollMs: 150 },
  );

  return {
    refresh,
    async send(key: string, request: CashOutRequest): Promise<{ created: boolean; cashOut: CashOut }> {
      const fingerprint = request.fingerprint ?? fingerprintOf(request);
      const orderId = request.orderId ?? `${request.refundOf ? 'refund' : 'payout'}-${sha256(key).slice(0, 20)}`;
      const { created, record } = await saga.run({ key, request, fingerprint, orderId });
      return { created, cashOut: record };
    },
    async proceed(approved: CashOut): Promise<CashOut> {
      const request = requestOf(approved);
      return saga.proceed(approved, {
        key: approved.idempotencyKey,
        request,
        fingerprint: approved.fingerprint,
        orderId: approved.orderId,
      });
    },
    async recent(limit: number): Promise<CashOut[]> {
      await this.refreshUnsettled(limit);
      return store.listCashOuts(limit);
    },
    async refreshUnsettled(limit = 20): Promise<void> {
      const moving = await store.listUnsettledCashOuts(limit);
      await Promise.all(
        moving.map((cashOut) => refresh(cashOut).catch((error: unknown) => logger.warn('cash-out refresh:', (error as Error).message))),
      );
    },
    async quote(amountCents: number): Promise<string | undefined> {
      if (!plan) {
        const last = (await store.listCashOuts(5)).find((c) => c.transactionId);
        const checkout = last ? undefined : (await store.listCheckouts({}, 5)).find((c) => c.transactionId);
        const transactionId = last?.transactionId ?? checkout?.transactionId;
        const record = transactionId ? await provider.transactions.retrieve(transactionId).catch(() => undefined) : undefined;
        if (record) learnPlan(record);
      }
      if (!plan) return undefined;
      return formatDecimal(plan.cost + mulDiv(microsOf(amountCents), plan.rate, 100n * 10n ** BigInt(MICRO_SCALE)), MICRO_SCALE);
    },
  };
}
