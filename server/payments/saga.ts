/**
 * The one path for everything that asks the provider to move money: a checkout's cash-in or initiation, a cash-out,
 * a refund. Each runs the same saga:
 *
 * 1. **Reserve** its key in the store (the order, or the client's `Idempotency-Key`) before anything is sent, so a
 *    second request, another instance or a restart finds the reservation instead of sending again.
 * 2. **Call** the provider once.
 * 3. **Activate** the reservation with the answer; an answer that comes after its reservation was settled without it
 *    is **adopted** all the same (the provider made it: it is never dropped).
 * 4. When the call fails, a clear refusal (a 4xx: nothing was made) frees the key. Any other failure (no answer, a
 *    5xx, an answer we cannot read) may hide a transaction, so the reservation is **settled**: the provider is
 *    looked at and what it made is adopted. It is released (the key freed) only once older than the settle window,
 *    since a request held on the way could still land after the look.
 *
 * A reservation kept for an owner's approval (`awaitsApproval`) stops after step 1: nothing is sent until it is
 * approved, and the approval runs steps 2 to 4 for it (`proceed`).
 *
 * A second request for a key still reserved waits for the first one's answer, or settles it when its creator gave up
 * or it is past the window. The reconciler settles what a crash left behind through `settleStale`. What a step
 * means for a checkout or a cash-out is the caller's (`SagaSteps`); the order of the steps and their branches are here.
 */
import type { Clock } from '../lib/clock';
import { ProviderError } from '../provider';

/** Why a settlement runs: a request for the key, or the reconciler. Recorded as the source of what it adopts. */
export type SettleReason = 'create' | 'reconcile';

export type Settlement<R> =
  /** The provider made it, and it is now stored for the key. */
  | { outcome: 'adopted'; record: R }
  /** The provider made nothing and the key is free again. */
  | { outcome: 'released' }
  /** Another request or instance settled or activated it first; or, without `release`, it is still reserved. */
  | { outcome: 'moved'; record: R | undefined };

/** What each step of the saga means for one kind of request (`I`), record (`R`) and provider answer (`A`). */
export interface SagaSteps<I, R, A> {
  /** Takes the key, or gives the record that holds it (refusing, by throwing, a record the request may not have). */
  reserve(input: I): Promise<{ created: boolean; record: R }>;
  /** Still waiting for its provider answer. */
  isReserved(record: R): boolean;
  /** Kept for an owner's approval: taken, but nothing is sent before it is approved (then `proceed`). */
  awaitsApproval?(record: R): boolean;
  /** The one provider call. */
  call(record: R, input: I): Promise<A>;
  /** Stores the answer on the reservation; undefined when it is no longer reserved. */
  activate(record: R, answer: A): Promise<R | undefined>;
  /** Stores an answer whose reservation was settled meanwhile; what the key holds now (undefined: not stored yet). */
  adoptAnswer(record: R, answer: A): Promise<R | undefined>;
  /** Looks at the provider for what the reservation made; frees the key when it made nothing and `release` is set. */
  settle(record: R, options: { release: boolean; reason: SettleReason }): Promise<Settlement<R>>;
  /** Frees the key after a clear refusal. */
  discard(record: R): Promise<void>;
  /** The record as stored now. */
  reload(record: R): Promise<R | undefined>;
  createdAt(record: R): string;
  /** Whether its creator gave up on the call (a later request then settles at once instead of waiting). */
  gaveUp(record: R): boolean;
  markGaveUp(record: R): Promise<void>;
  /** What a request still finding the call in flight gets. */
  pending(): Error;
  /** What the caller gets for a provider failure. */
  failure(error: unknown): Error;
  /** Looks at a record found under the key once settled: keep it, or undefined to reserve the key again. */
  review?(record: R, input: I): Promise<R | undefined>;
}

export interface SagaTiming {
  clock: Clock;
  /** A reservation older than this is settled, and released when the provider made nothing. */
  settleAfterMs: number;
  /** How long a second request waits for the first one's answer. */
  waitMs: number;
  /** How often it looks meanwhile. */
  pollMs: number;
}

/** A clear refusal: the provider answered with a 4xx, so it made nothing. Anything else may have made something. */
export const isRefusal = (error: unknown): boolean => error instanceof ProviderError && error.status >= 400 && error.status < 500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createSaga<I, R, A>(steps: SagaSteps<I, R, A>, { clock, settleAfterMs, waitMs, pollMs }: SagaTiming) {
  const isStale = (record: R) => clock.now().getTime() - Date.parse(steps.createdAt(record)) >= settleAfterMs;

  /** Steps 2 to 4 for a reservation just taken. */
  async function start(reservation: R, input: I): Promise<R> {
    let answer: A;
    try {
      answer = await steps.call(reservation, input);
    } catch (error) {
      if (isRefusal(error)) {
        await steps.discard(reservation);
        throw steps.failure(error);
      }
      // The provider may have made it, or may still (a request held on the way): look before answering and adopt
      // what is there; otherwise the reservation stays, marked as given up, so that no retry sends a second one.
      const settlement = await steps.settle(reservation, { release: false, reason: 'create' }).catch(() => undefined);
      if (settlement?.outcome === 'adopted') return settlement.record;
      if (settlement?.outcome === 'moved' && settlement.record && !steps.isReserved(settlement.record)) return settlement.record;
      await steps.markGaveUp(reservation);
      throw steps.failure(error);
    }
    const activated = await steps.activate(reservation, answer).catch(() => undefined);
    if (activated) return activated;
    const adopted = await steps.adoptAnswer(reservation, answer);
    if (!adopted) throw steps.pending();
    return adopted;
  }

  /** Waits for the reservation's answer; settles it when its creator gave up or it is stale. Undefined: the key is free. */
  async function awaitAnswer(reservation: R): Promise<R | undefined> {
    const deadline = Date.now() + waitMs;
    let current: R | undefined = reservation;
    while (current && steps.isReserved(current)) {
      if (isStale(current) || steps.gaveUp(current)) {
        const settlement: Settlement<R> = await steps
          .settle(current, { release: isStale(current), reason: 'create' })
          .catch(() => Promise.reject(steps.pending()));
        if (settlement.outcome === 'released') return undefined;
        if (settlement.record && steps.isReserved(settlement.record)) throw steps.pending();
        current = settlement.record;
        continue;
      }
      if (Date.now() > deadline) throw steps.pending();
      await sleep(pollMs);
      current = await steps.reload(current);
    }
    return current;
  }

  return {
    /** Runs the saga for the key: `created` says whether this request made the provider call. */
    async run(input: I): Promise<{ created: boolean; record: R }> {
      // A failed concurrent call frees the key again, so try to reserve it once more before giving up.
      for (let attempt = 0; attempt < 3; attempt++) {
        const reserved = await steps.reserve(input);
        if (reserved.created && steps.awaitsApproval?.(reserved.record)) return { created: true, record: reserved.record };
        if (reserved.created) return { created: true, record: await start(reserved.record, input) };
        const settled = await awaitAnswer(reserved.record);
        const kept = settled && (steps.review ? await steps.review(settled, input) : settled);
        if (kept) return { created: false, record: kept };
      }
      throw steps.pending();
    },

    /**
     * Steps 2 to 4 for a reservation an owner just approved (the store moved it to reserved, atomically, so only one
     * approval gets here): the one provider call, then its answer; a clear refusal frees it as `discard` says.
     */
    proceed: (reservation: R, input: I): Promise<R> => start(reservation, input),

    /** Settles reservations a crash or a lost answer left behind (the reconciler); resolves with how many. */
    async settleStale(reservations: readonly R[], onError: (error: unknown) => void): Promise<number> {
      let settled = 0;
      for (const reservation of reservations) {
        try {
          await steps.settle(reservation, { release: true, reason: 'reconcile' });
          settled++;
        } catch (error) {
          onError(error);
        }
      }
      return settled;
    },
  };
}
