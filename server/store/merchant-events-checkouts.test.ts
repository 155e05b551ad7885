/**
 * The checkout's merchant events are built without a parse at run time (server/store/merchant-events.ts): here every
 * one the builder makes, over arbitrary checkouts and changes, is held to its type's schema, extra keys refused.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STORED_STATES } from '../../core/states';
import { MERCHANT_EVENT_DATA, merchantEventOf } from './merchant-events';
import type { Checkout, CheckoutEvent } from './types';

const instant = fc.integer({ min: Date.parse('2020-01-01'), max: Date.parse('2030-01-01') }).map((ms) => new Date(ms).toISOString());
const maybeText = fc.option(fc.string({ maxLength: 12 }), { nil: undefined });

const checkout = fc.record({
  id: fc.uuid(),
  orderId: fc.string({ minLength: 1, maxLength: 20 }),
  method: fc.constantFrom('pix' as const, 'openfinance' as const),
  amountCents: fc.integer({ min: 1, max: 10_000_000_00 }),
  transactionId: fc.option(fc.uuid(), { nil: null }),
  duplicateOf: fc.option(fc.uuid(), { nil: null }),
  expiresAt: fc.option(instant, { nil: null }),
  paidAt: maybeText,
  payerBank: maybeText,
});

const change = fc.record({
  state: fc.constantFrom(...STORED_STATES),
  at: instant,
  late: fc.option(fc.boolean(), { nil: undefined }),
  supersededBy: fc.option(fc.uuid(), { nil: undefined }),
});

describe("a checkout's merchant event", () => {
  it('matches its type, and only it, for every checkout and every change', () => {
    fc.assert(
      fc.property(checkout, change, (made, moved) => {
        const details: Record<string, unknown> = {};
        if (made.paidAt !== undefined) details.paidAt = made.paidAt;
        if (made.payerBank !== undefined) details.payerBank = made.payerBank;
        const { paidAt: _paidAt, payerBank: _payerBank, ...fields } = made;
        const stored = { ...fields, state: moved.state, currency: 'BRL', details } as unknown as Checkout;
        const data: Record<string, unknown> = {};
        if (moved.late !== undefined) data.late = moved.late;
        if (moved.supersededBy !== undefined) data.supersededBy = moved.supersededBy;
        const event = { checkoutId: made.id, seq: 2, state: moved.state, source: 'webhook', at: moved.at, data } as CheckoutEvent;
        const built = merchantEventOf(stored, event);
        const acts = ['Completed', 'Error', 'Cancelled', 'Reversed', 'Expired'].includes(moved.state);
        expect(built !== undefined).toBe(acts && made.transactionId !== null);
        if (!built) return;
        const schema = MERCHANT_EVENT_DATA[built.type];
        expect(schema.strict().parse(built.data)).toEqual(built.data);
        expect(built.id).toMatch(/^evt_[A-Za-z0-9_-]{22}$/);
        if (moved.state === 'Completed') expect(built.type).toBe(made.duplicateOf ? 'checkout.duplicate_paid' : 'checkout.completed');
      }),
      { numRuns: 500 },
    );
  });

  it('has an id of its own, across the refills of the pool the ids are cut from', () => {
    const paid = {
      id: 'c',
      orderId: 'o',
      method: 'pix',
      amountCents: 100,
      currency: 'BRL',
      transactionId: 't',
      duplicateOf: null,
      expiresAt: null,
      details: {},
    };
    const event = {
      checkoutId: 'c',
      seq: 2,
      state: 'Completed',
      source: 'webhook',
      at: '2026-01-01T00:00:00.000Z',
      data: {},
    } as CheckoutEvent;
    const ids = Array.from({ length: 1_000 }, () => merchantEventOf({ ...paid, state: 'Completed' } as unknown as Checkout, event)!.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^evt_[A-Za-z0-9_-]{22}$/);
  });
});
