import { describe, expect, it } from 'vitest';
import { API_ERRORS, BACK_OFFICE_ERRORS, PROVIDER_REFUSED, RECEIPT_FIELDS, SHOPPER_ERRORS, WEBHOOK_ERRORS } from './contract';

const codes = (table: object) => Object.keys(table);

describe('the error contract', () => {
  it('has stable snake_case codes, each with a 4xx or 5xx status', () => {
    for (const table of [SHOPPER_ERRORS, BACK_OFFICE_ERRORS, WEBHOOK_ERRORS]) {
      for (const [code, status] of Object.entries(table)) {
        expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
        expect(status >= 400 && status < 600, code).toBe(true);
      }
    }
  });

  it('keeps back-office codes apart from the ones a shopper can get', () => {
    expect(codes(BACK_OFFICE_ERRORS).filter((code) => code in SHOPPER_ERRORS)).toEqual([]);
    expect(codes(API_ERRORS).sort()).toEqual([...codes(SHOPPER_ERRORS), ...codes(BACK_OFFICE_ERRORS)].sort());
    expect(PROVIDER_REFUSED in API_ERRORS).toBe(false);
  });

  it("answers the provider's webhooks with their own codes, and a 503 where a shopper gets a 502", () => {
    expect(codes(WEBHOOK_ERRORS).filter((code) => code in API_ERRORS)).toEqual(['provider_unavailable', 'store_unavailable']);
    expect(WEBHOOK_ERRORS.store_unavailable).toBe(API_ERRORS.store_unavailable);
    expect(WEBHOOK_ERRORS.provider_unavailable).toBe(503);
    expect(API_ERRORS.provider_unavailable).toBe(502);
  });

  it('names the receipt fields of a Completed checkout', () => {
    expect([...RECEIPT_FIELDS]).toEqual(['paidAt', 'receiptVoucher', 'payerBank']);
  });
});
