/**
 * The table of `npm run bench`: the rows (built in ./rows.ts) with baselines, ratios and goals, and under each row
 * whose goal is not met, its floor and the best figure reached; the comparison with the previous run; the histogram
 * page. The baseline's tables (bench/results/baseline.md and the README's) are this one (./baseline.ts).
 */
import type { Summary } from './lib/stats';
import { summarize } from './lib/stats';
import { KB, kb, ms, type Row } from './rows';

export type { Row } from './rows';

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
  /** The baseline's only: the best figure each row has reached up to this run (./baseline.ts carries it on). */
  best?: Record<string, Best>;
}

export const show = (row: Row) =>
  row.value === null
    ? '—'
    : row.unit === 'B'
      ? row.value >= KB * KB
        ? `${(row.value / (KB * KB)).toFixed(1)} MB`
        : kb(row.value)
      : row.unit === 'ms'
        ? ms(row.value)
        : `${Math.round(row.value).toLocaleString('en')}${row.unit}`;
/**
 * Always the project's figure divided by its baseline's, with the way that is better: "3.0× the baseline (lower is
 * better)" for a time, "0.12× the baseline (higher is better)" for a rate. One wording for every row.
 */
export const ratio = (row: Row) => {
  if (row.value === null || !row.baselineValue || !Number.isFinite(row.value)) return '—';
  const x = row.value / row.baselineValue;
  return `${x.toFixed(x < 10 ? 2 : 0)}× the baseline (${row.better} is better)`;
};

/** The best figure of a row among results (a lower time, a higher rate), and the run it comes from. */
export interface Best {
  value: number;
  from: string;
}

/** For each row id, the best figure among `runs` and `reached` (figures of earlier runs): what "best reached" under an unmet row says. */
export function bestFigures(runs: { name: string; results: Results }[], reached: ReadonlyMap<string, Best> = new Map()): Map<string, Best> {
  const best = new Map(reached);
  for (const { name, results } of runs) {
    for (const row of results.rows) {
      if (row.value === null || !Number.isFinite(row.value)) continue;
      const known = best.get(row.id);
      if (!known || (row.better === 'lower' ? row.value < known.value : row.value > known.value))
        best.set(row.id, { value: row.value, from: name });
    }
  }
  return best;
}

/** The line under a row whose goal is not met: the floor measured beside it, and the best figure reached so far. */
function unmetLine(row: Row, best: Map<string, Best>): string {
  const floor = row.floor ? `floor: ${row.floor.what}, ${show({ ...row, value: row.floor.value })}` : 'no floor measured for this row';
  const reached = best.get(row.id);
  const bestText = reached ? `best reached: ${show({ ...row, value: reached.value })} (${reached.from})` : 'best reached: —';
  return `| ↳ not met. ${floor}; ${bestText} | | | | | |`;
}

/** The table as Markdown, each unmet row followed by its floor and best; `best` defaults to this run's own figures. */
export function printTable(results: Results, best = bestFigures([{ name: 'this run', results }])): string {
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
    if (row.met === false) lines.push(unmetLine(row, best));
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
${histogram(
  "Sandbox trigger → the merchant's backend gets checkout.completed (signed webhook), and the shopper's stream of the same trigger",
  [
    { name: "merchant's receiver", color: '#be123c', samples: s.merchant ?? [] },
    { name: "shopper's stream (SSE)", color: '#5b21b6', samples: s.merchantStatus ?? [] },
  ],
)}
${histogram('Polling fallback', [{ name: 'polling', color: '#b45309', samples: s.polling ?? [] }])}
${histogram('Element connected → QR drawn, cold load', [{ name: 'QR drawn', color: '#2563eb', samples: s.qr ?? [] }])}
</html>
`;
}
