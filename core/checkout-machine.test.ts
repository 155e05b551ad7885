import { describe, expect, it } from 'vitest';
import { canMove, decide, decideAdoption, needsPlace, paidLate, type MachineEvent, type ProviderCheckoutState } from './checkout-machine';
import { FINAL_CHECKOUT_STATES, isFinal, STORED_STATES, type StoredState } from './states';

const PROVIDER: ProviderCheckoutState[] = ['Created', 'Registered', 'Completed', 'Error', 'Cancelled', 'Reversed'];
const EVENTS: MachineEvent[] = [
  ...PROVIDER.map((state) => ({ type: 'activate' as const, state })),
  ...PROVIDER.map((state) => ({ type: 'provider' as const, state })),
  { type: 'expire' },
];

/**
 * Every (state, event) pair, written out by hand rather than derived from the module's table. Columns follow EVENTS:
 * activate→Created…Reversed, provider→Created…Reversed, expire. `m` moves, `.` is refused (none is late: no payment time).
 */
const EXPECTED: Record<StoredState, string> = {
  // Columns: activate (6), provider (6), expire.
  Creating: 'mmmmmm ...... .',
  Created: '...... .mmmmm m',
  Registered: '...... ..mmmm m',
  Expired: '...... ..mmmm .',
  Completed: '...... ...... .',
  Error: '...... ...... .',
  Cancelled: '...... ...... .',
  Reversed: '...... ...... .',
};

const WINDOW_END = '2026-01-15T12:30:00.000Z';
const AFTER_WINDOW = '2026-01-15T12:31:00.000Z';

const label = (event: MachineEvent) => (event.type === 'expire' ? 'expire' : `${event.type}→${event.state}`);

describe('checkout machine: every state against every event', () => {
  const cases = STORED_STATES.flatMap((state) =>
    EVENTS.map((event, i) => [state, label(event), event, EXPECTED[state].replaceAll(' ', '')[i]!] as const),
  );

  it('covers all 8 states × 13 events', () => {
    expect(cases).toHaveLength(8 * 13);
    expect(Object.keys(EXPECTED).sort()).toEqual([...STORED_STATES].sort());
  });

  it.each(cases)('%s on %s', (state, _label, event, expected) => {
    const plan = decide({ id: 'co_1', state, duplicateOf: null, expiresAt: WINDOW_END }, event);
    if (expected === '.') {
      expect(plan).toEqual({ move: false });
      return;
    }
    const to = event.type === 'expire' ? 'Expired' : event.state;
    expect(plan).toEqual({
      move: true,
      from: state,
      to,
      duplicateOf: null,
      data: {},
      others: [],
    });
  });
});

describe('checkout machine: a late payment', () => {
  const payment = (paidAt: string): MachineEvent => ({ type: 'provider', state: 'Completed', paidAt });
  const inState = (state: StoredState, expiresAt: string | null = WINDOW_END) => ({ id: 'co_1', state, duplicateOf: null, expiresAt });

  it('is one paid after its window, whatever the state the news finds it in', () => {
    for (const state of ['Created', 'Registered', 'Expired'] as const) {
      expect(decide(inState(state), payment(AFTER_WINDOW)), state).toMatchObject({ move: true, data: { late: true } });
      expect(decide(inState(state), payment(WINDOW_END)), state).toMatchObject({ move: true, data: {} });
    }
  });

  it('is not one paid within its window and heard of after it expired (superseded, or its webhook late), nor one without a window', () => {
    expect(decide(inState('Expired'), payment('2026-01-15T12:10:00.000Z'))).toMatchObject({ move: true, data: {} });
    expect(decide(inState('Expired', null), payment(AFTER_WINDOW))).toMatchObject({ move: true, data: {} });
    expect(decide(inState('Expired'), { type: 'provider', state: 'Error' })).toMatchObject({ move: true, data: {} });
  });

  it('is told by paidLate, the rule the back office uses too', () => {
    expect(paidLate(AFTER_WINDOW, WINDOW_END)).toBe(true);
    expect(paidLate(WINDOW_END, WINDOW_END)).toBe(false);
    expect(paidLate(undefined, WINDOW_END)).toBe(false);
    expect(paidLate(AFTER_WINDOW, null)).toBe(false);
  });
});

describe('checkout machine: the order’s one-per-order place', () => {
  const expired = { id: 'co_old', state: 'Expired' as const, duplicateOf: null, expiresAt: WINDOW_END };
  const paid: MachineEvent = { type: 'provider', state: 'Completed', paidAt: AFTER_WINDOW };

  it('asks for the place holder only for an allowed move into a reserving state', () => {
    expect(needsPlace(expired, paid)).toBe(true);
    expect(needsPlace(expired, { type: 'provider', state: 'Error' })).toBe(false);
    expect(needsPlace({ ...expired, state: 'Completed' }, paid)).toBe(false);
    expect(needsPlace({ ...expired, state: 'Creating' }, { type: 'activate', state: 'Created' })).toBe(false);
    expect(needsPlace({ ...expired, state: 'Created' }, { type: 'expire' })).toBe(false);
  });

  it.each(['Created', 'Registered'] as const)('a late payment expires the order’s newer code still %s and takes the place', (state) => {
    expect(decide(expired, paid, { id: 'co_new', state })).toEqual({
      move: true,
      from: 'Expired',
      to: 'Completed',
      duplicateOf: null,
      data: { late: true },
      others: [{ id: 'co_new', from: state, to: 'Expired', data: { supersededBy: 'co_old' } }],
    });
  });

  it.each(['Creating', 'Completed'] as const)('a late payment while the place holder is %s is kept as its duplicate', (state) => {
    expect(decide(expired, paid, { id: 'co_new', state })).toMatchObject({
      move: true,
      to: 'Completed',
      duplicateOf: 'co_new',
      data: { late: true, duplicateOf: 'co_new' },
      others: [],
    });
  });

  it('a duplicate paid while the holder still waits takes the order (a code whose create reached the provider late)', () => {
    const late = { id: 'co_late', state: 'Created' as const, duplicateOf: 'co_shown', expiresAt: '2026-01-15T13:00:00.000Z' };
    expect(decide(late, paid, { id: 'co_shown', state: 'Registered' })).toEqual({
      move: true,
      from: 'Created',
      to: 'Completed',
      duplicateOf: null,
      data: {},
      others: [{ id: 'co_shown', from: 'Registered', to: 'Expired', data: { supersededBy: 'co_late' } }],
    });
  });

  it('a checkout already a duplicate stays the duplicate of what it was, and says nothing new', () => {
    const duplicate = { id: 'co_dup', state: 'Created' as const, duplicateOf: 'co_first', expiresAt: WINDOW_END };
    expect(decide(duplicate, { type: 'provider', state: 'Registered' }, { id: 'co_other', state: 'Completed' })).toEqual({
      move: true,
      from: 'Created',
      to: 'Registered',
      duplicateOf: 'co_first',
      data: {},
      others: [],
    });
  });

  it('ignores a holder that is the checkout itself', () => {
    const live = { id: 'co_1', state: 'Created' as const, duplicateOf: null, expiresAt: '2026-01-15T13:00:00.000Z' };
    expect(decide(live, paid, { id: 'co_1', state: 'Created' })).toMatchObject({ duplicateOf: null, data: {}, others: [] });
  });

  it('a refused move changes nobody, whatever holds the place', () => {
    expect(decide({ ...expired, state: 'Completed' }, paid, { id: 'co_new', state: 'Created' })).toEqual({ move: false });
  });
});

describe('checkout machine: adopting a transaction no checkout holds', () => {
  const reservation = { id: 'co_r', state: 'Creating' as const, method: 'pix' as const };

  it('completes the order’s reservation when a shopper can pay from it and it is of the same method', () => {
    expect(decideAdoption({ method: 'pix', state: 'Registered', resumable: true, holder: reservation })).toEqual({
      kind: 'activate',
      reservationId: 'co_r',
    });
  });

  it('keeps it beside the reservation as a duplicate otherwise', () => {
    expect(decideAdoption({ method: 'openfinance', state: 'Registered', resumable: true, holder: reservation })).toEqual({
      kind: 'insert',
      duplicateOf: 'co_r',
    });
    expect(decideAdoption({ method: 'pix', state: 'Registered', resumable: false, holder: reservation })).toEqual({
      kind: 'insert',
      duplicateOf: 'co_r',
    });
    expect(
      decideAdoption({ method: 'pix', state: 'Registered', resumable: true, holder: { ...reservation, state: 'Registered' } }),
    ).toEqual({
      kind: 'insert',
      duplicateOf: 'co_r',
    });
  });

  it('takes the order from a holder still waiting when it is paid already, and expires the holder', () => {
    for (const state of ['Created', 'Registered'] as const) {
      expect(decideAdoption({ method: 'pix', state: 'Completed', resumable: true, holder: { ...reservation, state } })).toEqual({
        kind: 'supersede',
        holderId: 'co_r',
      });
    }
    // A paid holder keeps the order: a second payment is a duplicate.
    expect(decideAdoption({ method: 'pix', state: 'Completed', resumable: true, holder: { ...reservation, state: 'Completed' } })).toEqual({
      kind: 'insert',
      duplicateOf: 'co_r',
    });
  });

  it('takes a free place only when a shopper can pay from it', () => {
    expect(decideAdoption({ method: 'pix', state: 'Registered', resumable: true })).toEqual({ kind: 'insert', duplicateOf: null });
    expect(decideAdoption({ method: 'pix', state: 'Registered', resumable: false })).toEqual({ kind: 'insert-outside' });
  });
});

/** The forward order, written out here rather than read from the module. */
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

describe('canMove (every pair of stored states)', () => {
  it.each(pairs)('%s → %s', (from, to) => {
    // Forward only, never out of a final state; Creating is left by activation alone, never to Expired.
    const expected =
      !EXPECTED_FINAL.includes(from) && EXPECTED_RANK[from]! < EXPECTED_RANK[to]! && !(from === 'Creating' && to === 'Expired');
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
