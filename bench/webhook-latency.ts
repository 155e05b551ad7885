/**
 * Time from the sandbox `complete` call to the Completed event arriving on an open SSE stream: the whole path
 * emulator → webhook → BFF re-read → store → hub → stream. Also times checkout creation, and, as the baseline of
 * both measured in the same run on the same server, a plain read of the checkout (GET /api/checkouts/:id).
 */
import { openSse } from '../test/server/helpers/sse';
import { startTestServer } from '../test/server/helpers/server';

const RUNS = Number(process.env.RUNS ?? 200);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

export async function webhookLatency() {
  const server = await startTestServer({ env: { CHECKOUT_RATE_PER_MINUTE: '0' } });
  const create: number[] = [];
  const push: number[] = [];
  const read: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const { orderId, orderToken } = await server.order();
      let t = performance.now();
      const checkout = (await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' })).body as {
        id: string;
        transactionId: string;
      };
      create.push(performance.now() - t);
      t = performance.now();
      await server.json('GET', `/api/checkouts/${checkout.id}`);
      read.push(performance.now() - t);
      const sse = await openSse(`${server.url}/api/checkouts/${checkout.id}/events`);
      await sse.next();
      await sse.next();
      t = performance.now();
      const arrived = sse.next();
      await server.provider.sandbox.pix.complete(checkout.transactionId, { name: 'Bench', taxNumber: '52998224725' });
      await arrived;
      push.push(performance.now() - t);
      sse.close();
    }
  } finally {
    await server.close();
  }
  const summary = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1)! };
  };
  return { runs: RUNS, create: summary(create), push: summary(push), read: summary(read) };
}

type Summary = { p50: number; p99: number; max: number };
const fmt = (s: Summary) => `p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(1)} ms`;

/** One line per figure, each next to the plain read of the same run. */
export function describeLatency(r: Awaited<ReturnType<typeof webhookLatency>>): string[] {
  const baseline = `(baseline, a plain GET of the checkout: ${fmt(r.read)})`;
  return [
    `checkout creation (${r.runs} runs): ${fmt(r.create)} ${baseline}`,
    `sandbox complete → Completed on the stream (${r.runs} runs): ${fmt(r.push)} ${baseline}`,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await webhookLatency();
  console.log(describeLatency(r).join('\n'));
}
