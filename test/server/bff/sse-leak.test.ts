import { describe, expect, it } from 'vitest';
import { sseCycles } from '../../../bench/sse-cycles';

/**
 * Only what load can't change: subscriptions left, and whether the heap grows with the number of streams. How much
 * memory the process holds in absolute terms, and how fast the cycles run, are figures for `npm run bench`.
 */
describe('SSE streams', () => {
  it('leave nothing behind after 10,000 connect/disconnect cycles', { timeout: 180_000 }, async () => {
    const result = await sseCycles({ cycles: 10_000, mark: 1_000 });
    expect(result.gcExposed).toBe(true);
    expect(result.openSubscriptions).toBe(0);

    // A stream that is never released keeps about what an open one does (measured in the same run: ~30 KB, client
    // and server side). If the cycles leaked, the heap after 10,000 would exceed the heap after 1,000 by 9,000 times
    // that; pools and JIT settle in the first thousand, so without a leak the difference is noise of a few MB.
    // The bound fails a leak of a tenth of a stream per cycle.
    const leakedIfEveryCycleLeaked = (result.cycles - result.mark) * result.bytesPerOpenStream;
    expect(result.bytesPerOpenStream).toBeGreaterThan(1024);
    const growth = (result.heapAfterMb - result.heapAtMarkMb) * 1024 * 1024;
    expect(growth).toBeLessThan(leakedIfEveryCycleLeaked / 10);
  });
});
