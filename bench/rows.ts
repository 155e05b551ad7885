/** The rows of `npm run bench`: what each one measures, the baseline measured beside it in the same run, and its goal. */
import type { browserRows } from './browser-rows';
import type { bundleRows } from './bundle-rows';
import { summarize } from './lib/stats';
import type { serverRows } from './server-rows';

export interface Row {
  id: string;
  what: string;
  value: number | null;
  unit: string;
  /** Which way is better. */
  better: 'lower' | 'higher';
  baseline: string;
  baselineValue: number | null;
  goal: string;
  met: boolean | null;
}

export const KB = 1024;
export const ms = (x: number) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;
export const kb = (x: number) => `${(x / KB).toFixed(1)} KB`;

interface Inputs {
  bundle: ReturnType<typeof bundleRows>;
  server: Awaited<ReturnType<typeof serverRows>> | undefined;
  browser: Awaited<ReturnType<typeof browserRows>> | undefined;
}

/** The merchant webhook rows (./merchant-rows.ts): trigger → the merchant's receipt, and a backlog drained. */
function merchantRows(merchant: NonNullable<NonNullable<Inputs['server']>['merchant']>): Row[] {
  const { merchant: receipt, status } = merchant.latency;
  const { drain } = merchant;
  return [
    {
      id: 'merchant-p50',
      what: `The merchant's backend gets checkout.completed after the sandbox trigger (signed webhook, bare node:http receiver), p50`,
      value: receipt.p50,
      unit: 'ms',
      better: 'lower',
      baseline: `the shopper's stream, same triggers, p50 ${ms(status.p50)}`,
      baselineValue: status.p50,
      goal: '—',
      met: null,
    },
    {
      id: 'merchant-p99',
      what: 'Same, p99',
      value: receipt.p99,
      unit: 'ms',
      better: 'lower',
      baseline: `the shopper's stream p99 ${ms(status.p99)}`,
      baselineValue: status.p99,
      goal: '—',
      met: null,
    },
    {
      id: 'merchant-drain',
      what: `Merchant webhooks delivered per second: ${drain.events} paid orders' events queued, then drained to a fast receiver`,
      value: drain.project,
      unit: '/s',
      better: 'higher',
      baseline: `node:http POST loop (16 at a time) ${drain.floor.toFixed(0)}/s`,
      baselineValue: drain.floor,
      goal: '—',
      met: null,
    },
  ];
}

export function buildRows({ bundle, server, browser }: Inputs): Row[] {
  const rows: Row[] = [];
  const add = (row: Row) => rows.push(row);
  // Beside the shoppers' status rows when the browser ran; first of the server rows otherwise.
  let merchant = server?.merchant ? merchantRows(server.merchant) : [];
  const addMerchant = () => {
    rows.push(...merchant);
    merchant = [];
  };
  if (browser) {
    const sse = summarize(browser.sse);
    const floor = summarize(browser.floor);
    const hops = summarize(browser.hops);
    const polling = summarize(browser.polling);
    const qr = summarize(browser.qr);
    add({
      id: 'status-p50',
      what: 'Browser sees Completed after the sandbox trigger (Chromium, element over SSE), p50',
      value: sse.p50,
      unit: 'ms',
      better: 'lower',
      baseline: `node:http floor p50 ${ms(floor.p50)}`,
      baselineValue: floor.p50,
      goal: '≤ 1.5× the floor',
      met: sse.p50 <= 1.5 * floor.p50,
    });
    add({
      id: 'status-p50-hops',
      what: "Same path, bare node:http with the contract's hops (trigger → webhook → re-read → stream), p50",
      value: hops.p50,
      unit: 'ms',
      better: 'lower',
      baseline: `node:http floor p50 ${ms(floor.p50)}`,
      baselineValue: floor.p50,
      goal: `— (the status goal: ${ms(1.5 * floor.p50)})`,
      met: null,
    });
    add({
      id: 'status-p99',
      what: 'Same, p99',
      value: sse.p99,
      unit: 'ms',
      better: 'lower',
      baseline: `floor p99 ${ms(floor.p99)}`,
      baselineValue: floor.p99,
      goal: '≤ 25 ms',
      met: sse.p99 <= 25,
    });
    addMerchant();
    add({
      id: 'polling-p50',
      what: 'Polling fallback (EventSource removed), p50',
      value: polling.p50,
      unit: 'ms',
      better: 'lower',
      baseline: `SSE p50 ${ms(sse.p50)}`,
      baselineValue: sse.p50,
      goal: '— (SSE first)',
      met: null,
    });
    add({
      id: 'qr-p50',
      what: 'Element connected → QR drawn, cold load, p50',
      value: qr.p50,
      unit: 'ms',
      better: 'lower',
      baseline: '—',
      baselineValue: null,
      goal: '≤ 80 ms',
      met: qr.p50 <= 80,
    });
    add({
      id: 'wire-cold',
      what: '/widget/pix-checkout.js on the wire, cold',
      value: browser.wire.cold,
      unit: 'B',
      better: 'lower',
      baseline: `raw ${kb(bundle.raw)}, served ${browser.wire.coldEncoding}`,
      baselineValue: bundle.raw,
      goal: '≤ 20 KB',
      met: browser.wire.cold <= 20 * KB,
    });
    add({
      id: 'wire-warm',
      what: '/widget/pix-checkout.js on the wire, warm (second load, same browser)',
      value: browser.wire.warm,
      unit: 'B',
      better: 'lower',
      baseline: '—',
      baselineValue: null,
      goal: '0 bytes',
      met: browser.wire.warm === 0,
    });
  }
  add({
    id: 'bundle-gzip',
    what: 'The code that draws the first QR in pt-BR (dist/widget/pix-checkout.js), gzip -9',
    value: bundle.gzip,
    unit: 'B',
    better: 'lower',
    baseline: `the whole build (entry and ${bundle.whole.chunks} chunks) ${kb(bundle.whole.gzip)} gzip`,
    baselineValue: bundle.whole.gzip,
    goal: '≤ 18 KB gzip',
    met: bundle.gzip <= 18 * KB,
  });
  if (server) {
    addMerchant();
    const n = server.streams.toLocaleString('en');
    add({
      id: 'fanout-one',
      what: `One change to ${n} open streams of one checkout, last delivery (median of runs)`,
      value: server.fanout.project,
      unit: 'ms',
      better: 'lower',
      baseline: `node:http ${ms(server.fanout.floor)}`,
      baselineValue: server.fanout.floor,
      goal: '≤ 1.5× node:http',
      met: server.fanout.project <= 1.5 * server.fanout.floor,
    });
    add({
      id: 'fanout-many',
      what: `${server.completions} completions at once, ${n} streams on ${server.completions} checkouts, last delivery`,
      value: server.many.project,
      unit: 'ms',
      better: 'lower',
      baseline: `node:http ${ms(server.many.floor)}`,
      baselineValue: server.many.floor,
      goal: '≤ 300 ms',
      met: server.many.project <= 300,
    });
    add({
      id: 'fanout-many-hops',
      what: "Same, bare node:http with the contract's hops (100 triggers, webhooks and re-reads)",
      value: server.many.hops,
      unit: 'ms',
      better: 'lower',
      baseline: `node:http ${ms(server.many.floor)}`,
      baselineValue: server.many.floor,
      goal: '— (the goal: 300 ms)',
      met: null,
    });
    add({
      id: 'memory',
      what: `Memory per open stream at ${n} (server heap + external)`,
      value: server.memory.project,
      unit: 'B',
      better: 'lower',
      baseline: `node:http ${kb(server.memory.floor)}, Hono streamSSE ${kb(server.memory.hono)}`,
      baselineValue: server.memory.floor,
      goal: '≤ 14 KB',
      met: server.memory.project <= 14 * KB,
    });
    add({
      id: 'create-emulator',
      what: 'Checkouts created per second through the embedded emulator (10 connections)',
      value: server.create.project,
      unit: '/s',
      better: 'higher',
      baseline: `minimal Hono JSON ${server.create.hono.toFixed(0)}/s`,
      baselineValue: server.create.hono,
      goal: '≥ 1,000/s',
      met: server.create.project >= 1_000,
    });
    add({
      id: 'create-bff',
      what: 'Same, BFF alone with a stub provider over HTTP',
      value: server.create.bffAlone,
      unit: '/s',
      better: 'higher',
      baseline: `minimal Hono JSON ${server.create.hono.toFixed(0)}/s`,
      baselineValue: server.create.hono,
      goal: '≥ 2,000/s',
      met: server.create.bffAlone >= 2_000,
    });
    add({
      id: 'create-hops',
      what: "Same, bare node:http with the contract's one provider call (a stand-in provider, no store)",
      value: server.create.hops,
      unit: '/s',
      better: 'higher',
      baseline: `minimal Hono JSON ${server.create.hono.toFixed(0)}/s`,
      baselineValue: server.create.hono,
      goal: '— (the goals: 1,000/s and 2,000/s)',
      met: null,
    });
  }
  return rows;
}
