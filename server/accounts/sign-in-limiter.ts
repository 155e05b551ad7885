/**
 * The brake on guessing passwords: sign-ins counted per address (10 in 15 minutes) and per e-mail (5 in 15 minutes);
 * past either, sign-ins from that address or for that e-mail are refused until the oldest count leaves the window.
 * An attempt is counted when it starts, as a failure until it succeeds: counted after its password check, a burst
 * sent at once would all pass the brake before the first failure was in. In memory, per instance: with several
 * instances an attacker gets each instance's allowance (still a few dozen guesses an hour), which is acceptable for
 * the cost of a shared counter. A success clears its e-mail's failures. The keys are bounded: past `maxKeys`, the
 * oldest are forgotten first.
 */
import type { Clock } from '../lib/clock';

export interface SignInLimits {
  perAddress: number;
  perEmail: number;
  windowMs: number;
  maxKeys: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perAddress: 10, perEmail: 5, windowMs: 15 * 60_000, maxKeys: 10_000 };

/** A sign-in the brake let through (`succeeded` takes back its count when its password opened the user) or refused. */
export type Attempt = { retryAfterMs: 0; succeeded(): void } | { retryAfterMs: number; report: boolean };

interface Counter {
  /** Times of the attempts still in the window, oldest first. */
  failures: number[];
  /** Until when a refusal of this key was already reported (one report per wait, see `begin`). */
  reportedUntil: number;
}

export function createSignInLimiter(clock: Clock, limits: Partial<SignInLimits> = {}) {
  const { perAddress, perEmail, windowMs, maxKeys } = { ...DEFAULT_SIGN_IN_LIMITS, ...limits };
  const counters = new Map<string, Counter>();

  const counter = (key: string, now: number): Counter | undefined => {
    const found = counters.get(key);
    if (!found) return undefined;
    while (found.failures.length > 0 && found.failures[0]! <= now - windowMs) found.failures.shift();
    if (found.failures.length === 0 && found.reportedUntil <= now) counters.delete(key);
    return found;
  };
  /** How long `key` must wait, in ms (0: it may try). */
  const wait = (key: string, max: number, now: number) => {
    const found = counter(key, now);
    return found && found.failures.length >= max ? found.failures[found.failures.length - max]! + windowMs - now : 0;
  };
  const keys = (address: string, email: string) => [`address:${address}`, `email:${email}`] as const;

  /** Refused for `retryAfterMs`, `report` true the first time this wait is told (a flood is recorded once, not each time). */
  const refused = (now: number, retryAfterMs: number, ...refusedKeys: string[]): Attempt => {
    let report = false;
    for (const key of refusedKeys) {
      const found = counters.get(key);
      if (found && found.reportedUntil <= now) {
        found.reportedUntil = now + retryAfterMs;
        report = true;
      }
    }
    return { retryAfterMs, report };
  };

  /** Counts an attempt at `now` against both keys. */
  const count = (now: number, ...countedKeys: string[]) => {
    for (const key of countedKeys) {
      const found = counter(key, now) ?? { failures: [], reportedUntil: 0 };
      found.failures.push(now);
      // Re-inserted so the map's order is the order of last attempt: the first keys are the ones to forget.
      counters.delete(key);
      counters.set(key, found);
    }
    while (counters.size > maxKeys) counters.delete(counters.keys().next().value!);
  };

  return {
    /**
     * Starts a sign-in from `address` for `email`: refused while either is braked; else counted at once (in the same
     * turn as the check, so concurrent attempts see each other) and let through.
     */
    begin(address: string, email: string): Attempt {
      const now = clock.now().getTime();
      const [byAddress, byEmail] = keys(address, email);
      const retryAfterMs = Math.max(wait(byAddress, perAddress, now), wait(byEmail, perEmail, now));
      if (retryAfterMs > 0) return refused(now, retryAfterMs, byAddress, byEmail);
      count(now, byAddress, byEmail);
      return {
        retryAfterMs: 0,
        /** The password opened the user: this attempt leaves the address's count, and the e-mail's failures are forgotten. */
        succeeded() {
          const failures = counters.get(byAddress)?.failures;
          const at = failures?.lastIndexOf(now) ?? -1;
          if (at >= 0) failures!.splice(at, 1);
          counters.delete(byEmail);
        },
      };
    },
  };
}

export type SignInLimiter = ReturnType<typeof createSignInLimiter>;
