/** The table of `npm run bench`: rows with baselines, ratios and goals; the comparison; the histogram page. */
import type { bundleRows } from './bundle-rows';
import type { Summary } from './lib/stats';
import { summarize } from './lib/stats';
import type { browserRows } from './browser-rows';
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

export interface Results {
  date: string;
  commit: string;
  machine: { cpus: number; model: string; memoryGb: number; node: string; platform: string };
  seconds: number;
  streams: number;
  rows: Row[];
  samples: Record<string, number[]> | undefined;
  summaries: Record<string, Summary> | undefined;
  raw: unknown;
}

interface Inputs {
  bundle: ReturnType<typeof bundleRows>;
  server: Awaited<ReturnType<typeof serverRows>> | undefined;
  browser: Awaited<ReturnType<typeof browserRows>> | undefined;
}

const KB = 1024;
const ms = (x: number) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;
const kb = (x: number) => `${(x / KB).toFixed(1)} KB`;

export function buildRows({ bundle, server, browser }: Inputs): Row[] {
  const rows: Row[] = [];
  const add = (row: Row) => rows.push(row);
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
    what: 'dist/widget/pix-checkout.js, gzip -9',
    value: bundle.gzip,
    unit: 'B',
    better: 'lower',
    baseline: `brotli ${kb(bundle.brotli)}, raw ${kb(bundle.raw)}`,
    baselineValue: null,
    goal: '≤ 18 KB gzip',
    met: bundle.gzip <= 18 * KB,
  });
  if (server) {
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

const show = (row: Row) =>
  row.value === null ? '—' : row.unit === 'B' ? kb(row.value) : row.unit === 'ms' ? ms(row.value) : `${row.value.toFixed(0)}${row.unit}`;
const ratio = (row: Row) =>
  row.value === null || !row.baselineValue
    ? '—'
    : row.better === 'lower'
      ? `${(row.value / row.baselineValue).toFixed(2)}×`
      : row.baselineValue >= row.value
        ? `${(row.baselineValue / row.value).toFixed(2)}× slower`
        : `${(row.value / row.baselineValue).toFixed(2)}× faster`;

export function printTable(results: Results): string {
  const m = results.machine;
  const lines = [
    `pix-checkout bench, ${results.date} (${results.commit}), ${m.cpus} × ${m.model}, ${m.memoryGb} GB, Node ${m.node}`,
    '',
    '| What | Project | Baseline in the same run | Ratio | Goal | Met |',
    '|---|---|---|---|---|---|',
  ];
  for (const row of results.rows) {
    lines.push(
      `| ${row.what} | ${show(row)} | ${row.baseline} | ${ratio(row)} | ${row.goal} | ${row.met === null ? '—' : row.met ? 'yes' : 'NO'} |`,
    );
  }
  return lines.join('\n');
}

/** Rows more than 20% worse than in `previous`, each with what its baseline did meanwhile (a loaded machine moves both). */
export function compareRows(previous: Results, current: Results): string[] {
  const worse: string[] = [];
  for (const row of current.rows) {
    const before = previous.rows.find((r) => r.id === row.id);
    // A row a partial run skipped (NaN) is not worse, and neither is one the previous run could not measure.
    if (!before || before.value === null || row.value === null || !Number.isFinite(before.value) || !Number.isFinite(row.value)) continue;
    if (before.value === 0) continue;
    const change = row.better === 'lower' ? row.value / before.value : before.value / row.value;
    if (change <= 1.2) continue;
    const baseline =
      before.baselineValue && row.baselineValue
        ? `; its baseline went ${show({ ...row, value: before.baselineValue })} → ${show({ ...row, value: row.baselineValue })}`
        : '';
    worse.push(`${row.id}: ${show(before)} → ${show(row)} (${((change - 1) * 100).toFixed(0)}% worse${baseline})`);
  }
  return worse;
}

function histogram(title: string, series: { name: string; color: string; samples: number[] }[]): string {
  const all = series.flatMap((s) => s.samples);
  if (all.length === 0) return '';
  const sorted = [...all].sort((a, b) => a - b);
  const top = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.995))]! * 1.05;
  const bins = 40;
  const width = 720;
  const height = 160;
  const bar = width / bins;
  const counts = series.map((s) => {
    const c = new Array<number>(bins).fill(0);
    for (const x of s.samples) c[Math.min(bins - 1, Math.floor((x / top) * bins))]!++;
    return c;
  });
  const peak = Math.max(1, ...counts.flat());
  const rects = counts
    .flatMap((c, k) =>
      c.map((n, i) => {
        const h = (n / peak) * height;
        const w = bar / series.length;
        return `<rect x="${(i * bar + k * w).toFixed(1)}" y="${(height - h).toFixed(1)}" width="${(w - 0.5).toFixed(1)}" height="${h.toFixed(1)}" fill="${series[k]!.color}"><title>${series[k]!.name}: ${n} between ${((i * top) / bins).toFixed(1)} and ${(((i + 1) * top) / bins).toFixed(1)} ms</title></rect>`;
      }),
    )
    .join('');
  const legend = series
    .map((s) => {
      const sum = summarize(s.samples);
      return `<span style="color:${s.color}">■ ${s.name}: n ${sum.n}, p50 ${ms(sum.p50)}, p99 ${ms(sum.p99)}</span>`;
    })
    .join(' &nbsp; ');
  return `<h2>${title}</h2><p>${legend}</p><svg width="${width}" height="${height + 20}" role="img" aria-label="${title}">${rects}<text x="0" y="${height + 15}" font-size="11">0 ms</text><text x="${width - 60}" y="${height + 15}" font-size="11">${top.toFixed(0)} ms</text></svg>`;
}

export function histogramPage(results: Results): string {
  const s = results.samples ?? {};
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>pix-checkout bench ${results.date}</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem;max-width:60rem}svg{background:#fafafa;border:1px solid #ddd}pre{background:#f4f4f4;padding:1rem;overflow:auto}</style>
<h1>pix-checkout bench</h1><pre>${escape(printTable(results))}</pre>
${histogram("Sandbox trigger → Completed in the page: project (SSE), floor (bare node:http) and the floor with the contract's hops", [
  { name: 'project (SSE)', color: '#5b21b6', samples: s.sse ?? [] },
  { name: 'floor (node:http)', color: '#0d9488', samples: s.floor ?? [] },
  { name: "floor with the contract's hops", color: '#9ca3af', samples: s.hops ?? [] },
])}
${histogram('Polling fallback', [{ name: 'polling', color: '#b45309', samples: s.polling ?? [] }])}
${histogram('Element connected → QR drawn, cold load', [{ name: 'QR drawn', color: '#2563eb', samples: s.qr ?? [] }])}
</html>
`;
}
