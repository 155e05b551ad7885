/**
 * `npm run bench`: every benchmark, printing numbers (no thresholds; those belong to reviewers, not tests), each
 * next to a baseline measured in the same run, so a loaded machine shows as a slow baseline too.
 */
import { describeSseCycles, sseCycles } from './sse-cycles';
import { describeLatency, webhookLatency } from './webhook-latency';

for (const line of describeLatency(await webhookLatency())) console.log(line);

console.log(describeSseCycles(await sseCycles()));
