/**
 * The brake on guessing passwords: failed sign-ins counted per address (10 in 15 minutes) and per e-mail (5 in 15
 * minutes); past either, sign-ins from that address or for that e-mail are refused until the oldest failure leaves
 * the window. In memory, per instance: with several instances an attacker gets each instance's allowance (still a
 * few dozen guesses an hour), which is acceptable for the cost of a shared counter. A success clears its e-mail's
 * failures. The keys are bounded: past `maxKeys`, the oldest are forgotten first.
 */
import type { Clock } from '../lib/clock';

export interface SignInLimits {
  perAddress: number;
  perEmail: number;
  windowMs: number;
  maxKeys: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perAddress: 10, perEmail: 5, windowMs: 15 * 60_000, maxKeys: 10_000 };

interface Counter {
  /** Times of the failures still in the window, oldest first. */
  failures: number[];
  /** Until when a refusal of this key was already reported (one report per wait, see `check`). */
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

  return {
    /**
     * Whether a sign-in from `address` for `email` may be tried: `retryAfterMs` 0 when it may; else how long to wait,
     * and `report` true the first time this wait is told (so a flood of refusals is recorded once, not each time).
     */
    check(address: string, email: string): { retryAfterMs: number; report: boolean } {
      const now = clock.now().getTime();
      const [byAddress, byEmail] = keys(address, email);
      const retryAfterMs = Math.max(wait(byAddress, perAddress, now), wait(byEmail, perEmail, now));
      if (retryAfterMs === 0) return { retryAfterMs, report: false };
      let report = false;
      for (const key of [byAddress, byEmail]) {
        const found = counters.get(key);
        if (found && found.reportedUntil <= now) {
          found.reportedUntil = now + retryAfterMs;
          report = true;
        }
      }
      return { retryAfterMs, report };
    },
    /** Counts a failed sign-in against the address and the e-mail. */
    fail(address: string, email: string): void {
      const now = clock.now().getTime();
      for (const key of keys(address, email)) {
        const found = counter(key, now) ?? { failures: [], reportedUntil: 0 };
        found.failures.push(now);
        // Re-inserted so the map's order is the order of last failure: the first keys are the ones to forget.
        counters.delete(key);
        counters.set(key, found);
      }
      while (counters.size > maxKeys) counters.delete(counters.keys().next().value!);
    },
    /** Forgets the e-mail's failures after a successful sign-in (the address's stay). */
    succeed(email: string): void {
      counters.delete(`email:${email}`);
    },
  };
}

export type SignInLimiter = ReturnType<typeof createSignInLimiter>;
