import { describe, expect, it } from 'vitest';
import { cashOutMay, cashOutMovesFrom } from './cashout-machine';

const STATES = ['Sending', 'Created', 'Registered', 'Completed', 'Cancelled', 'Reversed', 'Error', 'Refunded'];
const PROVIDER = STATES.slice(1);

describe('cash-out machine', () => {
  it('takes the provider’s answer only while Sending', () => {
    expect(cashOutMovesFrom('answer')).toEqual(['Sending']);
    for (const from of STATES)
      for (const to of PROVIDER) expect(cashOutMay(from, 'answer', to), `${from} → ${to}`).toBe(from === 'Sending');
  });

  it('follows the provider from a live state to any state, and never out of a final one or out of Sending', () => {
    expect(cashOutMovesFrom('provider').sort()).toEqual(['Created', 'Registered']);
    for (const from of STATES) {
      for (const to of PROVIDER) {
        expect(cashOutMay(from, 'provider', to), `${from} → ${to}`).toBe(from === 'Created' || from === 'Registered');
      }
    }
    expect(cashOutMay('Created', 'provider', 'Sending')).toBe(false);
  });
});
