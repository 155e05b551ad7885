/**
 * How a store carries out the checkout state machine (`core/checkout-machine.ts`), written once for both databases.
 * Each operation is a generator of database steps: SQLite runs the steps synchronously inside its BEGIN IMMEDIATE
 * transaction, PostgreSQL awaits them on one client inside BEGIN … COMMIT (locking the rows it reads). Neither store
 * decides anything: the steps read the rows, ask `decide`, and write its plan.
 */
import { decide, needsPlace, supersede, type PlaceHolder, type ProviderCheckoutState } from '../../core/checkout-machine';
import { merchantEventOf, type NewMerchantEvent } from './merchant-events';
import { instantOf } from './input-checks';
import type {
  Activation,
  Checkout,
  CheckoutEvent,
  EventSource,
  MoveEvent,
  NewCheckoutSchema,
  TransitionChanges,
  TransitionResult,
} from './types';

/** One database step of a plan. Reads in PostgreSQL lock the row (`FOR UPDATE`) until the transaction ends. */
export type Step =
  | { step: 'read'; id: string }
  | { step: 'holder'; id: string }
  | { step: 'move'; move: Move }
  | { step: 'insert'; insert: Insert }
  | { step: 'event'; event: CheckoutEvent }
  | { step: 'merchant'; event: NewMerchantEvent };

/** One INSERT of a provider transaction no checkout holds, already in its state; writes nothing when it conflicts. */
export interface Insert {
  draft: ReturnType<typeof NewCheckoutSchema.parse>;
  fields: Activation & { details: Record<string, unknown> };
  duplicateOf: string | null;
  at: string;
}

/** One UPDATE of a checkout: state, seq + 1, and the fields given. Guarded by `from`, so it writes nothing otherwise. */
export interface Move {
  id: string;
  from: string;
  to: string;
  at: string;
  /** Merged over the checkout's details. */
  details: Record<string, unknown>;
  duplicateOf: string | null;
  /** Set by an activation only. */
  transactionId?: string;
  expiresAt?: string;
  /** Bookkeeping of a transition (`TransitionChanges`), each kept when later than the stored one. */
  checkedAt?: string;
  webhookAt?: string;
}

/** What each step gives back. */
export interface StepResults {
  read: Checkout | undefined;
  holder: PlaceHolder | undefined;
  move: Checkout | undefined;
  insert: Checkout | undefined;
  event: CheckoutEvent;
  merchant: undefined;
}

type Result = StepResults[Step['step']];
export type Steps<T> = Generator<Step, T, Result>;

function* read(id: string): Steps<Checkout | undefined> {
  return (yield { step: 'read', id }) as StepResults['read'];
}
function* holderOf(id: string): Steps<PlaceHolder | undefined> {
  return (yield { step: 'holder', id }) as StepResults['holder'];
}
function* write(move: Move): Steps<Checkout> {
  const moved = (yield { step: 'move', move }) as StepResults['move'];
  // The rows were read in this transaction (and locked in PostgreSQL), so the guarded update cannot miss.
  if (!moved) throw new Error(`checkout ${move.id} changed under its own transaction`);
  return moved;
}
function* insertRow(insert: Insert): Steps<Checkout | undefined> {
  return (yield { step: 'insert', insert }) as StepResults['insert'];
}
/** Appends the checkout's event and, when the change is one a merchant acts on, the merchant's event with it. */
function* append(checkout: Checkout, source: EventSource, at: string, data: Record<string, unknown>): Steps<CheckoutEvent> {
  const event = (yield {
    step: 'event',
    event: { checkoutId: checkout.id, seq: checkout.seq, state: checkout.state, source, at, data },
  }) as StepResults['event'];
  const merchant = merchantEventOf(checkout, event);
  if (merchant) yield { step: 'merchant', event: merchant };
  return event;
}

/** See `CheckoutStore.apply`. */
export function* applySteps(
  id: string,
  event: MoveEvent,
  source: EventSource,
  data: Record<string, unknown>,
  at: string,
  changes: TransitionChanges = {},
): Steps<TransitionResult> {
  const current = yield* read(id);
  if (!current) throw new Error(`checkout ${id} does not exist`);
  const holder = needsPlace(current, event) ? yield* holderOf(id) : undefined;
  const plan = decide(current, event, holder);
  if (!plan.move) return { changed: false, checkout: current };
  let superseded: { checkout: Checkout; event: CheckoutEvent } | undefined;
  // Side moves first: SQLite checks the one-per-order index at each statement.
  for (const side of plan.others) {
    const moved = yield* write({ id: side.id, from: side.from, to: side.to, at, details: {}, duplicateOf: null });
    superseded = { checkout: moved, event: yield* append(moved, source, at, { ...side.data }) };
  }
  const moved = yield* write({
    id,
    from: plan.from,
    to: plan.to,
    at,
    details: changes.details ?? {},
    duplicateOf: plan.duplicateOf,
    ...(changes.checkedAt && { checkedAt: instantOf(changes.checkedAt) }),
    ...(changes.webhookAt && { webhookAt: instantOf(changes.webhookAt) }),
  });
  const appended = yield* append(moved, source, at, { ...data, ...plan.data });
  return { changed: true, checkout: moved, event: appended, ...(superseded && { superseded }) };
}

/** See `Store.activateCheckout`. */
export function* activationSteps(
  id: string,
  fields: Activation & { details: Record<string, unknown> },
  at: string,
): Steps<{ checkout: Checkout; event: CheckoutEvent }> {
  const current = yield* read(id);
  const plan = current && decide(current, { type: 'activate', state: fields.state as ProviderCheckoutState });
  if (!current || !plan?.move) throw new Error(`checkout ${id} cannot be activated: it is not Creating`);
  const checkout = yield* write({
    id,
    from: plan.from,
    to: plan.to,
    at,
    details: fields.details,
    duplicateOf: plan.duplicateOf,
    transactionId: fields.transactionId,
    ...(fields.expiresAt && { expiresAt: fields.expiresAt }),
  });
  return { checkout, event: yield* append(checkout, 'create', at, { transactionId: fields.transactionId }) };
}

/** See `Store.insertActive`. */
export function* insertSteps(
  draft: Insert['draft'],
  fields: Insert['fields'],
  source: EventSource,
  duplicateOf: string | null,
  at: string,
): Steps<{ checkout: Checkout; event: CheckoutEvent } | undefined> {
  const checkout = yield* insertRow({ draft, fields, duplicateOf, at });
  if (!checkout) return undefined;
  const data = { transactionId: fields.transactionId, ...(duplicateOf ? { duplicateOf } : {}) };
  return { checkout, event: yield* append(checkout, source, at, data) };
}

/** See `Store.insertSuperseding`. */
export function* supersedingInsertSteps(
  draft: Insert['draft'],
  fields: Insert['fields'],
  source: EventSource,
  holderId: string,
  at: string,
): Steps<{ checkout: Checkout; event: CheckoutEvent; superseded: { checkout: Checkout; event: CheckoutEvent } } | undefined> {
  const holder = yield* read(holderId);
  const side = holder && !holder.duplicateOf ? supersede(holder, draft.id) : undefined;
  if (!side) return undefined;
  const expired = yield* write({ id: side.id, from: side.from, to: side.to, at, details: {}, duplicateOf: null });
  const superseded = { checkout: expired, event: yield* append(expired, source, at, { ...side.data }) };
  const inserted = yield* insertSteps(draft, fields, source, null, at);
  // Stored already (by another request or instance): the whole transaction, the expiry with it, is rolled back.
  if (!inserted) throw new AlreadyStored(fields.transactionId);
  return { ...inserted, superseded };
}

/** Thrown inside a transaction to roll it back when the transaction it would store is stored already. */
export class AlreadyStored extends Error {
  constructor(transactionId: string) {
    super(`transaction ${transactionId} is stored already`);
  }
}
