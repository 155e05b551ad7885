/**
 * The types of the merchant's events (what a shop's backend acts on), in the order the console offers them. The data
 * of each is the store's (server/store/merchant-events.ts, whose schemas are keyed by this list: a type missing on
 * either side fails to compile).
 */
export const MERCHANT_EVENT_TYPES = [
  'checkout.completed',
  'checkout.duplicate_paid',
  'checkout.failed',
  'checkout.expired',
  'refund.created',
  'refund.completed',
  'refund.failed',
  'cashout.completed',
  'cashout.failed',
] as const;
export type MerchantEventType = (typeof MERCHANT_EVENT_TYPES)[number];
