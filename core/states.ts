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

/**
 * The states a browser sees. A checkout begins `Created` or `Registered` and ends in one final state. `Expired` is
 * the BFF's own: the payment window passed with no payment. It frees the order (a new code may be made) but is not
 * final, since money that moved always wins: a late payment of the expired code still completes it.
 */
export const CHECKOUT_STATES = ['Created', 'Registered', 'Expired', 'Completed', 'Error', 'Cancelled', 'Reversed'] as const;
export type CheckoutState = (typeof CHECKOUT_STATES)[number];

export const FINAL_CHECKOUT_STATES = ['Completed', 'Error', 'Cancelled', 'Reversed'] as const satisfies readonly CheckoutState[];
export type FinalCheckoutState = (typeof FINAL_CHECKOUT_STATES)[number];

/** The provider confirmed the payment: money moved. */
export const COMPLETED = 'Completed' satisfies CheckoutState;

/** The payment window of a live checkout passed. Reached only by the BFF, never from a provider state. */
export const EXPIRED = 'Expired' satisfies CheckoutState;

/**
 * The BFF's own state between reserving an order and the provider's answer. It is stored but never shown to a
 * browser: a `Creating` checkout reads as not found.
 */
export const CREATING = 'Creating';
/** What the BFF stores: a browser-facing state, or `Creating`. */
export const STORED_STATES = [CREATING, ...CHECKOUT_STATES] as const;
export type StoredState = (typeof STORED_STATES)[number];

/**
 * States in which an order already holds its checkout: creating another one could charge the payer twice. Not
 * `Expired`: its code may still be paid, but the shopper may ask for a new one (a late payment of the old code is
 * then kept as a duplicate of the new checkout).
 */
export const RESERVING_STATES = [CREATING, 'Created', 'Registered', 'Completed'] as const satisfies readonly StoredState[];
/** States in which a checkout still waits for the payer within its payment window, so the reconciler re-reads them. */
export const LIVE_STATES = ['Created', 'Registered'] as const satisfies readonly CheckoutState[];

export const isCheckoutState = (value: unknown): value is CheckoutState => (CHECKOUT_STATES as readonly unknown[]).includes(value);

export const isFinal = (state: StoredState): state is FinalCheckoutState => (FINAL_CHECKOUT_STATES as readonly string[]).includes(state);

export const isLive = (state: StoredState): state is (typeof LIVE_STATES)[number] => (LIVE_STATES as readonly string[]).includes(state);

/**
 * The checkout state a provider transaction state stands for. `Refunded` has no checkout state (a refund is a
 * separate operation of the merchant's) and gives undefined, as does anything unknown; `Expired` is the BFF's own
 * and never comes from the provider.
 */
export function fromTransactionState(state: string): ProviderCheckoutState | undefined {
  return isCheckoutState(state) && state !== EXPIRED ? state : undefined;
}

/** The checkout states the provider can report (everything but our own `Creating` and `Expired`). */
export type ProviderCheckoutState = Exclude<CheckoutState, typeof EXPIRED>;
