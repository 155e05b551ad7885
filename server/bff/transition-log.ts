/**
 * One log line per committed move of a checkout (its activation, each state change, an adoption, a superseding), with
 * the checkout, order and provider transaction ids as fields, so `grep` on the order id finds every step of the
 * payment between its create and the merchant's webhook. Written after the commit has returned, never before: the
 * shopper's status is not held up by the log. A line told by the reconciler carries its `job` (the pass runs in one,
 * server/lib/request-scope.ts), one told while serving a request its `reqId`.
 */
import type { Checkout, CheckoutEvent } from '../store/types';
import type { CheckoutAppStore } from './app';

type Moved = { checkout: Checkout; event: CheckoutEvent } | undefined;

/** The fields of a move's line: ids, the state it reached and what told it (never the event's data). */
export const transitionFields = ({ checkout, event }: { checkout: Checkout; event: CheckoutEvent }) => ({
  checkoutId: checkout.id,
  orderId: checkout.orderId,
  transactionId: checkout.transactionId ?? undefined,
  method: checkout.method,
  state: event.state,
  seq: event.seq,
  source: event.source,
});

/** `store`, whose committed moves of checkouts are each written to `log` as one line. */
export function loggingTransitions<S extends CheckoutAppStore>(store: S, log: Pick<Console, 'log'>): S {
  const tell = (moved: Moved) => {
    if (!moved) return;
    const fields = transitionFields(moved);
    log.log(fields, `checkout ${fields.checkoutId} of order ${fields.orderId}: ${fields.state} (${fields.source})`);
  };
  return {
    ...store,
    async activateCheckout(...args) {
      const activated = await store.activateCheckout(...args);
      tell(activated);
      return activated;
    },
    async apply(...args) {
      const result = await store.apply(...args);
      if (result.changed) {
        tell(result);
        tell(result.superseded);
      }
      return result;
    },
    async insertActive(...args) {
      const inserted = await store.insertActive(...args);
      tell(inserted);
      return inserted;
    },
    async insertSuperseding(...args) {
      const inserted = await store.insertSuperseding(...args);
      tell(inserted);
      tell(inserted?.superseded);
      return inserted;
    },
  };
}
