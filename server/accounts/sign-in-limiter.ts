/**
 * The brake on guessing passwords. Failures are counted per e-mail-and-address pair, and per address alone (a looser
 * brake against one address spraying many e-mails); past a brake's free failures, each next attempt must wait twice
 * as long after the last one (2 s, 4 s, 8 s… up to 15 minutes). Never per e-mail alone: the right password from an
 * address that has not failed is never refused because another address failed, so knowing an owner's e-mail is not
 * enough to lock them out. A brake is forgotten a while after its last failure (a day for a pair, an hour for an
 * address); a success clears its pair and takes its own count back from its address.
 *
 * The counters live in the store (server/store/sign-in-brakes.ts), shared by every instance. An attempt is counted
 * when it starts, as a failure until it succeeds, in the same transaction as the check of its brakes: counted after
 * its password check, a burst sent at once would all pass the brake before the first failure was in.
 */
import type { Clock } from '../lib/clock';
import type { SignInBrake, SignInBrakePlan, SignInBrakeStore } from '../store/sign-in-brakes';

export interface BrakeRule {
  /** Failures let through before the first wait. */
  free: number;
  /** The longest wait between two attempts. */
  maxWaitMs: number;
  /** A brake is forgotten this long after its last failure. */
  forgetMs: number;
}

export interface SignInLimits {
  /** Per e-mail and address. */
  pair: BrakeRule;
  /** Per address, whatever the e-mail. */
  address: BrakeRule;
  /** Forgotten brakes are deleted at most this often per instance. */
  pruneEveryMs: number;
}

const MINUTE = 60_000;

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  pair: { free: 5, maxWaitMs: 15 * MINUTE, forgetMs: 24 * 60 * MINUTE },
  address: { free: 30, maxWaitMs: 15 * MINUTE, forgetMs: 60 * MINUTE },
  pruneEveryMs: MINUTE,
};

/** A sign-in the brake let through (`succeeded` takes back its count when its password opened the user) or refused. */
export type Attempt = { retryAfterMs: 0; succeeded(): Promise<void> } | Refusal;

/** A refused attempt: how long to wait, and whether this refusal is the first of its wait (to record). */
export interface Refusal {
  retryAfterMs: number;
  report: boolean;
}

/** The failures that still count at `now`: none once the rule forgets them. */
const failuresAt = (brake: SignInBrake, rule: BrakeRule, now: number) =>
  now - Date.parse(brake.lastFailureAt) >= rule.forgetMs ? 0 : brake.failures;

/** How long the next attempt under `brake` must wait at `now`, in ms (0: it may try). */
export function brakeWait(brake: SignInBrake, rule: BrakeRule, now: number): number {
  const failures = failuresAt(brake, rule, now);
  if (failures < rule.free) return 0;
  const delay = Math.min(rule.maxWaitMs, 1000 * 2 ** (failures - rule.free + 1));
  return Math.max(0, Date.parse(brake.lastFailureAt) + delay - now);
}

/**
 * The plan for one attempt: refused while a brake makes it wait (and `report` true the first time this wait is told,
 * so a flood is recorded once, not each time), else counted on both brakes.
 */
export function attemptPlan(
  brakes: readonly SignInBrake[],
  rules: readonly BrakeRule[],
  now: number,
): SignInBrakePlan<Refusal | 'counted'> {
  const waits = brakes.map((brake, i) => brakeWait(brake, rules[i]!, now));
  const retryAfterMs = Math.max(...waits);
  const at = new Date(now).toISOString();
  if (retryAfterMs > 0) {
    const unreported = brakes.filter(
      (brake, i) => waits[i]! > 0 && (brake.reportedUntil === null || Date.parse(brake.reportedUntil) <= now),
    );
    const reportedUntil = new Date(now + retryAfterMs).toISOString();
    return { write: unreported.map((brake) => ({ ...brake, reportedUntil })), result: { retryAfterMs, report: unreported.length > 0 } };
  }
  const counted = brakes.map((brake, i) => ({ ...brake, failures: failuresAt(brake, rules[i]!, now) + 1, lastFailureAt: at }));
  return { write: counted, result: 'counted' };
}

export interface SignInLimiter {
  /**
   * Starts a sign-in from `address` for `email`: refused while its pair or its address is braked; else counted at
   * once (in the transaction that checked, so concurrent attempts on any instance see each other) and let through.
   */
  begin(address: string, email: string): Promise<Attempt>;
}

export function createSignInLimiter(
  { store, clock, log = console }: { store: SignInBrakeStore; clock: Clock; log?: { error(...args: unknown[]): void } },
  limits: Partial<SignInLimits> = {},
): SignInLimiter {
  const { pair, address: perAddress, pruneEveryMs } = { ...DEFAULT_SIGN_IN_LIMITS, ...limits };
  let prunedAt = -Infinity;

  /** Deletes the brakes every rule has forgotten, at most once per `pruneEveryMs`; a failure here refuses no sign-in. */
  async function prune(now: number) {
    if (now - prunedAt < pruneEveryMs) return;
    prunedAt = now;
    const before = new Date(now - Math.max(pair.forgetMs, perAddress.forgetMs)).toISOString();
    await store.pruneSignInBrakes(before).catch((error: unknown) => log.error('sign-in brake prune:', (error as Error).message));
  }

  return {
    async begin(address, email) {
      const now = clock.now().getTime();
      await prune(now);
      const byAddress = `address:${address}`;
      const byPair = `pair:${address} ${email}`;
      const rules = [perAddress, pair];
      // A flood's later attempts, refused and already reported, are answered from a read: no write per request.
      const seen = await store.readSignInBrakes([byAddress, byPair]);
      const known = seen.filter((brake) => brake !== undefined);
      if (known.length === seen.length) {
        const peeked = attemptPlan(known, rules, now).result;
        if (peeked !== 'counted' && !peeked.report) return peeked;
      }
      const planned = await store.takeSignInBrakes([byAddress, byPair], new Date(now).toISOString(), (brakes) =>
        attemptPlan(brakes, rules, now),
      );
      if (planned !== 'counted') return planned;
      return {
        retryAfterMs: 0,
        /** The password opened the user: the pair's failures are forgotten, and this attempt leaves the address's count. */
        succeeded: () => store.settleSignIn(byPair, byAddress),
      };
    },
  };
}
