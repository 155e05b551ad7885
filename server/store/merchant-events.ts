/**
 * The events a merchant's backend acts on (ships the goods, reconciles, refunds), written by the store in the same
 * transaction as the change they tell of, so no committed payment is ever without its event and no event tells of
 * a change that was rolled back. Each has a unique id (`evt_…`), a type, the time of the change and the data of that
 * moment: what a merchant needs to fulfil and reconcile, never the payer's CPF or account. They are read in order by
 * `seq` (the pull feed, `GET /api/admin/webhook-events`), and are what the signed webhooks to the merchant carry.
 *
 * The zod schemas here are the one definition of each type's data (the types themselves are core/backoffice's, which
 * the console lists); `docs/merchant-events.schema.json` is generated from them (a test fails when the two differ).
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { MERCHANT_EVENT_TYPES, type MerchantEventType } from '../../core/backoffice';
import { COMPLETED, EXPIRED } from '../../core/states';
import { formatCents } from '../../core/money';
import { CASH_OUT_SENDING, isFinalCashOutState, type CashOut } from './back-office';
import type { Checkout, CheckoutEvent } from './types';

const checkoutFields = {
  orderId: z.string(),
  checkoutId: z.string(),
  /** The provider's transaction. */
  transactionId: z.string(),
  method: z.enum(['pix', 'openfinance']),
  /** Decimal string, BRL, for example "54.90". */
  amount: z.string().regex(/^\d+\.\d{2}$/),
  currency: z.literal('BRL'),
  /** The checkout's state after the change. */
  state: z.string(),
};

const paid = {
  ...checkoutFields,
  /** When the provider confirmed the payment (ISO 8601). */
  paidAt: z.string(),
  /** The payer's bank, when the provider says. */
  payerBank: z.string().optional(),
  /** Paid after its payment window. */
  late: z.boolean(),
};

/** A cash-out's fields: which one (the merchant's key, the provider's ids) and how much, never its recipient's CPF or key. */
const cashOutFields = {
  /** The `Idempotency-Key` it was made under. */
  idempotencyKey: z.string(),
  /** The provider's order id of the cash-out (its `transaction.orderId`). */
  orderId: z.string(),
  /** The provider's transaction. */
  transactionId: z.string(),
  /** Decimal string, BRL, for example "54.90". */
  amount: z.string().regex(/^\d+\.\d{2}$/),
  currency: z.literal('BRL'),
  /** The cash-out's state after the change. */
  state: z.string(),
  /** The provider's charges (a decimal string, six places), once its record was read. */
  charges: z.string().optional(),
};

/** A refund is a cash-out that gives back a checkout's payment, all or part of it (`amount` is the refund's own). */
const refundFields = {
  ...cashOutFields,
  /** The refunded checkout. */
  checkoutId: z.string(),
  /** The refunded checkout's order (the merchant's). */
  checkoutOrderId: z.string(),
};

/** How a cash-out ended without the money reaching its recipient (`Refunded`: it came back). */
const cashOutFailure = z.enum(['Error', 'Cancelled', 'Reversed', 'Refunded']);

/** Every event type (core/backoffice/merchant-events.ts, the console's list too), with the schema of its `data`. */
export const MERCHANT_EVENT_DATA = {
  /** The order is paid: ship it. */
  'checkout.completed': z.object(paid),
  /** The order was paid a second time (another code of it): the back-office can refund it. */
  'checkout.duplicate_paid': z.object({ ...paid, duplicateOf: z.string() }),
  /** The payment failed at the provider: `failure` says how. The order may be paid with a new checkout. */
  'checkout.failed': z.object({ ...checkoutFields, failure: z.enum(['Error', 'Cancelled', 'Reversed']) }),
  /** The payment window passed unpaid (or another code of the order was paid: `supersededBy`). */
  'checkout.expired': z.object({ ...checkoutFields, expiresAt: z.string().nullable(), supersededBy: z.string().optional() }),
  /** The provider took a refund: it is under way (always the first event of a refund). */
  'refund.created': z.object(refundFields),
  /** The refund reached the payer. */
  'refund.completed': z.object(refundFields),
  /** The refund failed at the provider: `failure` says how. Its amount may be refunded again. */
  'refund.failed': z.object({ ...refundFields, failure: cashOutFailure }),
  /** A cash-out (not a refund) reached its recipient. */
  'cashout.completed': z.object(cashOutFields),
  /** A cash-out (not a refund) failed at the provider: `failure` says how. */
  'cashout.failed': z.object({ ...cashOutFields, failure: cashOutFailure }),
} as const satisfies Record<MerchantEventType, z.ZodType>;

/** The `data` of an event of type `T`. */
export type MerchantEventData<T extends MerchantEventType> = z.output<(typeof MERCHANT_EVENT_DATA)[T]>;

export const MerchantEventSchema = z.object({
  /** Unique and stable: the `webhook-id` of every delivery of it. */
  id: z.string().regex(/^evt_[A-Za-z0-9_-]+$/),
  /** Its place in the feed: increasing, the pull feed's cursor. */
  seq: z.int().positive(),
  type: z.enum(MERCHANT_EVENT_TYPES),
  /** When the change was committed (ISO 8601). */
  createdAt: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type MerchantEvent = z.infer<typeof MerchantEventSchema>;

/** An event about to be written with its change: the store gives it its `seq`. */
export type NewMerchantEvent = Omit<MerchantEvent, 'seq'>;

/** The merchant's event for a checkout's change, if it is one a merchant acts on (a code shown is not). */
export function merchantEventOf(checkout: Checkout, event: CheckoutEvent): NewMerchantEvent | undefined {
  if (!checkout.transactionId) return undefined;
  const base = {
    orderId: checkout.orderId,
    checkoutId: checkout.id,
    transactionId: checkout.transactionId,
    method: checkout.method,
    amount: formatCents(checkout.amountCents),
    currency: checkout.currency,
    state: event.state,
  };
  const text = (name: string) => (typeof checkout.details[name] === 'string' ? checkout.details[name] : undefined);
  if (event.state === COMPLETED) {
    const payerBank = text('payerBank');
    const paid = { ...base, paidAt: text('paidAt') ?? event.at, ...(payerBank ? { payerBank } : {}), late: event.data.late === true };
    return checkout.duplicateOf
      ? eventOf('checkout.duplicate_paid', event.at, { ...paid, duplicateOf: checkout.duplicateOf })
      : eventOf('checkout.completed', event.at, paid);
  }
  if (event.state === 'Error' || event.state === 'Cancelled' || event.state === 'Reversed') {
    return eventOf('checkout.failed', event.at, { ...base, failure: event.state });
  }
  if (event.state === EXPIRED) {
    const supersededBy = typeof event.data.supersededBy === 'string' ? event.data.supersededBy : undefined;
    return eventOf('checkout.expired', event.at, { ...base, expiresAt: checkout.expiresAt, ...(supersededBy ? { supersededBy } : {}) });
  }
  return undefined;
}

/**
 * The merchant's events for a cash-out's change from `before` (undefined: not stored before) to `after`, oldest
 * first: a refund's `refund.created` when the provider's answer arrives (also one that came late, `adoptCashOut`),
 * and the `.completed` or `.failed` of a cash-out or refund when it first reaches a final state. A refund answered straight in a final state gets both, so
 * every refund begins with `refund.created`. Nothing else is one (`Created` → `Registered`, charges read, a repeat).
 * `checkoutOrderId` is the refunded checkout's order, which the store reads in the change's transaction.
 */
export function merchantEventsOfCashOut(before: CashOut | undefined, after: CashOut, checkoutOrderId?: string): NewMerchantEvent[] {
  if (!after.transactionId || after.state === CASH_OUT_SENDING) return [];
  // Before the provider's answer a cash-out holds no transaction (Sending, or a late answer's PendingApproval or Rejected).
  const answered = before?.transactionId != null;
  const ended = isFinalCashOutState(after.state) && !(answered && isFinalCashOutState(before.state));
  const base = {
    idempotencyKey: after.idempotencyKey,
    orderId: after.orderId,
    transactionId: after.transactionId,
    amount: formatCents(after.amountCents),
    currency: 'BRL',
    state: after.state,
    ...(after.charges !== null && { charges: after.charges }),
  };
  const data = after.refundOf ? { ...base, checkoutId: after.refundOf, checkoutOrderId } : base;
  const prefix = after.refundOf ? 'refund' : 'cashout';
  const events: NewMerchantEvent[] = [];
  if (after.refundOf && !answered) events.push(checkedEvent('refund.created', after.updatedAt, data));
  if (ended) {
    const [type, failure] =
      after.state === COMPLETED ? [`${prefix}.completed` as const, undefined] : [`${prefix}.failed` as const, after.state];
    events.push(checkedEvent(type, after.updatedAt, failure ? { ...data, failure } : data));
  }
  return events;
}

/**
 * A new event of `type` with `data` as built. Its data's type is the type's schema's, so the compiler holds the
 * checkout's builder above to it: it is not parsed again inside the transaction of every payment, where that parse
 * cost a tenth of a millisecond of each status change (the bench's status row). The tests hold what each builder
 * makes to its schema.
 */
function eventOf<T extends MerchantEventType>(type: T, createdAt: string, data: MerchantEventData<T>): NewMerchantEvent {
  return { id: `evt_${randomId()}`, type, createdAt, data };
}

/**
 * 16 random bytes as base64url (22 characters), cut from a pool drawn 256 ids at a time: one call into the CSPRNG
 * each 256 events instead of one inside every payment's transaction. An id names an event; it guards nothing.
 */
let pool = Buffer.alloc(0);
let taken = 0;
function randomId(): string {
  if (taken + 16 > pool.length) {
    pool = randomBytes(16 * 256);
    taken = 0;
  }
  return pool.toString('base64url', taken, (taken += 16));
}

/**
 * A new event of `type`, its data checked against the type's schema (a mismatch throws, rolling the change back):
 * for the cash-outs' builder, whose states and refunded order the compiler cannot hold to the schema.
 */
function checkedEvent(type: MerchantEventType, createdAt: string, data: Record<string, unknown>): NewMerchantEvent {
  return eventOf(type, createdAt, MERCHANT_EVENT_DATA[type].parse(data));
}
