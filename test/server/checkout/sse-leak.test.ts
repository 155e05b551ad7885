import { describe, expect, it } from 'vitest';
import { sseCycles } from '../../../bench/sse-cycles';

describe('SSE streams', () => {
  it('leave nothing behind after 10,000 connect/disconnect cycles', { timeout: 180_000 }, async () => {
    const result = await sseCycles();
    expect(result.gcExposed).toBe(true);
    expect(result.openSubscriptions).toBe(0);
    // Measured: ~5 MB of pool and JIT warm-up growth whether 10,000 or 30,000 cycles run, so it does not scale
    // with streams; a leak of even 2 KB per stream would add 20 MB here.
    expect(result.heapAfterMb - result.heapBeforeMb).toBeLessThan(15);
  });
});
