/**
 * The deliveries of the merchant's events (./merchant-events) to the merchant's webhook endpoints: queued per
 * endpoint from a cursor (`queueEndpointDeliveries`, ./endpoints), leased to one instance at a time (so several instances sharing PostgreSQL never send the
 * same attempt twice, and a crashed one's lease runs out for another to take), and every attempt kept. Delivery is
 * at least once: an attempt whose answer is lost to a crash is made again, with the same event id, which the
 * receiver uses to discard repeats. Implemented for both databases in `deliveries-sqlite.ts` and
 * `deliveries-postgres.ts`.
 */
import type { MerchantEvent } from './merchant-events';

/** A delivery taken by `claimDeliveries`: the event, and how many attempts were made before this one. */
export interface WebhookDelivery {
  endpointId: string;
  attempts: number;
  event: MerchantEvent;
}

/** What became of one attempt. */
export interface WebhookAttempt {
  at: string;
  /** The receiver's HTTP status; null when no answer came (timeout, refused connection). */
  status: number | null;
  durationMs: number;
  error: string | null;
}

export type DeliveryOutcome = { delivered: true } | { retryAt: string } | { failed: true };

export interface DeliveryStore {
  /**
   * Takes, for each endpoint of `limits`, up to its limit of its deliveries due at `now` whose lease is free or ran
   * out, oldest due first, for `owner` until `leaseUntil`; each is taken by one caller only, on any instance. Each
   * endpoint is sought on its own, so one with thousands due (a receiver that hangs) never crowds out another.
   * Answered in event order.
   */
  claimDeliveries(limits: Readonly<Record<string, number>>, now: string, owner: string, leaseUntil: string): Promise<WebhookDelivery[]>;
  /** Records the attempt and the delivery's outcome; ignored (false) when `owner` no longer holds the lease. */
  recordAttempt(eventId: string, endpointId: string, owner: string, attempt: WebhookAttempt, outcome: DeliveryOutcome): Promise<boolean>;
  /**
   * `recordAttempt` for many deliveries (by event seq) in one transaction: one commit for a batch the worker sent,
   * instead of one each. Answers, in order, whether each was recorded (false: `owner` no longer held its lease).
   */
  recordAttempts(owner: string, attempts: readonly RecordedAttempt[]): Promise<boolean[]>;
}

/** One attempt of `recordAttempts`: the delivery (its event's seq and the endpoint), what happened, and its outcome. */
export interface RecordedAttempt {
  seq: number;
  endpointId: string;
  attempt: WebhookAttempt;
  outcome: DeliveryOutcome;
}

/** The state and retry time an outcome leaves a delivery in. */
export const settledAs = (outcome: DeliveryOutcome) => ({
  state: 'delivered' in outcome ? 'delivered' : 'failed' in outcome ? 'failed' : 'pending',
  retryAt: 'retryAt' in outcome ? outcome.retryAt : null,
});
