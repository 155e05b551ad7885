import { describe, expect, it } from 'vitest';
import { METHOD_LABELS } from '../method-labels';
import { CASH_OUT_STATE_LABELS, labelOf, REFUND_STATE_LABELS } from './labels';

describe('labelOf', () => {
  it('gives the word of a known value', () => {
    expect(labelOf(METHOD_LABELS, 'openfinance')).toBe('Open Finance');
    expect(labelOf(CASH_OUT_STATE_LABELS, 'Completed')).toBe('Concluída');
    expect(labelOf(REFUND_STATE_LABELS, 'Completed')).toBe('Concluído');
  });

  it('gives a value it does not know as it is, an inherited name too', () => {
    expect(labelOf(METHOD_LABELS, 'boleto')).toBe('boleto');
    expect(labelOf(METHOD_LABELS, 'constructor')).toBe('constructor');
  });
});
