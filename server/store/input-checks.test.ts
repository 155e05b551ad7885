/**
 * The store's cheap checks of a transition's inputs (`instantOf`, `checkoutStateOf`, `eventSourceOf`) give what the
 * zod schemas give, value or error, for any input: the form the server writes, other forms, and anything at all.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkoutStateOf, eventSourceOf, instantOf } from './input-checks';
import { CheckoutStateSchema, EventSourceSchema, InstantSchema } from './types';

/** What `f(value)` gives: its value, or that it threw. */
const outcome = (f: (value: string) => string, value: string) => {
  try {
    return { value: f(value) };
  } catch {
    return { threw: true };
  }
};

const date = fc.date({ min: new Date(-1e14), max: new Date(3e14), noInvalidDate: true });
const pad = (n: number, width = 2) => String(n).padStart(width, '0');
/** Strings shaped like the canonical form, with any digits: days past the month's end, hour 24, a zone other than Z. */
const lookalike = fc
  .tuple(
    fc.integer({ min: 0, max: 9999 }),
    fc.integer({ min: 0, max: 13 }),
    fc.integer({ min: 0, max: 32 }),
    fc.integer({ min: 0, max: 25 }),
    fc.integer({ min: 0, max: 61 }),
    fc.integer({ min: 0, max: 61 }),
    fc.integer({ min: 0, max: 999 }),
    fc.constantFrom('Z', 'z', '+00:00', '-03:00', ''),
  )
  .map(([y, mo, d, h, mi, s, ms, zone]) => `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}.${pad(ms, 3)}${zone}`);

describe("the store's checks of a transition's inputs", () => {
  it('instantOf gives what InstantSchema.parse gives, or throws where it throws', () => {
    const input = fc.oneof(
      date.map((d) => d.toISOString()),
      date.map((d) => d.toISOString().replace('Z', '+00:00')),
      lookalike,
      fc.string({ maxLength: 30 }),
    );
    fc.assert(
      fc.property(input, (value) => {
        expect(outcome(instantOf, value)).toEqual(outcome((v) => InstantSchema.parse(v), value));
      }),
      { numRuns: 5_000 },
    );
  });

  it('checkoutStateOf and eventSourceOf give what their schemas give, or throw where they throw', () => {
    const input = fc.oneof(fc.constantFrom(...CheckoutStateSchema.options, ...EventSourceSchema.options, 'completed', ''), fc.string());
    fc.assert(
      fc.property(input, (value) => {
        expect(outcome(checkoutStateOf, value)).toEqual(outcome((v) => CheckoutStateSchema.parse(v), value));
        expect(outcome(eventSourceOf, value)).toEqual(outcome((v) => EventSourceSchema.parse(v), value));
      }),
    );
  });
});
