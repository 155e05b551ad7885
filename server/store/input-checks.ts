/**
 * The store's checks of its inputs on a payment's path (a move, its bookkeeping), the same as `InstantSchema`,
 * `CheckoutStateSchema` and `EventSourceSchema` (./types): a value already in the form they return is returned as it
 * is without going through zod, anything else is parsed by the schema, so the result, or the error, is the schema's.
 * Nearly every value there is the server's own (a state constant, `toISOString()`), and three instants and nine
 * states through zod cost some 50 µs of every status change with the caches cold as they are between payments (the
 * bench's status row).
 */
import { STORED_STATES } from '../../core/states';
import { CheckoutStateSchema, EventSourceSchema, InstantSchema, type CheckoutState, type EventSource, type MoveEvent } from './types';

const STORED = new Set<unknown>(STORED_STATES);
const SOURCES = new Set<unknown>(EventSourceSchema.options);

/** `InstantSchema.parse(value)`. */
export function instantOf(value: string): string {
  if (typeof value === 'string' && value.length === 24 && value.endsWith('Z')) {
    const ms = Date.parse(value);
    if (Number.isFinite(ms) && new Date(ms).toISOString() === value) return value;
  }
  return InstantSchema.parse(value);
}

/** `CheckoutStateSchema.parse(value)`. */
export const checkoutStateOf = (value: string): CheckoutState =>
  STORED.has(value) ? (value as CheckoutState) : CheckoutStateSchema.parse(value);

/** `EventSourceSchema.parse(value)`. */
export const eventSourceOf = (value: string): EventSource => (SOURCES.has(value) ? (value as EventSource) : EventSourceSchema.parse(value));

/** The event of `CheckoutStore.apply`: an expiry, or the provider's word with a stored state; anything else throws. */
export function moveEventOf(event: MoveEvent): MoveEvent {
  if (event.type === 'provider') checkoutStateOf(event.state);
  else if (event.type !== 'expire')
    throw new Error(`a checkout moves on the provider's word or an expiry, not ${String((event as { type?: unknown }).type)}`);
  return event;
}
