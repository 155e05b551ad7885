/**
 * Opens and drops SSE streams of one checkout many times, then reports open subscriptions and memory.
 * Run with `npm run bench` (node --expose-gc, so the heap figures are after full collections).
 *
 * Every memory figure comes with a baseline from the same run: the heap after warm-up, the heap after `mark`
 * cycles, and the cost of one stream held open (HELD streams open at once, minus the heap without them). The last
 * one is what a stream that is never released would keep, so it turns "the heap grew by N MB" into "as much as
 * N / cost leaked streams", which does not depend on how fast or loaded the machine is.
 */
import { openSse } from '../test/server/helpers/sse';
import { startTestServer } from '../test/server/helpers/server';

const CYCLES = Number(process.env.CYCLES ?? 10_000);
const PARALLEL = 100;
const WARM_UP = 500;
/** Streams held open at once to price one stream. */
const HELD = 200;

const MB = 1024 * 1024;
const exposedGc = (globalThis as { gc?: () => void }).gc;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Heap in use after full collections, the lowest of three readings: sockets and streams that are still closing are
 * garbage a moment later, a leak is not.
 */
async function settledHeap(): Promise<number> {
  let lowest = Infinity;
  for (let reading = 0; reading < 3; reading++) {
    await sleep(100);
    for (let pass = 0; pass < 2; pass++) {
      exposedGc?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    lowest = Math.min(lowest, process.memoryUsage().heapUsed);
  }
  return lowest;
}

export interface SseCyclesResult {
  gcExposed: boolean;
  cycles: number;
  seconds: number;
  /** Hub subscriptions left once every stream is closed. */
  openSubscriptions: number;
  /** Heap after warm-up: the baseline of the figures below. */
  heapBeforeMb: number;
  /** Cycles after which `heapAtMarkMb` was read. */
  mark: number;
  heapAtMarkMb: number;
  heapAfterMb: number;
  /** Heap cost of one open stream, client and server side, from HELD streams open at once. */
  bytesPerOpenStream: number;
}

export async function sseCycles({ cycles = CYCLES, mark = Math.min(1_000, cycles) } = {}): Promise<SseCyclesResult> {
  const server = await startTestServer();
  // What the server itself holds before any stream (the merchant-webhook worker listens to every change).
  const ownSubscriptions = server.hub.subscriberCount();
  try {
    const { orderId, orderToken } = await server.order();
    const checkout = (await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' })).body as { id: string };
    const url = `${server.url}/api/checkouts/${checkout.id}/events`;
    const open = async () => {
      const sse = await openSse(url);
      // The current state, then the retry hint: the stream is subscribed and idle.
      await sse.next();
      await sse.next();
      return sse;
    };
    const cycle = async () => (await open()).close();
    const run = async (count: number) => {
      for (let i = 0; i < count; i += PARALLEL) await Promise.all(Array.from({ length: Math.min(PARALLEL, count - i) }, cycle));
    };
    const settle = async () => {
      for (let waited = 0; server.hub.subscriberCount() > ownSubscriptions && waited < 5_000; waited += 50) await sleep(50);
      return settledHeap();
    };

    // Warm up so lazy allocations (JIT, pools) are not counted as growth.
    await run(WARM_UP);
    const before = await settle();

    const held = await Promise.all(Array.from({ length: HELD }, open));
    const withHeld = await settledHeap();
    for (const sse of held) sse.close();
    held.length = 0;
    await settle();

    const started = performance.now();
    await run(mark);
    const atMark = await settle();
    await run(cycles - mark);
    const seconds = (performance.now() - started) / 1000;
    const after = await settle();

    return {
      gcExposed: exposedGc !== undefined,
      cycles,
      seconds,
      openSubscriptions: server.hub.subscriberCount() - ownSubscriptions,
      heapBeforeMb: before / MB,
      mark,
      heapAtMarkMb: atMark / MB,
      heapAfterMb: after / MB,
      bytesPerOpenStream: (withHeld - before) / HELD,
    };
  } finally {
    await server.close();
  }
}

/** One line: time, subscriptions left, and the heap at each point next to the cost of a stream. */
export function describeSseCycles(r: SseCyclesResult): string {
  const kb = r.bytesPerOpenStream / 1024;
  const growthMb = r.heapAfterMb - r.heapAtMarkMb;
  const asStreams = (growthMb * MB) / r.bytesPerOpenStream;
  return (
    `sse: ${r.cycles} connect/disconnect cycles in ${r.seconds.toFixed(1)} s (${(r.cycles / r.seconds).toFixed(0)}/s); ` +
    `open subscriptions after: ${r.openSubscriptions}; heap after warm-up ${r.heapBeforeMb.toFixed(1)} MB, ` +
    `after ${r.mark} cycles ${r.heapAtMarkMb.toFixed(1)} MB, after ${r.cycles} ${r.heapAfterMb.toFixed(1)} MB; ` +
    `one open stream ${kb.toFixed(1)} KB, so the growth from ${r.mark} to ${r.cycles} cycles ` +
    `(${growthMb.toFixed(1)} MB) weighs as much as ${Math.max(0, asStreams).toFixed(0)} open streams` +
    (r.gcExposed ? '' : ' (no --expose-gc: heap figures include garbage)')
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(describeSseCycles(await sseCycles()));
}
