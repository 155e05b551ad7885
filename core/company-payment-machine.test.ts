import { describe, expect, it } from 'vitest';
import { COMPANY_PAYMENT_STATES, companyPaymentMovesFrom, companyPaymentNext, type CompanyPaymentEvent } from './company-payment-machine';

const EVENTS: CompanyPaymentEvent[] = ['approve', 'reject', 'refused', 'answer'];

describe('company payment machine', () => {
  it('knows its four states, all ours', () => {
    expect([...COMPANY_PAYMENT_STATES].sort()).toEqual(['PendingApproval', 'Rejected', 'Requested', 'Sending']);
  });

  it('decides only a payment waiting for approval: approved it is Sending, rejected it is Rejected', () => {
    expect(companyPaymentMovesFrom('approve')).toEqual(['PendingApproval']);
    expect(companyPaymentMovesFrom('reject')).toEqual(['PendingApproval']);
    expect(companyPaymentNext('PendingApproval', 'approve')).toBe('Sending');
    expect(companyPaymentNext('PendingApproval', 'reject')).toBe('Rejected');
  });

  it('takes the provider answer only while Sending, and puts a refused approved one back to waiting', () => {
    expect(companyPaymentNext('Sending', 'answer')).toBe('Requested');
    expect(companyPaymentNext('Sending', 'refused')).toBe('PendingApproval');
    expect(companyPaymentMovesFrom('answer')).toEqual(['Sending']);
  });

  it('never moves a Rejected or Requested payment', () => {
    for (const event of EVENTS) {
      expect(companyPaymentNext('Rejected', event), event).toBeUndefined();
      expect(companyPaymentNext('Requested', event), event).toBeUndefined();
    }
  });
});
