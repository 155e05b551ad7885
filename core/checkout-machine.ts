/**
 * The checkout state machine: every rule that decides a checkout's next state, in one place, for the server and the
 * browser alike. The transitions are data (`TRANSITIONS`); `decide` is pure and returns a plan (what to write: the new
 * state, the event's data, and any other checkout of the order that changes with it). The stores execute plans
 * inside their transaction and hold no rule of their own; the payment service only says what happened.
 *
 * The order's one-per-order place: at most one checkout of an order that is not a duplicate may be in a reserving
 * state (`RESERVING_STATES`: Creating, Created, Registered, Completed), so an order never has two payable codes. A
 * checkout that moves into a reserving state while another one holds the place becomes that one's duplicate, except
 * when it is paid while the holder still waits for the payer: then the paid one takes the place and the holder
 * expires, so no tab goes on offering a code that would charge twice.
 */
import type { Method } from './methods';
import { COMPLETED, CREATING, EXPIRED, isLive, RESERVING_STATES, type ProviderCheckoutState, type StoredState } from './states';

export type { ProviderCheckoutState } from './states';

/** What can happen to a checkout. */
export type MachineEvent =
  /** The provider answered our create: the reservation becomes a checkout in the provider's state. */
  | { type: 'activate'; state: ProviderCheckoutState }
  /**
   * The provider's word on the transaction, re-read from it (after a webhook hint, by the reconciler, on a read);
   * `paidAt`, for a payment, when the provider says it was paid.
   */
  | { type: 'provider'; state: ProviderCheckoutState; paidAt?: string }
  /** The payment window ended with no payment. */
  | { type: 'expire' };
export type MachineEventType = MachineEvent['type'];

export interface Transition {
  from: StoredState;
  on: MachineEventType;
  to: readonly StoredState[];
}

const PROVIDER_FINALS = ['Completed', 'Error', 'Cancelled', 'Reversed'] as const;

/**
 * Every allowed move; anything not listed is refused and changes nothing. Final states (Completed, Error, Cancelled,
 * Reversed) are left by nothing. `Expired` frees the order but is not final: money that moved always wins, so the
 * provider's final word on an expired code still applies.
 */
export const TRANSITIONS: readonly Transition[] = [
  { from: CREATING, on: 'activate', to: ['Created', 'Registered', ...PROVIDER_FINALS] },
  { from: 'Created', on: 'provider', to: ['Registered', ...PROVIDER_FINALS] },
  { from: 'Registered', on: 'provider', to: PROVIDER_FINALS },
  { from: 'Created', on: 'expire', to: [EXPIRED] },
  { from: 'Registered', on: 'expire', to: [EXPIRED] },
  { from: EXPIRED, on: 'provider', to: PROVIDER_FINALS },
];

/** The state an event asks for. */
export const targetOf = (event: MachineEvent): StoredState => (event.type === 'expire' ? EXPIRED : event.state);

/** The transition that allows `event` from `state`, if any. */
export function transitionFor(state: StoredState, event: MachineEvent): Transition | undefined {
  const to = targetOf(event);
  return TRANSITIONS.find((t) => t.from === state && t.on === event.type && t.to.includes(to));
}

/** True when some event moves a checkout from `from` to `to` (for checks of a recorded history, such as the soak's). */
export const canMove = (from: StoredState, to: StoredState): boolean => TRANSITIONS.some((t) => t.from === from && t.to.includes(to));

/** True when a checkout in `state` holds its order's one-per-order place (unless it is a duplicate). */
export const holdsPlace = (state: StoredState): boolean => (RESERVING_STATES as readonly string[]).includes(state);

/** A checkout as the machine sees it. */
export interface MachineCheckout {
  id: string;
  state: StoredState;
  duplicateOf: string | null;
  /** The end of its payment window; null for one stored before windows existed. */
  expiresAt: string | null;
}

/**
 * Paid after its window: the one meaning of `late`, for the checkout's event and the merchant's (`decide` marks it)
 * and for the back office (its view, and its list's filter, the same comparison in SQL: `PAID_LATE` of
 * server/store/migrations-indexes.ts). Whether the checkout was `Expired` when the news came does not matter: a code
 * expired early because another one of its order was paid (superseded), or a payment made in time and heard of after
 * the expiry, is not late. Both instants are in `toISOString()` form, so their text orders as their times; a
 * checkout without a window is never late.
 */
export const paidLate = (paidAt: string | undefined, expiresAt: string | null): boolean =>
  paidAt !== undefined && expiresAt !== null && paidAt > expiresAt;

/** Another checkout of the order in its one-per-order place (reserving state, not a duplicate). */
export interface PlaceHolder {
  id: string;
  state: StoredState;
}

/** What a move writes into its event's data besides what the caller gave. */
export interface MoveMarks {
  late?: true;
  duplicateOf?: string;
  supersededBy?: string;
}

/** Another checkout of the same order that moves with this one, in the same transaction. */
export interface SideMove {
  id: string;
  from: StoredState;
  to: StoredState;
  data: MoveMarks;
}

export type Plan =
  | { move: false }
  | {
      move: true;
      from: StoredState;
      to: StoredState;
      /** The checkout's `duplicateOf` after the move. */
      duplicateOf: string | null;
      /** Merged over the caller's event data. */
      data: MoveMarks;
      /** Applied before the checkout's own move (the one-per-order index is checked at each statement). */
      others: SideMove[];
    };

/**
 * The move that expires the order's place holder when another checkout of the order is paid while the holder still
 * waits for the payer; undefined when the holder is not waiting (then the paid one is a duplicate).
 */
export function supersede(holder: PlaceHolder, paidId: string): SideMove | undefined {
  return isLive(holder.state) ? { id: holder.id, from: holder.state, to: EXPIRED, data: { supersededBy: paidId } } : undefined;
}

/** Whether `decide` needs the order's place holder for this move: the store looks it up (and locks it) only then. */
export function needsPlace(checkout: MachineCheckout, event: MachineEvent): boolean {
  return event.type !== 'activate' && transitionFor(checkout.state, event) !== undefined && holdsPlace(targetOf(event));
}

/**
 * What to write when `event` happens to `checkout`. `holder` is the order's other checkout in its one-per-order place
 * (ignored when it is the checkout itself), looked up in the same transaction when `needsPlace` says so.
 */
export function decide(checkout: MachineCheckout, event: MachineEvent, holder?: PlaceHolder): Plan {
  const transition = transitionFor(checkout.state, event);
  if (!transition) return { move: false };
  const to = targetOf(event);
  const data: MoveMarks = to === COMPLETED && event.type === 'provider' && paidLate(event.paidAt, checkout.expiresAt) ? { late: true } : {};
  const base = { move: true as const, from: checkout.state, to, data, duplicateOf: checkout.duplicateOf, others: [] as SideMove[] };
  const other = event.type !== 'activate' && holdsPlace(to) && holder && holder.id !== checkout.id ? holder : undefined;
  if (!other) return base;
  // A payment while the order's other code still waits for the payer: the paid one takes the order (a duplicate
  // too: a code whose create reached the provider late), the other expires.
  const superseded = to === COMPLETED ? supersede(other, checkout.id) : undefined;
  if (superseded) return { ...base, duplicateOf: null, others: [superseded] };
  // Otherwise the place is taken: this checkout is kept as the holder's duplicate (the money is recorded, and the
  // order shows it was paid twice). A checkout already a duplicate stays the duplicate of what it was.
  const duplicateOf = checkout.duplicateOf ?? other.id;
  return { ...base, duplicateOf, data: duplicateOf === other.id ? { ...data, duplicateOf } : data };
}

/**
 * Where a provider transaction of ours that no checkout holds goes (a lost create answer, a webhook of a transaction
 * we never stored). It completes the order's `Creating` reservation when a shopper can pay from it (`resumable`) and
 * it is of the reservation's method. Already paid while the order's place holder still waits for the payer (a create
 * that reached the provider after its reservation was released, say), it takes the order and the holder expires, as a
 * late payment does. Otherwise it is stored beside: as the place holder's duplicate when the order has one, in the
 * free place when a shopper can pay from it, or as a duplicate of itself (outside the one-per-order rule, still
 * followed) when no shopper can.
 */
export type Adoption =
  | { kind: 'activate'; reservationId: string }
  /** Already paid while the order's place holder still waits for the payer: it takes the place, the holder expires. */
  | { kind: 'supersede'; holderId: string }
  | { kind: 'insert'; duplicateOf: string | null }
  /** Stored as a duplicate of itself: outside the one-per-order rule, still followed. */
  | { kind: 'insert-outside' };

export function decideAdoption(input: {
  method: Method;
  /** The transaction's state, as a checkout state. */
  state: ProviderCheckoutState;
  resumable: boolean;
  holder?: PlaceHolder & { method: Method };
}): Adoption {
  const { holder, resumable, method } = input;
  if (holder?.state === CREATING && resumable && holder.method === method) return { kind: 'activate', reservationId: holder.id };
  if (holder && input.state === COMPLETED && isLive(holder.state)) return { kind: 'supersede', holderId: holder.id };
  if (holder) return { kind: 'insert', duplicateOf: holder.id };
  return resumable ? { kind: 'insert', duplicateOf: null } : { kind: 'insert-outside' };
}
