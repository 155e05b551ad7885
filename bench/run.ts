/** `npm run bench`: every benchmark, printing numbers (no thresholds; those belong to reviewers, not tests). */
import { sseCycles } from './sse-cycles';
import { webhookLatency } from './webhook-latency';

const fmt = (s: { p50: number; p99: number; max: number }) => `p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(1)} ms`;

const latency = await webhookLatency();
console.log(`checkout creation (${latency.runs} runs): ${fmt(latency.create)}`);
console.log(`sandbox complete → Completed on the stream (${latency.runs} runs): ${fmt(latency.push)}`);

const sse = await sseCycles();
console.log(
  `sse: ${sse.cycles} connect/disconnect cycles in ${sse.seconds.toFixed(1)} s; open subscriptions after: ${sse.openSubscriptions}; ` +
    `heap ${sse.heapBeforeMb.toFixed(1)} MB → ${sse.heapAfterMb.toFixed(1)} MB`,
);
