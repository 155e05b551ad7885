/**
 * `npm run bench`: every row of issues 13 and 27, each next to its baseline measured in the same run, on 127.0.0.1
 * only. Prints the table (with ratios and goals, and under each unmet row its floor and the best figure reached),
 * flags any row more than 20% worse than the committed baseline (bench/results/baseline.json), writes
 * bench/runs/<date>.json and .html (latency histograms of the project, the floor and polling; ignored by git), and
 * makes the run the baseline: baseline.json and its tables, bench/results/baseline.md and the README's (./baseline.ts).
 *
 * Knobs (environment): BENCH_STREAMS (10000), BENCH_REPS (3), BENCH_BROWSER_RUNS (100), BENCH_POLLING_RUNS (6),
 * BENCH_COLD_RUNS (30), BENCH_CREATE_SECONDS (3), BENCH_MERCHANT_RUNS (100), BENCH_MERCHANT_EVENTS (200),
 * BENCH_MERCHANT_BACKLOG (100000: merchant events drained while status is timed, ./merchant-backlog.ts),
 * BENCH_CONSOLE_SIZES (10000,100000,1000000: the merchant histories of the console rows, ./console-rows.ts, on
 * SQLite and, with TEST_DATABASE_URL or DATABASE_URL, PostgreSQL; seeding a million takes about half a minute per
 * database on an idle machine, and its export as long again), BENCH_CONSOLE_EXPORT_UP_TO (every size: the longest history
 * whose export is measured),
 * BENCH_SHARE_CHECKOUTS (1000), BENCH_SHARE_EXPIRED (10): the share rows (./share-rows.ts),
 * BENCH_PHONE_RUNS (9: cold loads per page and profile of navigation → QR, ./phone-rows.ts),
 * BENCH_ONLY=server|browser|streams|console|share|phone|plans (`plans`: the plan of every statement of one walk
 * through the product, ./plan-rows.ts; `streams`: only fan-out, 100 completions and memory). A partial run prints its table and writes no results file. Not part of `npm test`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { browserRows } from './browser-rows';
import { bundleRows, ensureBuilt } from './bundle-rows';
import { gcExposed, summarize } from './lib/stats';
import { consoleRows, consoleTable } from './console-rows';
import { phoneRows, phoneTable } from './phone-rows';
import { planRows, planTable, printPlans } from './plan-rows';
import { BASELINE, BASELINE_TABLE, carryBest, readResults, RUNS, writeBaseline } from './baseline';
import { compareRows, histogramPage, printTable, type Results } from './report';
import { buildRows } from './rows';
import { serverRows } from './server-rows';
import { shareRows } from './share-rows';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const knob = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const log = (line: string) => console.error(line);

/** The baseline as committed (`git show HEAD:…`), or the file on disk outside a git checkout; undefined when none. */
function committedBaseline(): Results | undefined {
  try {
    return JSON.parse(execFileSync('git', ['show', `HEAD:${BASELINE}`], { encoding: 'utf8', cwd: here('..'), stdio: 'pipe' })) as Results;
  } catch {
    return existsSync(here(`../${BASELINE}`)) ? readResults(BASELINE) : undefined;
  }
}

const only = process.env.BENCH_ONLY;
const streams = knob('BENCH_STREAMS', 10_000);
const started = Date.now();
if (!gcExposed()) log('bench: run with --expose-gc (npm run bench does) for memory figures without garbage');

// The console rows alone need no element.
const noElement = only === 'console' || only === 'share' || only === 'plans';
if (!noElement) ensureBuilt(log);
const bundle = noElement ? undefined : bundleRows();
const server =
  only === 'browser' || only === 'console' || only === 'share' || only === 'phone' || only === 'plans'
    ? undefined
    : await serverRows({
        streams,
        completions: 100,
        reps: knob('BENCH_REPS', 3),
        createSeconds: knob('BENCH_CREATE_SECONDS', 3),
        create: only !== 'streams',
        merchant:
          only === 'streams'
            ? undefined
            : {
                runs: knob('BENCH_MERCHANT_RUNS', 100),
                events: knob('BENCH_MERCHANT_EVENTS', 200),
                backlog: knob('BENCH_MERCHANT_BACKLOG', 100_000),
              },
        log,
      });
const browser =
  only === 'server' || only === 'streams' || only === 'console' || only === 'share' || only === 'phone' || only === 'plans'
    ? undefined
    : await browserRows({
        runs: knob('BENCH_BROWSER_RUNS', 100),
        pollingRuns: knob('BENCH_POLLING_RUNS', 6),
        coldRuns: knob('BENCH_COLD_RUNS', 30),
        log,
      });

const phone = !only || only === 'phone' ? await phoneRows({ runs: knob('BENCH_PHONE_RUNS', 9), log }) : undefined;

const consoleSizes = (process.env.BENCH_CONSOLE_SIZES ?? '10000,100000,1000000').split(',').map(Number);
if (!consoleSizes.every((n) => Number.isSafeInteger(n) && n > 0))
  throw new Error('BENCH_CONSOLE_SIZES: a comma-separated list of positive integers');
const consoleFigures =
  only && only !== 'console'
    ? undefined
    : await consoleRows({ sizes: consoleSizes, exportUpTo: knob('BENCH_CONSOLE_EXPORT_UP_TO', Infinity), log });

const share =
  only && only !== 'share'
    ? undefined
    : await shareRows({ checkouts: knob('BENCH_SHARE_CHECKOUTS', 1_000), expired: knob('BENCH_SHARE_EXPIRED', 10), log });

const plans = only && only !== 'plans' ? undefined : await planRows({ log });

const commit = (() => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
})();
const results: Results = {
  date: new Date().toISOString(),
  commit,
  machine: {
    cpus: cpus().length,
    model: cpus()[0]?.model ?? '?',
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: process.platform,
  },
  seconds: (Date.now() - started) / 1000,
  streams,
  rows: [
    ...(bundle ? buildRows({ bundle, server, browser }) : []),
    ...(phone ? phoneTable(phone) : []),
    ...(consoleFigures ? consoleTable(consoleFigures) : []),
    ...(share?.rows ?? []),
    ...(plans ? planTable(plans) : []),
  ],
  samples: {
    ...(browser && {
      alone: browser.alone,
      sse: browser.sse,
      floor: browser.floor,
      hops: browser.hops,
      polling: browser.polling,
      qr: browser.qr,
    }),
    ...(server?.merchant && { merchant: server.merchant.latency.samples.merchant, merchantStatus: server.merchant.latency.samples.status }),
  },
  summaries: browser
    ? {
        alone: summarize(browser.alone),
        sse: summarize(browser.sse),
        floor: summarize(browser.floor),
        hops: summarize(browser.hops),
        polling: summarize(browser.polling),
        qr: summarize(browser.qr),
      }
    : undefined,
  raw: { bundle, server, wire: browser?.wire, console: consoleFigures, share: share?.figures, phone, plans },
};

// The committed baseline is the reference (a run of this clone not yet committed is not); under each unmet row is
// the best figure it carries, or this run's.
const baseline = committedBaseline();
const stamp = results.date.replace(/[:]/g, '-').replace(/\..+/, '');
const candidate = carryBest(results, stamp, baseline);
if (plans) console.log(`${printPlans(plans)}\n`);
console.log(printTable(results, new Map(Object.entries(candidate.best ?? {}))));
if (baseline) {
  const worse = compareRows(baseline, results);
  const of = `the baseline (${baseline.date}, commit ${baseline.commit})`;
  console.log(
    worse.length
      ? `\nMore than 20% worse than ${of}:\n${worse.map((w) => `  ${w}`).join('\n')}`
      : `\nNo row more than 20% worse than ${of}.`,
  );
} else console.log(`\nNo committed ${BASELINE} to compare with yet.`);

// A partial run must never become the baseline a later full run is compared with.
if (only) {
  console.log(`\nBENCH_ONLY=${only}: no results file written.`);
  process.exit(0);
}
// A run's results and histograms go to bench/runs/ (ignored): bench/results/ holds the baseline alone. A full run is
// the new baseline, with its tables: commit them together (the server tests check they agree).
const dir = here(`../${RUNS}`);
mkdirSync(dir, { recursive: true });
writeFileSync(`${dir}/${stamp}.json`, `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(`${dir}/${stamp}.html`, histogramPage(results));
writeBaseline(candidate);
console.log(
  `\nWrote ${RUNS}/${stamp}.json and .html in ${results.seconds.toFixed(0)} s, and made this run the baseline ` +
    `(${BASELINE}, ${BASELINE_TABLE} and the README's performance table).`,
);
