/**
 * The checkout states as the element sees them. core/states.ts lists the BFF's states; `Expired` (the payment window
 * closed) is accepted here whether or not core already lists it, so the element works against a BFF before and
 * after it reports expiry. Expired is never settled: a late payment can still turn it Completed, and the stream stays
 * open.
 */
import { FINAL_CHECKOUT_STATES, LIVE_STATES, isCheckoutState, type CheckoutState } from '../core/states.js';

export const EXPIRED = 'Expired';
export type ShownState = CheckoutState | typeof EXPIRED;
/** The outcomes after which nothing changes any more. */
export type SettledState = Exclude<ShownState, 'Created' | 'Registered' | typeof EXPIRED>;

export const isShownState = (value: unknown): value is ShownState => isCheckoutState(value) || value === EXPIRED;

/** Completed, Error, Cancelled or Reversed: the element stops following the checkout. */
export function isSettled(state: ShownState): state is SettledState {
  return state !== EXPIRED && (FINAL_CHECKOUT_STATES as readonly string[]).includes(state);
}

/** Created or Registered: the checkout waits for the payer. */
export const isLive = (state: ShownState): boolean => (LIVE_STATES as readonly string[]).includes(state);
