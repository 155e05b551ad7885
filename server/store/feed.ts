/**
 * The one event feed. Every change the store commits (a checkout's activation, move or adoption, with the events
 * the same transaction appended; a cash-out's answer, new state or an owner's decision) is told to the status hub here, once its commit
 * has returned, and nowhere else: callers of the store never publish. Every consumer reads the feed from the hub:
 * the shoppers' event streams (`server/bff/stream.ts`), the back-office's live view (`server/backoffice/stream.ts`),
 * and whatever comes next subscribes the same way. With PostgreSQL the hub carries the notice to every instance.
 *
 * A notice is a hint (a checkout id and the seq of its newest event): a consumer reads the events themselves from
 * the store, so a notice lost to a crash between commit and publish costs a consumer at most its next wake-up. On
 * the instance that committed it, the notice also carries the change as committed (the checkout and its new event),
 * which the shoppers' streams send without reading it back.
 */
import type { CashOut } from './back-office';
import type { StoreObserver } from './observer';
import type { CommittedChange, StatusHub, Store } from './types';

/** Hub topic of a cash-out change (the back-office's live lists listen to every topic). */
export const cashOutTopic = (key: string) => `cashout:${key}`;

/**
 * The store given, whose committed changes reach `hub` (and `observer`, after the hub). Open stores through
 * `openStore`, which does this.
 */
export function publishingCommits(store: Store, hub: StatusHub, observer?: Pick<StoreObserver, 'committed'>): Store {
  // The change itself rides along for this instance's streams, which then need not read it back.
  const checkoutMoved = (moved: CommittedChange) => {
    hub.publish(moved.checkout.id, moved.event.seq, moved);
    observer?.committed(moved);
  };
  const cashOutMoved = (cashOut: CashOut) => hub.publish(cashOutTopic(cashOut.idempotencyKey), 0);
  return {
    ...store,
    async activateCheckout(...args) {
      const activated = await store.activateCheckout(...args);
      checkoutMoved(activated);
      return activated;
    },
    async apply(...args) {
      const result = await store.apply(...args);
      if (result.changed) {
        checkoutMoved(result);
        if (result.superseded) checkoutMoved(result.superseded);
      }
      return result;
    },
    async insertActive(...args) {
      const inserted = await store.insertActive(...args);
      if (inserted) checkoutMoved(inserted);
      return inserted;
    },
    async insertSuperseding(...args) {
      const inserted = await store.insertSuperseding(...args);
      if (inserted) {
        checkoutMoved(inserted);
        checkoutMoved(inserted.superseded);
      }
      return inserted;
    },
    async activateCashOut(...args) {
      const activated = await store.activateCashOut(...args);
      if (activated) cashOutMoved(activated);
      return activated;
    },
    async updateCashOut(...args) {
      const result = await store.updateCashOut(...args);
      if (result.changed && result.cashOut) cashOutMoved(result.cashOut);
      return result;
    },
    async decideCashOut(...args) {
      const result = await store.decideCashOut(...args);
      if (result.outcome === 'decided') cashOutMoved(result.cashOut);
      return result;
    },
  };
}
