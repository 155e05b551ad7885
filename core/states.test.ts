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
  canMove,
  fromTransactionState,
  isCheckoutState,
  isFinal,
  isFinalTransactionState,
  isLive,
  statesBefore,
  type StoredState,
} from './states';

/**
 * The forward order, written out here rather than read from the module: Creating, then Created, then Registered, then
 * Expired, then the four final states side by side.
 */
const EXPECTED_RANK: Record<string, number> = {
  Creating: 0,
  Created: 1,
  Registered: 2,
  Expired: 3,
  Completed: 4,
  Error: 4,
  Cancelled: 4,
  Reversed: 4,
};
const EXPECTED_FINAL = ['Completed', 'Error', 'Cancelled', 'Reversed'];

const pairs = STORED_STATES.flatMap((from) => STORED_STATES.map((to) => [from, to] as const));

describe('state lists', () => {
  it('stores Creating and the seven checkout states, and the test knows each of them', () => {
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
    expect(Object.keys(EXPECTED_RANK).sort()).toEqual([...STORED_STATES].sort());
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

describe('canMove (every pair of stored states)', () => {
  it.each(pairs)('%s → %s', (from, to) => {
    const expected = !EXPECTED_FINAL.includes(from) && EXPECTED_RANK[from]! < EXPECTED_RANK[to]!;
    expect(canMove(from, to)).toBe(expected);
  });

  it('never leaves a final state', () => {
    for (const [from, to] of pairs) if (isFinal(from)) expect(canMove(from, to), `${from} → ${to}`).toBe(false);
  });

  it('never goes backwards or sideways, and never stays', () => {
    for (const [from, to] of pairs) {
      if (EXPECTED_RANK[to]! <= EXPECTED_RANK[from]!) expect(canMove(from, to), `${from} → ${to}`).toBe(false);
    }
    expect(canMove('Registered', 'Created')).toBe(false);
    expect(canMove('Created', 'Creating')).toBe(false);
    expect(canMove('Completed', 'Error')).toBe(false);
    expect(canMove('Expired', 'Registered')).toBe(false);
    expect(canMove('Expired', 'Created')).toBe(false);
    expect(canMove('Completed', 'Expired')).toBe(false);
    expect(canMove('Error', 'Expired')).toBe(false);
  });

  it("expires only a live checkout, and lets the provider's final word reach an expired one (a late payment)", () => {
    expect(canMove('Created', 'Expired')).toBe(true);
    expect(canMove('Registered', 'Expired')).toBe(true);
    for (const final of FINAL_CHECKOUT_STATES) expect(canMove('Expired', final), final).toBe(true);
  });

  it('moves forward from every non-final state', () => {
    expect(canMove('Creating', 'Created')).toBe(true);
    expect(canMove('Creating', 'Registered')).toBe(true);
    expect(canMove('Created', 'Registered')).toBe(true);
    for (const final of FINAL_CHECKOUT_STATES) {
      expect(canMove('Created', final)).toBe(true);
      expect(canMove('Registered', final)).toBe(true);
    }
  });
});

describe('statesBefore', () => {
  const expected: Record<StoredState, StoredState[]> = {
    Creating: [],
    // Creating is left only by activation, so no transition lists it.
    Created: [],
    Registered: ['Created'],
    Expired: ['Created', 'Registered'],
    Completed: ['Created', 'Registered', 'Expired'],
    Error: ['Created', 'Registered', 'Expired'],
    Cancelled: ['Created', 'Registered', 'Expired'],
    Reversed: ['Created', 'Registered', 'Expired'],
  };

  it.each(STORED_STATES.map((s) => [s, expected[s]] as const))('%s ← %j', (to, before) => {
    expect([...statesBefore(to)].sort()).toEqual([...before].sort());
  });

  it('is exactly the non-final states ranked below the target, without Creating', () => {
    for (const to of STORED_STATES) {
      const wanted = STORED_STATES.filter((s) => s !== CREATING && !EXPECTED_FINAL.includes(s) && EXPECTED_RANK[s]! < EXPECTED_RANK[to]!);
      expect([...statesBefore(to)].sort(), to).toEqual([...wanted].sort());
    }
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
