import { describe, expect, it } from 'vitest';
import { CASH_OUT_STATES, cashOutMay, cashOutMovesFrom, isFinalCashOutState } from './cashout-machine';

const STATES = [
  'PendingApproval',
  'Rejected',
  'Sending',
  'Created',
  'Registered',
  'Completed',
  'Cancelled',
  'Reversed',
  'Error',
  'Refunded',
];
const PROVIDER = STATES.slice(3);

describe('cash-out machine', () => {
  it('knows every state, ours and the provider’s', () => {
    expect([...CASH_OUT_STATES].sort()).toEqual([...STATES].sort());
  });

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

  it('approves a pending movement into Sending and rejects it into Rejected, from PendingApproval only', () => {
    expect(cashOutMovesFrom('approve')).toEqual(['PendingApproval']);
    expect(cashOutMovesFrom('reject')).toEqual(['PendingApproval']);
    for (const from of STATES) {
      for (const to of STATES) {
        expect(cashOutMay(from, 'approve', to), `approve ${from} → ${to}`).toBe(from === 'PendingApproval' && to === 'Sending');
        expect(cashOutMay(from, 'reject', to), `reject ${from} → ${to}`).toBe(from === 'PendingApproval' && to === 'Rejected');
      }
    }
  });

  it('puts an approved movement the provider refused back to waiting for a decision', () => {
    expect(cashOutMovesFrom('refused')).toEqual(['Sending']);
    expect(cashOutMay('Sending', 'refused', 'PendingApproval')).toBe(true);
    expect(cashOutMay('Created', 'refused', 'PendingApproval')).toBe(false);
  });

  it('takes a late answer of the provider from any state that holds no transaction, Rejected included', () => {
    expect(cashOutMovesFrom('late-answer').sort()).toEqual(['PendingApproval', 'Rejected', 'Sending']);
    for (const from of STATES)
      for (const to of PROVIDER) expect(cashOutMay(from, 'late-answer', to), `${from} → ${to}`).toBe(!PROVIDER.includes(from));
  });

  it('ends with the provider’s final states and with a rejection, never with ours in between', () => {
    expect(STATES.filter(isFinalCashOutState).sort()).toEqual(['Cancelled', 'Completed', 'Error', 'Refunded', 'Rejected', 'Reversed']);
  });
});
