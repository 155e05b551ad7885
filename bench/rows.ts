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
  /**
   * The floor this row's goal is read against, measured in the same run (printed under the row when the goal is not
   * met, with the best figure any committed run reached).
   */
  floor?: { what: string; value: number } | undefined;
}

export const KB = 1024;
export const ms = (x: number) => `${x < 10 ? x.toFixed(1) : Math.round(x).toLocaleString('en')} ms`;
export const kb = (x: number) => `${(x / KB).toFixed(1)} KB`;

interface Inputs {
  bundle: ReturnType<typeof bundleRows>;
  server: Awaited<ReturnType<typeof serverRows>> | undefined;
  browser: Awaited<ReturnType<typeof browserRows>> | undefined;
}

/** The merchant webhook rows (./merchant-rows.ts): trigger → the merchant's receipt, events per second, a backlog. */
function merchantRows(merchant: NonNullable<NonNullable<Inputs['server']>['merchant']>): Row[] {
  const { merchant: receipt, status } = merchant.latency;
  const { drain, backlog } = merchant;
  const rows: Row[] = [
    {
      id: 'merchant-p50',
      what: `The merchant's backend gets checkout.completed after the sandbox trigger (signed webhook, bare node:http receiver), p50`,
      value: receipt.p50,
      unit: 'ms',
      better: 'lower',
      baseline: `the shopper's stream, same triggers, p50 ${ms(status.p50)}`,
      baselineValue: status.p50,
      goal: `≤ the shopper's p50 + 10 ms (${ms(status.p50 + 10)})`,
      met: receipt.p50 <= status.p50 + 10,
      floor: { what: "the shopper's stream of the same triggers, p50", value: status.p50 },
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
      what: `Merchant webhooks delivered per second: ${drain.events.toLocaleString('en')} paid orders' events queued, then drained to a fast receiver`,
      value: drain.project,
      unit: '/s',
      better: 'higher',
      baseline: `node:http POST loop (${drain.concurrency} at a time) ${Math.round(drain.floor).toLocaleString('en')}/s`,
      baselineValue: drain.floor,
      // A few hundred events mostly measure the worker's start; the rate goal is read on the backlog row below.
      goal: '— (≥ 2,000/s: the backlog row)',
      met: null,
    },
  ];
  if (backlog) {
    const n = backlog.events.toLocaleString('en');
    rows.push(
      {
        id: 'merchant-backlog',
        what: `A backlog of ${n} merchant events drained to a fast receiver, per second`,
        value: backlog.perSecond,
        unit: '/s',
        better: 'higher',
        baseline: `node:http POST loop ${Math.round(drain.floor).toLocaleString('en')}/s`,
        baselineValue: drain.floor,
        goal: '≥ 2,000/s',
        met: backlog.perSecond >= 2_000,
        floor: { what: 'the node:http POST loop of the same signed requests', value: drain.floor },
      },
      {
        id: 'merchant-backlog-status',
        what: `Status p50 (sandbox trigger → the shopper's stream) while the backlog of ${n} drains`,
        value: backlog.status.p50,
        unit: 'ms',
        better: 'lower',
        baseline: `the same, no backlog, p50 ${ms(backlog.idle.p50)}`,
        baselineValue: backlog.idle.p50,
        goal: `< 1.1× no backlog (${ms(1.1 * backlog.idle.p50)})`,
        met: backlog.status.p50 < 1.1 * backlog.idle.p50,
        floor: { what: 'status p50 with no backlog, same server', value: backlog.idle.p50 },
      },
    );
  }
  return rows;
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
    const alone = summarize(browser.alone);
    const sse = summarize(browser.sse);
    const floor = summarize(browser.floor);
    const hops = summarize(browser.hops);
    const polling = summarize(browser.polling);
    const qr = summarize(browser.qr);
    // The goal is read on the BFF alone: its provider is a stand-in as cheap as the hops floor's, so the two differ
    // only by what is ours. The demo's row adds the embedded emulator, which stands in for the provider's own work.
    add({
      id: 'status-alone-p50',
      what: "Browser sees Completed after the provider's trigger, the BFF alone, its provider a bare node:http stand-in as the hops floor's (Chromium, element over SSE), p50",
      value: alone.p50,
      unit: 'ms',
      better: 'lower',
      baseline: `the contract's hops floor p50 ${ms(hops.p50)} (bare node:http floor ${ms(floor.p50)}), each in its own process`,
      baselineValue: hops.p50,
      goal: `≤ 1.5× the hops floor (${ms(1.5 * hops.p50)})`,
      met: alone.p50 <= 1.5 * hops.p50,
      floor: { what: "the contract's hops floor p50", value: hops.p50 },
    });
    add({
      id: 'status-alone-p99',
      what: 'Same, p99',
      value: alone.p99,
      unit: 'ms',
      better: 'lower',
      baseline: `the hops floor p99 ${ms(hops.p99)} (bare floor ${ms(floor.p99)})`,
      baselineValue: hops.p99,
      goal: '≤ 25 ms',
      met: alone.p99 <= 25,
      floor: { what: "the contract's hops floor p99", value: hops.p99 },
    });
    add({
      id: 'status-p50',
      what: 'Browser sees Completed after the sandbox trigger, the demo: the same BFF on the embedded emulator (Chromium, element over SSE), p50',
      value: sse.p50,
      unit: 'ms',
      better: 'lower',
      baseline: `the contract's hops floor p50 ${ms(hops.p50)}; the BFF alone p50 ${ms(alone.p50)}`,
      baselineValue: hops.p50,
      goal: "— (holds the emulator's work, the provider's: the goal is read on the BFF alone)",
      met: null,
    });
    add({
      id: 'status-p99',
      what: 'Same, p99',
      value: sse.p99,
      unit: 'ms',
      better: 'lower',
      baseline: `the hops floor p99 ${ms(hops.p99)} (bare floor ${ms(floor.p99)})`,
      baselineValue: hops.p99,
      goal: '≤ 25 ms',
      met: sse.p99 <= 25,
      floor: { what: "the contract's hops floor p99", value: hops.p99 },
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
      what: '/widget/pix-checkout.js on the wire, cold (the entry; its chunks apart)',
      value: browser.wire.cold,
      unit: 'B',
      better: 'lower',
      baseline:
        `raw ${kb(bundle.raw)}, served ${browser.wire.coldEncoding}; the chunks the page fetched after it (after the QR, ` +
        `or on demand): ${kb(browser.wire.coldChunks ?? 0)}`,
      baselineValue: bundle.raw,
      goal: '≤ 20 KB',
      met: browser.wire.cold <= 20 * KB,
    });
    add({
      id: 'wire-warm',
      what: '/widget/pix-checkout.js and its chunks on the wire, warm (second load, same browser)',
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
      floor: { what: 'bare node:http', value: server.fanout.floor },
    });
    add({
      id: 'fanout-many',
      what: `${server.completions} completions at once, ${n} streams on ${server.completions} checkouts, last delivery`,
      value: server.many.project,
      unit: 'ms',
      better: 'lower',
      baseline: `node:http with the contract's hops (${server.completions} triggers, webhooks, re-reads) ${ms(server.many.hops)}; bare node:http ${ms(server.many.floor)}`,
      baselineValue: server.many.hops,
      goal: '≤ 300 ms',
      met: server.many.project <= 300,
      floor: { what: "node:http with the contract's hops", value: server.many.hops },
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
      floor: { what: 'bare node:http', value: server.memory.floor },
    });
    const hopsCreate = `node:http with the contract's one provider call ${Math.round(server.create.hops).toLocaleString('en')}/s`;
    add({
      id: 'create-emulator',
      what: 'Checkouts created per second through the embedded emulator (10 connections)',
      value: server.create.project,
      unit: '/s',
      better: 'higher',
      baseline: `${hopsCreate}; minimal Hono JSON ${Math.round(server.create.hono).toLocaleString('en')}/s`,
      baselineValue: server.create.hops,
      goal: '≥ 1,000/s',
      met: server.create.project >= 1_000,
      floor: { what: "node:http with the contract's one provider call", value: server.create.hops },
    });
    add({
      id: 'create-bff',
      what: 'Same, BFF alone with a stub provider over HTTP',
      value: server.create.bffAlone,
      unit: '/s',
      better: 'higher',
      baseline: `${hopsCreate}; minimal Hono JSON ${Math.round(server.create.hono).toLocaleString('en')}/s`,
      baselineValue: server.create.hops,
      goal: '≥ 2,000/s',
      met: server.create.bffAlone >= 2_000,
      floor: { what: "node:http with the contract's one provider call", value: server.create.hops },
    });
  }
  return rows;
}
