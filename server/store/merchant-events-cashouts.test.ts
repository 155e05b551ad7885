/**
 * Which merchant events a cash-out's change makes (`merchantEventsOfCashOut`), as a table: the store writes exactly
 * these in the change's transaction (test/server/store/back-office-contract.ts checks that on both databases).
 */
import { describe, expect, it } from 'vitest';
import type { CashOut } from './back-office';
import { MERCHANT_EVENT_DATA, merchantEventsOfCashOut } from './merchant-events';

const T = '2026-01-15T12:00:00.000Z';
const sending: CashOut = {
  idempotencyKey: 'k-1',
  fingerprint: 'f',
  orderId: 'payout-1',
  transactionId: null,
  state: 'Sending',
  amountCents: 1_050,
  recipientName: 'Maria da Silva',
  recipientCpf: '52998224725',
  keyType: 'CPF',
  keyValue: '52998224725',
  description: null,
  refundOf: null,
  charges: null,
  requestedBy: 'api-token',
  decidedBy: null,
  decidedAt: null,
  createdAt: T,
  updatedAt: T,
};
const at = (state: string, fields: Partial<CashOut> = {}): CashOut => ({
  ...sending,
  transactionId: 'tx-1',
  state: state as CashOut['state'],
  updatedAt: '2026-01-15T12:05:00.000Z',
  ...fields,
});
const refund = { refundOf: 'co_1', orderId: 'refund-1' };
const types = (before: CashOut | undefined, after: CashOut, checkoutOrderId?: string) =>
  merchantEventsOfCashOut(before, after, checkoutOrderId).map((e) => (e.data.failure ? `${e.type}:${e.data.failure as string}` : e.type));

describe('merchantEventsOfCashOut', () => {
  it('gives a refund refund.created when the provider answers, and its end once', () => {
    expect(types(undefined, { ...sending, ...refund })).toEqual([]);
    expect(types({ ...sending, ...refund }, at('Created', refund), 'A-1')).toEqual(['refund.created']);
    expect(types(at('Created', refund), at('Registered', refund), 'A-1')).toEqual([]);
    expect(types(at('Registered', refund), at('Registered', { ...refund, charges: '0.510395' }), 'A-1')).toEqual([]);
    expect(types(at('Registered', refund), at('Completed', refund), 'A-1')).toEqual(['refund.completed']);
    expect(types(at('Created', refund), at('Cancelled', refund), 'A-1')).toEqual(['refund.failed:Cancelled']);
    expect(types(at('Completed', refund), at('Completed', { ...refund, charges: '0.510395' }), 'A-1')).toEqual([]);
  });

  it('begins every refund with refund.created, also one answered straight in a final state', () => {
    expect(types({ ...sending, ...refund }, at('Completed', refund), 'A-1')).toEqual(['refund.created', 'refund.completed']);
    expect(types(undefined, at('Error', refund), 'A-1')).toEqual(['refund.created', 'refund.failed:Error']);
  });

  it('gives a cash-out that is not a refund only its end: completed, or failed with how', () => {
    expect(types(sending, at('Created'))).toEqual([]);
    expect(types(at('Created'), at('Registered'))).toEqual([]);
    expect(types(at('Registered'), at('Completed'))).toEqual(['cashout.completed']);
    expect(types(sending, at('Reversed'))).toEqual(['cashout.failed:Reversed']);
    expect(types(at('Registered'), at('Refunded'))).toEqual(['cashout.failed:Refunded']);
  });

  it('carries what a merchant reconciles with, valid against its schema, and never the recipient', () => {
    const [created, completed] = merchantEventsOfCashOut(
      { ...sending, ...refund },
      at('Completed', { ...refund, charges: '0.510395' }),
      'A-1',
    );
    expect(created).toEqual({
      id: expect.stringMatching(/^evt_[A-Za-z0-9_-]+$/),
      type: 'refund.created',
      createdAt: '2026-01-15T12:05:00.000Z',
      data: {
        idempotencyKey: 'k-1',
        orderId: 'refund-1',
        transactionId: 'tx-1',
        amount: '10.50',
        currency: 'BRL',
        state: 'Completed',
        charges: '0.510395',
        checkoutId: 'co_1',
        checkoutOrderId: 'A-1',
      },
    });
    expect(completed!.id).not.toBe(created!.id);
    expect(MERCHANT_EVENT_DATA['refund.completed'].parse(completed!.data)).toEqual(completed!.data);
    const [payout] = merchantEventsOfCashOut(at('Registered'), at('Completed'));
    expect(payout!.data).toEqual({
      idempotencyKey: 'k-1',
      orderId: 'payout-1',
      transactionId: 'tx-1',
      amount: '10.50',
      currency: 'BRL',
      state: 'Completed',
    });
    expect(JSON.stringify([created, completed, payout])).not.toMatch(/52998224725|Maria/);
  });

  it("refuses a refund's event without the refunded checkout's order (the store reads it in the same transaction)", () => {
    expect(() => merchantEventsOfCashOut({ ...sending, ...refund }, at('Created', refund))).toThrow();
  });
});
