/**
 * State changes of stored transactions. Each change runs under a per-transaction lock, because a simulation waits
 * on the network (its webhook) between reading and saving, and two simulations must not both win.
 */
import type { Clock } from '../lib/clock';
import { isFinalTransactionState } from '../../core/states';
import type { TransactionState } from '../provider/schemas';
import type { Addresses } from './addresses';
import type { ChargesOf } from './billing';
import { EmulatorError, notFound, operationError } from './errors';
import type { StoredTransaction, TransactionKind } from './model';
import { transition, type Settlement } from './records';
import type { TransactionStore } from './store';
import type { WebhookDispatcher } from './webhooks';

export interface LifecycleOptions {
  store: TransactionStore;
  clock: Clock;
  webhooks: WebhookDispatcher;
  addresses: Addresses;
  chargesOf: ChargesOf;
  registerDelayMs: number;
}

export interface Simulation {
  id: string;
  to: TransactionState;
  /** The simulation namespace the caller used: PIX operations act on PIX only, OpenFinance on OpenFinance only. */
  kinds: readonly TransactionKind[];
  /** Decides who paid (and how much) once the transaction is known; only for Completed. */
  settle?: (tx: StoredTransaction) => Settlement;
}

export function createLifecycle(options: LifecycleOptions) {
  const { store, clock, webhooks } = options;
  const locks = new Map<string, Promise<unknown>>();
  const registrations = new Map<string, NodeJS.Timeout>();
  let closed = false;

  function locked<T>(id: string, work: () => Promise<T>): Promise<T> {
    const previous = locks.get(id) ?? Promise.resolve();
    const run = previous.then(work, work);
    const tail = run.catch(() => undefined);
    locks.set(id, tail);
    void tail.then(() => locks.get(id) === tail && locks.delete(id));
    return run;
  }

  const apply = (tx: StoredTransaction, to: TransactionState, settlement?: Settlement) =>
    transition(tx, to, clock.now(), { addresses: options.addresses, chargesOf: options.chargesOf, settlement });

  /**
   * A sandbox operation: the change is saved, then its webhook delivered; the operation succeeds only when that
   * delivery does. A failed one does not undo the change: the receiver may have read the new state and acted on it
   * before failing to answer (the BFF re-reads and commits a payment, then may answer late), and a record put back
   * would then disagree with what it committed. The change stands, its webhook is retried in the background, and the
   * answer is 424 saying so.
   */
  const simulate = ({ id, to, kinds, settle }: Simulation) =>
    locked(id, async () => {
      const tx = store.get(id);
      if (!tx || !kinds.includes(tx.kind)) throw notFound(`Transaction ${id} not found`);
      const state = tx.record.transaction.state;
      if (isFinalTransactionState(state))
        throw operationError('TransactionStateInvalid', `Transaction ${id} is already ${state} and cannot change`, { state });
      const next = apply(tx, to, settle?.(tx));
      // Saved before delivering: a receiver that re-reads the transaction while handling the webhook (as a
      // careful integrator does) must see the new state.
      next.record.webhook.deliveryStatus = 'Pending';
      store.save(next);
      const delivery = await webhooks.send(next);
      next.record.webhook.deliveryTime = clock.now().toISOString();
      if (!delivery.ok) {
        store.save(next);
        webhooks.retry(id);
        throw new EmulatorError(424, {
          name: 'OperationError',
          message: `The transaction is now ${to}, but its webhook could not be delivered (${delivery.reason}); it is retried.`,
          code: 'OperationError',
          details: { reason: 'WebhookDeliveryFailed', externalReason: delivery.reason, transactionState: to },
        });
      }
      next.record.webhook.deliveryStatus = 'Success';
      store.save(next);
      webhooks.settle(id);
      return next;
    });

  /**
   * A change nobody waits for (registration, the bank page): saved at once, its webhook delivered with retries.
   * Resolves after the first delivery attempt, with the transaction as it then is.
   */
  async function commit(id: string, to: TransactionState, settlement?: Settlement, from?: TransactionState) {
    const changed = await locked(id, async () => {
      const tx = store.get(id);
      const state = tx?.record.transaction.state;
      if (!tx || !state || isFinalTransactionState(state) || (from && state !== from)) return false;
      const next = apply(tx, to, settlement);
      next.record.webhook.deliveryStatus = 'Pending';
      store.save(next);
      return true;
    });
    if (changed) await webhooks.deliverInBackground(id);
    return store.get(id);
  }

  /** A new cash-out is registered with the bank a moment later, as the provider's lifecycle describes. */
  function scheduleRegistration(id: string, delayMs = options.registerDelayMs) {
    registrations.set(
      id,
      setTimeout(() => {
        registrations.delete(id);
        commit(id, 'Registered', undefined, 'Created').catch((error: unknown) => {
          // After close() the database is gone and losing this change is expected; before, it is a bug to see.
          if (!closed) console.error('sandbox: registering cash-out', id, 'failed', error);
        });
      }, delayMs),
    );
  }

  return {
    simulate,
    commit,
    scheduleRegistration,
    /** After a restart: register the cash-outs still Created and resume pending deliveries. */
    resume() {
      for (const tx of store.inState('Created')) scheduleRegistration(tx.record.transaction.id);
      for (const tx of store.pendingDeliveries()) void webhooks.deliverInBackground(tx.record.transaction.id);
    },
    close() {
      closed = true;
      for (const timer of registrations.values()) clearTimeout(timer);
      registrations.clear();
    },
  };
}

export type Lifecycle = ReturnType<typeof createLifecycle>;
