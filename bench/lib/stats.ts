/** Percentiles, summaries and the settled heap, shared by the rows. */

export const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

export interface Summary {
  n: number;
  p50: number;
  p99: number;
  max: number;
  min: number;
}

export function summarize(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
    min: sorted[0] ?? Number.NaN,
  };
}

export const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const exposedGc = (globalThis as { gc?: () => void }).gc;

/**
 * Heap and external memory (buffers) of this process after full collections, the lowest of three readings: what
 * the open streams hold, not garbage of their opening. Needs --expose-gc (npm run bench passes it).
 */
export async function settledMemory(): Promise<number> {
  let lowest = Infinity;
  for (let reading = 0; reading < 3; reading++) {
    await sleep(100);
    for (let pass = 0; pass < 2; pass++) {
      exposedGc?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const { heapUsed, external } = process.memoryUsage();
    lowest = Math.min(lowest, heapUsed + external);
  }
  return lowest;
}

export const gcExposed = () => exposedGc !== undefined;
