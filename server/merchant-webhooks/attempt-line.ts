/**
 * The log line of each attempt to deliver a merchant's event: the event, the endpoint, the attempt's number and
 * outcome, and the payment ids the event names (checkout, order, provider transaction), so `grep` on an order id
 * finds its webhooks beside its create and its moves. A failed attempt is a warning with the socket's cause; a
 * delivered one, or one to be tried again, an info line. Never the event's body, its signature or a secret.
 */
import type { DeliveryOutcome } from '../store/deliveries';
import { inJob } from '../lib/request-scope';
import type { MerchantEvent } from '../store/merchant-events';

/** What the worker logs through: its warnings, and (when given) one info line per delivered attempt. */
export type DeliveryLog = Pick<Console, 'warn'> & Partial<Pick<Console, 'log'>>;

/** The background job the worker's lines carry (server/lib/request-scope.ts): no request started them. */
export const DELIVERY_JOB = 'merchant-webhooks';

/**
 * `base`, whose every line is told as the job's: a claim woken by a commit would otherwise run, and log, in the scope
 * of the request that committed it.
 */
export const deliveryLog = (base: DeliveryLog): DeliveryLog => ({
  warn: (...values: unknown[]) => inJob(DELIVERY_JOB, () => base.warn(...values)),
  log: (...values: unknown[]) => inJob(DELIVERY_JOB, () => base.log?.(...values)),
});

const idOf = (data: Record<string, unknown>, key: string) => (typeof data[key] === 'string' ? data[key] : undefined);

export interface AttemptLine {
  event: MerchantEvent;
  endpointId: string;
  attempts: number;
  status: number | null;
  outcome: DeliveryOutcome;
  /** Why it failed, as the socket or the receiver told it; null when delivered. */
  cause: string | null;
}

/** Writes the attempt's line. */
export function tellAttempt(logger: DeliveryLog, { event, endpointId, attempts, status, outcome, cause }: AttemptLine): void {
  const result = 'delivered' in outcome ? 'delivered' : 'failed' in outcome ? 'failed' : 'retry';
  const fields = {
    job: DELIVERY_JOB,
    eventId: event.id,
    eventType: event.type,
    endpointId,
    attempt: attempts,
    outcome: result,
    status,
    checkoutId: idOf(event.data, 'checkoutId'),
    orderId: idOf(event.data, 'orderId'),
    transactionId: idOf(event.data, 'transactionId'),
  };
  // The cause as the socket told it, for the operator; the attempt records only its reason.
  if (cause) logger.warn(fields, `merchant webhook ${event.id} to ${endpointId}: ${cause} (attempt ${attempts})`);
  else logger.log?.(fields, `merchant webhook ${event.id} to ${endpointId}: ${result} (attempt ${attempts})`);
}
