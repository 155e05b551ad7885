/**
 * The transaction behind an approved payment request moves on its own: Created → Registered → Completed after
 * short delays, each change saved and notified through the shared lifecycle, so it behaves like any other
 * transaction (record, listing, balance, webhook retries, sandbox simulations).
 */
import type { Lifecycle } from '../lifecycle';
import type { TransactionStore } from '../store';
import type { WebhookDispatcher } from '../webhooks';
import type { CompanyStore } from './store';

export interface ExecutionOptions {
  company: CompanyStore;
  transactions: TransactionStore;
  lifecycle: Lifecycle;
  webhooks: WebhookDispatcher;
  registerDelayMs: number;
  completeDelayMs: number;
}

export function createExecution(options: ExecutionOptions) {
  const { lifecycle, transactions } = options;
  const timers = new Map<string, NodeJS.Timeout>();
  let closed = false;

  function later(id: string, delayMs: number, work: () => Promise<unknown>) {
    if (closed) return;
    timers.set(
      id,
      setTimeout(() => {
        timers.delete(id);
        work().catch((error: unknown) => {
          // After close() the database is gone and losing this change is expected; before, it is a bug to see.
          if (!closed) console.error('sandbox: company payment', id, 'failed to move', error);
        });
      }, delayMs),
    );
  }

  // `from` keeps a transaction that a simulation already moved (to Error, say) where the simulation left it.
  async function register(id: string) {
    const tx = await lifecycle.commit(id, 'Registered', undefined, 'Created');
    if (tx?.record.transaction.state === 'Registered') later(id, options.completeDelayMs, () => complete(id));
  }

  async function complete(id: string) {
    const receiver = transactions.get(id)?.record.payment.receiver;
    await lifecycle.commit(
      id,
      'Completed',
      { counterparty: { name: receiver?.name ?? '*', taxNumber: receiver?.cnpj ?? '' } },
      'Registered',
    );
  }

  return {
    /**
     * Notifies the new (Created) transaction, then starts its way to Completed. The Created webhook goes first so a
     * receiver sees the states in order.
     */
    start(id: string) {
      options.webhooks
        .deliverInBackground(id)
        .then(() => later(id, options.registerDelayMs, () => register(id)))
        .catch((error: unknown) => {
          if (!closed) console.error('sandbox: company payment', id, 'failed to start', error);
        });
    },
    /** After a restart: carry on with every approved request whose transaction has not finished. */
    resume() {
      for (const request of options.company.executing()) {
        const state = transactions.get(request.transactionId!)?.record.transaction.state;
        if (state === 'Created') later(request.transactionId!, options.registerDelayMs, () => register(request.transactionId!));
        if (state === 'Registered') later(request.transactionId!, options.completeDelayMs, () => complete(request.transactionId!));
      }
    },
    close() {
      closed = true;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}

export type Execution = ReturnType<typeof createExecution>;
