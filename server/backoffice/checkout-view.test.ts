/**
 * The provider's fee on a payment: kept from the completed record's `charges` with the receipt (payments/receipt.ts),
 * and shown in the admin checkout view as `fee` and `net` (amount − fee), exact at six decimals; null without charges.
 */
import { describe, expect, it } from 'vitest';
import { adminCheckoutView } from './checkout-view';
import { receiptOf } from '../payments/receipt';
import type { TransactionRecord } from '../provider';
import type { Checkout } from '../store/types';

const record = (charges: unknown) =>
  ({ transaction: { stateCompletedDate: '2026-01-15T12:00:00.000Z', charges } }) as unknown as TransactionRecord;

const checkout = (fields: Partial<Checkout>): Checkout => ({
  id: 'co-1',
  orderId: 'O-1',
  method: 'pix',
  state: 'Completed',
  amountCents: 1000,
  currency: 'BRL',
  description: null,
  transactionId: 'tx-1',
  payerCpf: null,
  payerName: null,
  details: {},
  duplicateOf: null,
  seq: 2,
  expiresAt: '2026-01-15T12:30:00.000Z',
  createdAt: '2026-01-15T12:00:00.000Z',
  updatedAt: '2026-01-15T12:05:00.000Z',
  lastWebhookAt: null,
  lastCheckedAt: null,
  ...fields,
});

describe("the provider's charges", () => {
  it('are kept with the receipt when they are an amount of at most six decimals', () => {
    expect(receiptOf(record('0.599000'), '2026-01-15T12:01:00.000Z').charges).toBe('0.599000');
    expect(receiptOf(record('0'), '2026-01-15T12:01:00.000Z').charges).toBe('0');
    for (const bad of [null, undefined, '', '  ', 'abc', '-1.00', '0.1234567', 12]) {
      expect(receiptOf(record(bad), '2026-01-15T12:01:00.000Z'), String(bad)).not.toHaveProperty('charges');
    }
  });
});

describe('fee and net of the admin view', () => {
  it('are the charges and the amount less them, exact at six decimals', () => {
    expect(adminCheckoutView(checkout({ details: { paidAt: '2026-01-15T12:05:00.000Z', charges: '0.599' } }))).toMatchObject({
      amount: '10.00',
      fee: '0.599000',
      net: '9.401000',
    });
    expect(adminCheckoutView(checkout({ amountCents: 123_456, details: { charges: '12.722144' } }))).toMatchObject({
      fee: '12.722144',
      net: '1221.837856',
    });
  });

  it('go below zero when the charges pass the amount', () => {
    expect(adminCheckoutView(checkout({ amountCents: 50, details: { charges: '0.599500' } }))).toMatchObject({
      fee: '0.599500',
      net: '-0.099500',
    });
  });

  it('are null without charges, with unreadable ones, or before the payment completes', () => {
    expect(adminCheckoutView(checkout({ details: {} }))).toMatchObject({ fee: null, net: null });
    expect(adminCheckoutView(checkout({ details: { charges: 0.5 } }))).toMatchObject({ fee: null, net: null });
    expect(adminCheckoutView(checkout({ details: { charges: 'free' } }))).toMatchObject({ fee: null, net: null });
    expect(adminCheckoutView(checkout({ state: 'Registered', details: { charges: '0.599000' } }))).toMatchObject({
      fee: null,
      net: null,
    });
  });
});
