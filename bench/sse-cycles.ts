/**
 * Opens and drops SSE streams of one checkout many times, then reports open subscriptions and memory.
 * Run with `npm run bench` (node --expose-gc, so the heap figures are after a full collection).
 */
import { openSse } from '../test/server/helpers/sse';
import { startTestServer } from '../test/server/helpers/server';

const CYCLES = Number(process.env.CYCLES ?? 10_000);
const PARALLEL = 100;

const exposedGc = (globalThis as { gc?: () => void }).gc;
const gc = exposedGc ?? (() => undefined);
const heapMb = () => {
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
};

export async function sseCycles() {
  const server = await startTestServer();
  try {
    const { orderId } = await server.order();
    const checkout = (await server.json('POST', '/api/checkouts', { orderId, method: 'pix' })).body as { id: string };
    const url = `${server.url}/api/checkouts/${checkout.id}/events`;
    const cycle = async () => {
      const sse = await openSse(url);
      await sse.next();
      await sse.next();
      sse.close();
    };
    // Warm up so lazy allocations (JIT, pools) are not counted as growth.
    for (let i = 0; i < 500; i += PARALLEL) await Promise.all(Array.from({ length: PARALLEL }, cycle));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = heapMb();
    const started = performance.now();
    for (let i = 0; i < CYCLES; i += PARALLEL) await Promise.all(Array.from({ length: PARALLEL }, cycle));
    const seconds = (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = heapMb();
    return { gcExposed: exposedGc !== undefined, cycles: CYCLES, seconds, openSubscriptions: server.hub.subscriberCount(), heapBeforeMb: before, heapAfterMb: after };
  } finally {
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await sseCycles();
  console.log(
    `sse: ${r.cycles} connect/disconnect cycles in ${r.seconds.toFixed(1)} s (${(r.cycles / r.seconds).toFixed(0)}/s); ` +
      `open subscriptions after: ${r.openSubscriptions}; heap ${r.heapBeforeMb.toFixed(1)} MB → ${r.heapAfterMb.toFixed(1)} MB`,
  );
}
