/**
 * The events a merchant's backend acts on (ships the goods, reconciles, refunds), written by the store in the same
 * transaction as the change they tell of, so no committed payment is ever without its event and no event tells of
 * a change that was rolled back. Each has a unique id (`evt_…`), a type, the time of the change and the data of that
 * moment: what a merchant needs to fulfil and reconcile, never the payer's CPF or account. They are read in order by
 * `seq` (the pull feed, `GET /api/admin/webhook-events`), and are what the signed webhooks to the merchant carry.
 *
 * The zod schemas here are the one definition of each type; `docs/merchant-events.schema.json` is generated from them
 * (a test fails when the two differ).
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { COMPLETED, EXPIRED } from '../../core/states';
import { formatCents } from '../../core/money';
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

/** Every event type, with the schema of its `data`. */
export const MERCHANT_EVENT_DATA = {
  /** The order is paid: ship it. */
  'checkout.completed': z.object(paid),
  /** The order was paid a second time (another code of it): the back-office can refund it. */
  'checkout.duplicate_paid': z.object({ ...paid, duplicateOf: z.string() }),
  /** The payment failed at the provider: `failure` says how. The order may be paid with a new checkout. */
  'checkout.failed': z.object({ ...checkoutFields, failure: z.enum(['Error', 'Cancelled', 'Reversed']) }),
  /** The payment window passed unpaid (or another code of the order was paid: `supersededBy`). */
  'checkout.expired': z.object({ ...checkoutFields, expiresAt: z.string().nullable(), supersededBy: z.string().optional() }),
} as const;

export type MerchantEventType = keyof typeof MERCHANT_EVENT_DATA;
export const MERCHANT_EVENT_TYPES = Object.keys(MERCHANT_EVENT_DATA) as MerchantEventType[];

export const MerchantEventSchema = z.object({
  /** Unique and stable: the `webhook-id` of every delivery of it. */
  id: z.string().regex(/^evt_[A-Za-z0-9_-]+$/),
  /** Its place in the feed: increasing, the pull feed's cursor. */
  seq: z.int().positive(),
  type: z.enum(MERCHANT_EVENT_TYPES as [MerchantEventType, ...MerchantEventType[]]),
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
  let type: MerchantEventType;
  let data: Record<string, unknown>;
  if (event.state === COMPLETED) {
    const payerBank = text('payerBank');
    const paidData = { ...base, paidAt: text('paidAt') ?? event.at, ...(payerBank && { payerBank }), late: event.data.late === true };
    [type, data] = checkout.duplicateOf
      ? ['checkout.duplicate_paid', { ...paidData, duplicateOf: checkout.duplicateOf }]
      : ['checkout.completed', paidData];
  } else if (event.state === 'Error' || event.state === 'Cancelled' || event.state === 'Reversed') {
    [type, data] = ['checkout.failed', { ...base, failure: event.state }];
  } else if (event.state === EXPIRED) {
    const supersededBy = typeof event.data.supersededBy === 'string' ? event.data.supersededBy : undefined;
    [type, data] = ['checkout.expired', { ...base, expiresAt: checkout.expiresAt, ...(supersededBy && { supersededBy }) }];
  } else {
    return undefined;
  }
  return { id: `evt_${randomBytes(16).toString('base64url')}`, type, createdAt: event.at, data: MERCHANT_EVENT_DATA[type].parse(data) };
}
