/**
 * The payment window: how long a checkout's code may be paid before the BFF calls it `Expired` and lets the shopper
 * ask for a new one. The provider's contract gives no expiry for a cash-in or an initiation (docs/spec-gaps.md), so
 * the window is the BFF's own: creation plus `CHECKOUT_TTL_SECONDS`, unless a method's provider answer brings one.
 */
import { isLive } from '../../core/states';
import type { Checkout } from '../store/types';

/** `CHECKOUT_TTL_SECONDS` when unset: 30 minutes. */
export const DEFAULT_CHECKOUT_TTL_SECONDS = 1800;

/** The end of a window of `ttlMs` opened at `createdAt`. */
export const windowEnd = (createdAt: string, ttlMs: number): string => new Date(Date.parse(createdAt) + ttlMs).toISOString();

/** When the checkout's window ends; a checkout stored without one (none since the window exists) gets the default. */
export const expiresAtOf = (checkout: Pick<Checkout, 'expiresAt' | 'createdAt'>): string =>
  checkout.expiresAt ?? windowEnd(checkout.createdAt, DEFAULT_CHECKOUT_TTL_SECONDS * 1000);

/** A live checkout whose window has ended at `now`: the BFF moves it to `Expired`. */
export const isPastWindow = (checkout: Checkout, now: Date): boolean =>
  isLive(checkout.state) && Date.parse(expiresAtOf(checkout)) <= now.getTime();
