import { describe, expect, it } from 'vitest';
import { ManualClock } from '../lib/clock';
import { payerRetention } from './payer-retention';

/** A store holding `checkouts` old payers and `cashOuts` old recipients, erasing at most `limit` of each per call. */
function fakeStore(checkouts: number, cashOuts: number) {
  const calls: { before: string; limit: number }[] = [];
  return {
    calls,
    async erasePayersBefore(before: string, limit: number) {
      calls.push({ before, limit });
      const erased = { checkouts: Math.min(limit, checkouts), cashOuts: Math.min(limit, cashOuts) };
      checkouts -= erased.checkouts;
      cashOuts -= erased.cashOuts;
      return erased;
    },
  };
}

describe('payerRetention', () => {
  it('erases in batches until nothing older than the retention is left', async () => {
    const store = fakeStore(5, 2);
    const clock = new ManualClock(new Date('2031-01-10T00:00:00.000Z'));
    const retention = payerRetention({ store, clock, retentionDays: 10, batch: 2, log: { log: () => {}, error: () => {} } });
    expect(await retention.runOnce()).toEqual({ checkouts: 5, cashOuts: 2 });
    // 2 + 2 + 1: the third batch was short in both tables, so the pass stopped.
    expect(store.calls).toHaveLength(3);
    expect(store.calls[0]).toEqual({ before: '2030-12-31T00:00:00.000Z', limit: 2 });
    expect(await retention.runOnce()).toEqual({ checkouts: 0, cashOuts: 0 });
  });
});
