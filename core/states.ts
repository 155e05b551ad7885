/**
 * Checkout states, in one place for the BFF, its store, the element and the demo: the list, the forward-only order,
 * which states are final, and how the provider's transaction states map onto them.
 */

/** Every state a provider transaction can report (after the provider's alternative spellings are normalised). */
export const TRANSACTION_STATES = ['Created', 'Registered', 'Completed', 'Cancelled', 'Reversed', 'Error', 'Refunded'] as const;
export type TransactionState = (typeof TRANSACTION_STATES)[number];

/** Transaction states after which the provider moves nothing any more. */
export const FINAL_TRANSACTION_STATES = [
  'Completed',
  'Cancelled',
  'Reversed',
  'Error',
  'Refunded',
] as const satisfies readonly TransactionState[];
export const isFinalTransactionState = (state: string): boolean => (FINAL_TRANSACTION_STATES as readonly string[]).includes(state);

/** The states a browser sees. A checkout begins `Created` or `Registered` and ends in one final state. */
export const CHECKOUT_STATES = ['Created', 'Registered', 'Completed', 'Error', 'Cancelled', 'Reversed'] as const;
export type CheckoutState = (typeof CHECKOUT_STATES)[number];

export const FINAL_CHECKOUT_STATES = ['Completed', 'Error', 'Cancelled', 'Reversed'] as const satisfies readonly CheckoutState[];
export type FinalCheckoutState = (typeof FINAL_CHECKOUT_STATES)[number];

/**
 * The BFF's own state between reserving an order and the provider's answer. It is stored but never shown to a
 * browser: a `Creating` checkout reads as not found.
 */
export const CREATING = 'Creating';
/** What the BFF stores: a browser-facing state, or `Creating`. */
export const STORED_STATES = [CREATING, ...CHECKOUT_STATES] as const;
export type StoredState = (typeof STORED_STATES)[number];

/** States in which an order already holds its checkout: creating another one could charge the payer twice. */
export const RESERVING_STATES = [CREATING, 'Created', 'Registered', 'Completed'] as const satisfies readonly StoredState[];
/** States in which a checkout still waits for the payer, so the reconciler re-reads them. */
export const LIVE_STATES = ['Created', 'Registered'] as const satisfies readonly CheckoutState[];

export const isCheckoutState = (value: unknown): value is CheckoutState => (CHECKOUT_STATES as readonly unknown[]).includes(value);

export const isFinal = (state: StoredState): state is FinalCheckoutState => (FINAL_CHECKOUT_STATES as readonly string[]).includes(state);

/** Forward order: a checkout may only move to a state of a higher rank. Final states share the top rank. */
const RANK: Record<StoredState, number> = {
  Creating: 0,
  Created: 1,
  Registered: 2,
  Completed: 3,
  Error: 3,
  Cancelled: 3,
  Reversed: 3,
};

/** True when a checkout in `from` may move to `to`: never out of a final state, never backwards or sideways. */
export const canMove = (from: StoredState, to: StoredState): boolean => !isFinal(from) && RANK[from] < RANK[to];

/** The states a checkout may leave to reach `to`: the compare-and-set list of a transition. `Creating` is left only by activation. */
export const statesBefore = (to: StoredState): StoredState[] => STORED_STATES.filter((state) => state !== CREATING && canMove(state, to));

/**
 * The checkout state a provider transaction state stands for. `Refunded` has no checkout state (a refund is a
 * separate operation of the merchant's) and gives undefined, as does anything unknown.
 */
export function fromTransactionState(state: string): CheckoutState | undefined {
  return isCheckoutState(state) ? state : undefined;
}
