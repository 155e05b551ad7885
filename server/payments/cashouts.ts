/**
 * Cash-outs of the back-office, made safely: each under the client's `Idempotency-Key`, taken in the store before the
 * provider is called, so the same key (a double click, a retry, another instance, a restart) always answers the same
 * cash-out and the provider makes one. The provider's `transaction.orderId` is chosen before the call, so an answer
 * lost to a timeout is looked up rather than sent twice. Also: the charges the plan will take (from the provider's
 * own record of an earlier transaction), and the states of recent cash-outs, re-read from the provider.
 */
import { createHash } from 'node:crypto';
import { formatCents, formatDecimal, mulDiv, parseDecimal, rescale } from '../../core/money';
import type { Clock } from '../lib/clock';
import { ProviderError, type PixKeyType, type ProviderClient } from '../provider';
import { CASH_OUT_SENDING, isFinalCashOutState, type CashOut } from '../store/back-office';
import type { StatusHub, Store } from '../store/types';
import { ApiError, fromProviderError } from './errors';
import type { WebhookTarget } from './service';

/** Hub topic of a cash-out change (the back-office's live lists listen to every topic). */
export const cashOutTopic = (key: string) => `cashout:${key}`;

/** Keys a client may send: 8 to 128 letters, digits and `-_.:`; a UUID is typical. */
export const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{8,128}$/;

export interface CashOutRequest {
  recipient: { name: string; cpf: string };
  key: { type: PixKeyType; value: string };
  amountCents: bigint;
  /** The provider's order id; chosen from the key when not given. */
  orderId?: string | undefined;
  description?: string | undefined;
  /** The checkout whose duplicate payment this refunds. */
  refundOf?: string | undefined;
  /** What the key stands for, when not the request itself (a refund: its checkout). */
  fingerprint?: string | undefined;
}

/** What the back-office sees of a cash-out. The recipient's CPF is shown masked: the key says where money goes. */
export function cashOutView(c: CashOut) {
  return {
    idempotencyKey: c.idempotencyKey,
    transactionId: c.transactionId,
    orderId: c.orderId,
    state: c.state,
    amount: formatCents(BigInt(c.amountCents)),
    charges: c.charges,
    recipient: { name: c.recipientName, cpf: maskCpf(c.recipientCpf) },
    key: { type: c.keyType, value: c.keyType === 'CPF' ? maskCpf(c.keyValue) : c.keyValue },
    description: c.description,
    refundOf: c.refundOf,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}
export type CashOutView = ReturnType<typeof cashOutView>;

/** `***.982.247-**`: the middle six digits, as Brazilian receipts show a CPF. */
export function maskCpf(cpf: string): string {
  const d = cpf.replace(/\D/g, '');
  return d.length === 11 ? `***.${d.slice(3, 6)}.${d.slice(6, 9)}-**` : '***';
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Fingerprint of a request, so the same key with another request is refused. */
export function fingerprintOf(request: CashOutRequest): string {
  return sha256(
    JSON.stringify([
      request.recipient.name,
      request.recipient.cpf,
      request.key.type,
      request.key.value,
      request.amountCents.toString(),
      request.orderId ?? null,
      request.description ?? null,
      request.refundOf ?? null,
    ]),
  );
}

export interface CashOutDeskOptions {
  provider: ProviderClient;
  store: Store;
  hub: StatusHub;
  clock: Clock;
  webhook: WebhookTarget;
  /** How long a second request with a key still `Sending` waits for the first one's answer. */
  waitMs?: number;
  /** A key `Sending` for longer than this had its call lost (a crash, a timeout): it is looked up at the provider. */
  staleMs?: number;
  logger?: Pick<Console, 'warn'>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How far the provider's clock may be from ours when an order's transactions are listed. */
const SKEW_MS = 5 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

export function createCashOutDesk({
  provider,
  store,
  hub,
  clock,
  webhook,
  waitMs = 10_000,
  staleMs = 30_000,
  logger = console,
}: CashOutDeskOptions) {
  const hook = { url: webhook.url, customHeaderName: webhook.headerName, customHeaderValue: webhook.secret };
  const now = () => clock.now().toISOString();
  /** The plan's fixed part and rate (micro-units), as the provider's last record read showed them. */
  let plan: { cost: bigint; rate: bigint } | undefined;

  const publish = (cashOut: CashOut) => hub.publish(cashOutTopic(cashOut.idempotencyKey), 0);

  function learnPlan(record: Awaited<ReturnType<ProviderClient['transactions']['retrieve']>>) {
    const charges = record.transaction.chargesObject;
    const cost = charges?.costValue ? parseDecimal(charges.costValue, 6) : undefined;
    const rate = charges?.rate ? parseDecimal(charges.rate, 6) : undefined;
    if (cost !== undefined && rate !== undefined) plan = { cost, rate };
  }

  /** Re-reads one activated cash-out at the provider and records a new state or its charges. */
  async function refresh(cashOut: CashOut): Promise<CashOut> {
    if (!cashOut.transactionId || (isFinalCashOutState(cashOut.state) && cashOut.charges)) return cashOut;
    const record = await provider.transactions.retrieve(cashOut.transactionId);
    learnPlan(record);
    const { changed, cashOut: updated } = await store.updateCashOut(
      cashOut.idempotencyKey,
      { state: record.transaction.state, charges: record.transaction.charges ?? null },
      now(),
    );
    if (changed && updated) publish(updated);
    return updated ?? cashOut;
  }

  /** Finds what the provider made for a key whose answer was lost; activates it, or frees the key when nothing was made. */
  async function settle(cashOut: CashOut): Promise<CashOut | undefined> {
    const start = Date.parse(cashOut.createdAt) - SKEW_MS;
    const page = await provider.transactions.list({
      transactionOrderId: cashOut.orderId,
      startDate: new Date(start).toISOString(),
      endDate: new Date(start + DAY_MS - 1).toISOString(),
      'dataset.limit': 5,
      'dataset.offset': 0,
    });
    const made = page.items.find((item) => item.transaction.type === 'Debit' && item.transaction.orderId === cashOut.orderId);
    if (made) {
      const activated = await store.activateCashOut(cashOut.idempotencyKey, made.transaction.id, made.transaction.state, now());
      if (activated) publish(activated);
      return activated ?? (await store.getCashOut(cashOut.idempotencyKey));
    }
    await store.discardCashOut(cashOut.idempotencyKey);
    return undefined;
  }

  /** Waits for another request's provider call under the same key; settles a key left `Sending` too long. */
  async function awaitSending(cashOut: CashOut): Promise<CashOut | undefined> {
    const deadline = Date.now() + waitMs;
    let current: CashOut | undefined = cashOut;
    while (current?.state === CASH_OUT_SENDING && Date.now() < deadline) {
      if (clock.now().getTime() - Date.parse(current.createdAt) > staleMs) return settle(current).catch(() => current);
      await sleep(150);
      current = await store.getCashOut(cashOut.idempotencyKey);
    }
    return current;
  }

  /** One provider call for a key just taken; a clear refusal frees the key, an unclear failure keeps it for a lookup. */
  async function call(cashOut: CashOut, request: CashOutRequest): Promise<CashOut> {
    try {
      const { transaction } = await provider.pix.createCashOut({
        payment: { recipient: request.recipient, key: request.key, value: formatCents(request.amountCents) },
        transaction: { orderId: cashOut.orderId, ...(request.description ? { orderDescription: request.description } : {}) },
        webhook: hook,
      });
      const activated = await store.activateCashOut(cashOut.idempotencyKey, transaction.id, transaction.state, now());
      const stored = activated ?? (await store.getCashOut(cashOut.idempotencyKey))!;
      publish(stored);
      return stored;
    } catch (error) {
      // A refusal means nothing was made: the key is freed, and the same key may try again.
      if (error instanceof ProviderError && error.status >= 400 && error.status < 500) {
        await store.discardCashOut(cashOut.idempotencyKey);
        if (error.status === 401 || error.status === 429) throw fromProviderError(error);
        throw new ApiError(error.status as 400, error.reason ?? error.code ?? 'provider_refused', error.message, error.details);
      }
      // A 5xx, a timeout, a dropped connection or an unreadable answer: the provider may have made it. The key stays
      // Sending, and a retry under it after `staleMs` looks the order id up before sending anything again.
      logger.warn(`cash-out ${cashOut.orderId}: no clear answer from the provider; its key waits for a look-up`);
      throw fromProviderError(error);
    }
  }

  return {
    refresh,

    /**
     * Makes the cash-out of `request` under `key`, or answers the key's cash-out: `created` says which. Another
     * request under the same key is 422; a refund of a checkout that already has one is 409 with that refund.
     */
    async send(key: string, request: CashOutRequest): Promise<{ created: boolean; cashOut: CashOut }> {
      const fingerprint = request.fingerprint ?? fingerprintOf(request);
      const orderId = request.orderId ?? `${request.refundOf ? 'refund' : 'payout'}-${sha256(key).slice(0, 20)}`;
      for (let attempt = 0; attempt < 3; attempt++) {
        const reserved = await store.reserveCashOut({
          idempotencyKey: key,
          fingerprint,
          orderId,
          amountCents: Number(request.amountCents),
          recipientName: request.recipient.name,
          recipientCpf: request.recipient.cpf,
          keyType: request.key.type,
          keyValue: request.key.value,
          description: request.description ?? null,
          refundOf: request.refundOf ?? null,
          createdAt: now(),
        });
        if (reserved.outcome === 'refund_taken') {
          throw new ApiError(409, 'refund_exists', 'This payment already has a refund under way or done.', {
            refund: cashOutView(reserved.cashOut),
          });
        }
        if (reserved.outcome === 'created') return { created: true, cashOut: await call(reserved.cashOut, request) };
        if (reserved.cashOut.fingerprint !== fingerprint) {
          throw new ApiError(422, 'idempotency_key_reused', 'This Idempotency-Key was used for another request; use a new key.');
        }
        const settled = await awaitSending(reserved.cashOut);
        if (!settled) continue; // nothing was made under the key: take it again and send
        if (settled.state === CASH_OUT_SENDING) {
          throw new ApiError(
            409,
            'idempotency_key_in_progress',
            'A request with this Idempotency-Key is still being sent. Try again shortly.',
          );
        }
        return { created: false, cashOut: settled };
      }
      throw new ApiError(409, 'idempotency_key_in_progress', 'A request with this Idempotency-Key is still being sent. Try again shortly.');
    },

    /** Recent cash-outs, newest first, those still moving re-read at the provider first (a failed read keeps the stored state). */
    async recent(limit: number): Promise<CashOut[]> {
      await this.refreshUnsettled(limit);
      return store.listCashOuts(limit);
    },

    /** Re-reads the cash-outs still moving; errors are logged, never thrown. */
    async refreshUnsettled(limit = 20): Promise<void> {
      const moving = await store.listUnsettledCashOuts(limit);
      await Promise.all(
        moving.map((cashOut) => refresh(cashOut).catch((error: unknown) => logger.warn('cash-out refresh:', (error as Error).message))),
      );
    },

    /**
     * The charges the plan takes from `amountCents`, as the provider's last read record shows the plan (a fixed
     * part plus a rate); undefined while no record was read. Six decimals, like the provider's.
     */
    async quote(amountCents: bigint): Promise<string | undefined> {
      if (!plan) {
        const last = (await store.listCashOuts(5)).find((c) => c.transactionId);
        const checkout = last ? undefined : (await store.listCheckouts({}, 5)).find((c) => c.transactionId);
        const transactionId = last?.transactionId ?? checkout?.transactionId;
        const record = transactionId ? await provider.transactions.retrieve(transactionId).catch(() => undefined) : undefined;
        if (record) learnPlan(record);
      }
      if (!plan) return undefined;
      return formatDecimal(plan.cost + mulDiv(rescale(amountCents, 2, 6), plan.rate, 100n * 1_000_000n), 6);
    },
  };
}

export type CashOutDesk = ReturnType<typeof createCashOutDesk>;
