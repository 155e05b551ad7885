import { describe, expect, it } from 'vitest';
import {
  CHECKOUT_STATES,
  CREATING,
  EXPIRED,
  FINAL_CHECKOUT_STATES,
  LIVE_STATES,
  RESERVING_STATES,
  STORED_STATES,
  TRANSACTION_STATES,
  fromTransactionState,
  isCheckoutState,
  isFinal,
  isFinalTransactionState,
  isLive,
} from './states';

const EXPECTED_FINAL = ['Completed', 'Error', 'Cancelled', 'Reversed'];

describe('state lists', () => {
  it('stores Creating and the seven checkout states', () => {
    expect([...STORED_STATES].sort()).toEqual([
      'Cancelled',
      'Completed',
      'Created',
      'Creating',
      'Error',
      'Expired',
      'Registered',
      'Reversed',
    ]);
    expect(STORED_STATES).toEqual([CREATING, ...CHECKOUT_STATES]);
  });

  it('live states are the non-final checkout states but Expired; reserving states are those plus Creating and Completed', () => {
    expect([...LIVE_STATES].sort()).toEqual(CHECKOUT_STATES.filter((s) => !EXPECTED_FINAL.includes(s) && s !== 'Expired').sort());
    expect([...RESERVING_STATES].sort()).toEqual(['Completed', 'Created', 'Creating', 'Registered']);
    for (const state of STORED_STATES) expect(isLive(state), state).toBe(state === 'Created' || state === 'Registered');
  });

  it('Expired frees the order and is not final: neither reserving, nor live, nor final', () => {
    expect(EXPIRED).toBe('Expired');
    expect(CHECKOUT_STATES).toContain('Expired');
    expect(RESERVING_STATES as readonly string[]).not.toContain('Expired');
    expect(LIVE_STATES as readonly string[]).not.toContain('Expired');
    expect(isFinal('Expired')).toBe(false);
  });
});

describe('isFinal', () => {
  it.each(STORED_STATES.map((s) => [s, EXPECTED_FINAL.includes(s)] as const))('%s → %s', (state, final) => {
    expect(isFinal(state)).toBe(final);
  });

  it('agrees with FINAL_CHECKOUT_STATES', () => {
    expect([...FINAL_CHECKOUT_STATES].sort()).toEqual([...EXPECTED_FINAL].sort());
  });
});

describe('fromTransactionState', () => {
  const expected: Record<(typeof TRANSACTION_STATES)[number], string | undefined> = {
    Created: 'Created',
    Registered: 'Registered',
    Completed: 'Completed',
    Cancelled: 'Cancelled',
    Reversed: 'Reversed',
    Error: 'Error',
    // A refund is the merchant's own operation: no checkout state.
    Refunded: undefined,
  };

  it.each(TRANSACTION_STATES.map((s) => [s, expected[s]] as const))('%s → %s', (state, checkoutState) => {
    expect(fromTransactionState(state)).toBe(checkoutState);
  });

  it.each(['Creating', 'Expired', 'Canceled', 'Reverted', 'completed', '', 'Pending'])('%j → undefined', (state) => {
    expect(fromTransactionState(state)).toBeUndefined();
  });

  it('maps every final transaction state except Refunded to a final checkout state', () => {
    for (const state of TRANSACTION_STATES) {
      const mapped = fromTransactionState(state);
      if (mapped !== undefined) expect(isFinal(mapped), state).toBe(isFinalTransactionState(state));
    }
    expect(isFinalTransactionState('Refunded')).toBe(true);
    expect(isFinalTransactionState('Registered')).toBe(false);
  });
});

describe('isCheckoutState', () => {
  it('accepts the seven browser states and nothing else', () => {
    for (const state of CHECKOUT_STATES) expect(isCheckoutState(state)).toBe(true);
    for (const value of ['Creating', 'Refunded', undefined, null, 1, {}]) expect(isCheckoutState(value)).toBe(false);
  });
});
