import { describe, expect, it } from 'vitest';
import { METHODS, PAYER_CPF, isMethod, unreachable } from './methods';

describe('methods', () => {
  it('lists PIX and OpenFinance', () => {
    expect([...METHODS].sort()).toEqual(['openfinance', 'pix']);
  });

  it('isMethod accepts exactly the listed methods', () => {
    for (const method of METHODS) expect(isMethod(method)).toBe(true);
    for (const value of ['PIX', 'card', '', undefined, null, 0]) expect(isMethod(value)).toBe(false);
  });

  it('has a payer rule for every method: CPF optional for PIX, required for OpenFinance', () => {
    expect(Object.keys(PAYER_CPF).sort()).toEqual([...METHODS].sort());
    expect(PAYER_CPF.pix).toBe('optional');
    expect(PAYER_CPF.openfinance).toBe('required');
  });

  it('unreachable throws with the value', () => {
    expect(() => unreachable('card' as never)).toThrow(/card/);
  });
});
