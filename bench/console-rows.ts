/**
 * The console rows of `npm run bench`: the back office's payments list (`GET /checkouts`, server/backoffice/
 * checkouts.ts) and its CSV export (`GET /checkouts/export.csv`) with a real merchant's history, on SQLite always and
 * on PostgreSQL when TEST_DATABASE_URL or DATABASE_URL is set. For each size (BENCH_CONSOLE_SIZES) a fresh store is
 * seeded straight into its tables (./lib/console-seed.ts, ./lib/console-stores.ts), then, through the routes
 * themselves:
 * - the list's first page and a deep page (its cursor past 90% of the filter's rows) for each filter, median time
 *   (in process, no socket);
 * - the export of every checkout, served by a server process of its own over a socket (./lib/console-export.ts):
 *   rows per second, and the peak growth of that server process's RSS while it streams (flat memory: the same for a
 *   million rows as for a thousand).
 * - at the largest size only: the shopper's status p50 alone, while the heaviest list runs and while the export
 *   streams (./lib/console-status.ts), and a restarted server's first answer with schema step 14 pending beside one
 *   with nothing pending (./lib/console-restart.ts); their rows in ./lib/console-stall-rows.ts.
 * Baselines, measured in the same run: the same filters and pages on an empty store (what a request costs with
 * nothing to read: the list should answer in the same order of time whatever the history's length), shown with the
 * same on a store of 1,000 checkouts; the export of the 1,000 checkouts.
 */
import { Hono } from 'hono';
import { encodeCursor } from '../server/backoffice/checkout-filter';
import { viewsWithRefunds } from '../server/backoffice/checkout-view';
import { checkoutRoutes } from '../server/backoffice/routes/checkouts';
import { checkoutExportRoutes } from '../server/backoffice/routes/checkouts-export';
import type { ProviderClient } from '../server/provider';
import type { Checkout } from '../server/store/types';
import { SEED_DAYS, SEED_NOW, SEED_START, seedOrderId } from './lib/console-seed';
import { measureRestart, type RestartFigures } from './lib/console-restart';
import { stallRows } from './lib/console-stall-rows';
import { measureExport, type ExportFigures } from './lib/console-export';
import { measureStatusUnderLoad, type StatusFigures } from './lib/console-status';
import { benchStore, type BenchDatabase } from './lib/console-stores';
import { median } from './lib/stats';
import { ms, type Row } from './rows';

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const clock = { now: () => new Date(SEED_NOW) };
/** The list's page size as the console asks it (20), plus the one row that tells whether a next page exists. */
const PAGE = 20;

/** One filter of the list: its query string and the period its rows span (for the deep page's cursor). */
interface ListCase {
  name: string;
  query: Record<string, string>;
  from: number;
  to: number;
}

/** The filters measured: each of the list's, a rare and a common state, several states, and one combination. */
function listCases(n: number): ListCase[] {
  const all = { from: SEED_START, to: SEED_NOW };
  const week = { from: SEED_NOW - 100 * DAY, to: SEED_NOW - 93 * DAY };
  const month = { from: SEED_NOW - 30 * DAY, to: SEED_NOW };
  return [
    { name: 'no filter', query: {}, ...all },
    { name: 'state=Completed', query: { state: 'Completed' }, ...all },
    { name: 'state=Reversed', query: { state: 'Reversed' }, ...all },
    { name: 'state=Error,Cancelled,Reversed', query: { state: 'Error,Cancelled,Reversed' }, ...all },
    { name: 'method=openfinance', query: { method: 'openfinance' }, ...all },
    { name: 'from/to (a week)', query: { from: iso(week.from), to: iso(week.to) }, ...week },
    { name: 'orderId', query: { orderId: seedOrderId(Math.floor(n / 2)) }, ...all },
    { name: 'flag=duplicate', query: { flag: 'duplicate' }, ...all },
    { name: 'flag=late', query: { flag: 'late' }, ...all },
    { name: 'flag=flagged', query: { flag: 'flagged' }, ...all },
    { name: 'Completed, openfinance, last 30 days', query: { state: 'Completed', method: 'openfinance', from: iso(month.from) }, ...month },
  ];
}

/** Median milliseconds of `run`, after one warm-up: at least 5 runs, up to 40 or about `budgetMs`. */
async function timed(run: () => Promise<void>, budgetMs = 300): Promise<number> {
  await run();
  const samples: number[] = [];
  const started = performance.now();
  while (samples.length < 5 || (samples.length < 40 && performance.now() - started < budgetMs)) {
    const t = performance.now();
    await run();
    samples.push(performance.now() - t);
  }
  return median(samples);
}

async function get(app: Hono, path: string) {
  const response = await app.request(path);
  if (response.status !== 200) throw new Error(`bench: ${path} answered ${response.status}: ${await response.text()}`);
  return response;
}

/** The list's first and deep page of each filter, in milliseconds. */
async function measureList(app: Hono, n: number) {
  const figures: Record<string, { first: number; deep: number; slowerPath: string }> = {};
  for (const c of listCases(n)) {
    // Past 90% of the filter's rows: they are spread evenly over its period, newest first.
    const cursor = encodeCursor({ createdAt: iso(c.from + 0.1 * (c.to - c.from)), id: '~' } as Checkout);
    const first = `/checkouts?${new URLSearchParams({ ...c.query, limit: String(PAGE) })}`;
    const deep = `/checkouts?${new URLSearchParams({ ...c.query, limit: String(PAGE), cursor })}`;
    const firstMs = await timed(async () => void (await (await get(app, first)).json()));
    const deepMs = await timed(async () => void (await (await get(app, deep)).json()));
    figures[c.name] = { first: firstMs, deep: deepMs, slowerPath: deepMs > firstMs ? deep : first };
  }
  return figures;
}

export interface StoreFigures {
  size: number;
  seedSeconds: number;
  list: Record<string, { first: number; deep: number; slowerPath: string }>;
  export: ExportFigures | undefined;
  /** The status path alone, under the heaviest list and under the export (the largest size only). */
  status?: (StatusFigures & { list: string }) | undefined;
  /** A restarted server's first answer with nothing pending and with step 14 pending (the largest size only). */
  restart?: RestartFigures | undefined;
}

export interface DatabaseFigures {
  database: BenchDatabase;
  /** Which variable named PostgreSQL's server. */
  source: string | undefined;
  empty: StoreFigures;
  baseline: StoreFigures;
  sizes: StoreFigures[];
}

/** Seeds a store of `n` checkouts, measures its list (and, with rows, its export), and throws it away. */
async function measureStore(
  database: BenchDatabase,
  n: number,
  url: string | undefined,
  exportUpTo: number,
  log: (line: string) => void,
  withStatus = false,
) {
  const bench = await benchStore(database, n, url);
  try {
    log(`console: ${database} store of ${n.toLocaleString('en')} checkouts seeded in ${bench.seedSeconds.toFixed(1)} s`);
    const { store } = bench;
    // The export's route first, as the back office mounts it: `/checkouts/:id` would take `export.csv` for an id.
    const app = new Hono()
      .route('/', checkoutExportRoutes({ store, clock, withRefunds: viewsWithRefunds(store) }))
      .route('/', checkoutRoutes({ provider: undefined as unknown as ProviderClient, store, clock }));
    const list = await measureList(app, n);
    const figures: StoreFigures = {
      size: n,
      seedSeconds: bench.seedSeconds,
      list,
      export: n > 0 && n <= exportUpTo ? await measureExport(bench) : undefined,
    };
    if (withStatus && figures.export) {
      // The heaviest list: the filter and page slowest in this store.
      const [name, heaviest] = Object.entries(list).sort(([, a], [, b]) => slowerPage(b) - slowerPage(a))[0]!;
      figures.status = { ...(await measureStatusUnderLoad(store, app, heaviest.slowerPath)), list: name };
      const s = figures.status;
      log(
        `console: ${database} ${n.toLocaleString('en')}: status p50 ${s.idle.toFixed(2)} ms alone (${s.reads.idle} reads), ` +
          `${s.duringList.toFixed(2)} ms during ${s.lists} lists "${name}" (${s.reads.duringList}), ` +
          `${s.duringExport.toFixed(2)} ms during the export of ${s.exportRows} rows (${s.reads.duringExport})`,
      );
    }
    if (withStatus) {
      // Last: it drops and rebuilds step 14's indexes, which this process's store no longer knows of.
      figures.restart = await measureRestart(bench);
      const r = figures.restart;
      log(
        `console: ${database} ${n.toLocaleString('en')}: restart → first answer ${r.nothingPending.toFixed(0)} ms with nothing pending, ` +
          `${r.stepPending.toFixed(0)} ms with step 14 pending (built and recorded ${r.builtAfter.toFixed(1)} s after the start)`,
      );
    }
    const pages = Object.entries(list).map(([name, { first, deep }]) => `${name} ${first.toFixed(2)}/${deep.toFixed(2)}`);
    log(`console: ${database} ${n.toLocaleString('en')}: list first/deep ms: ${pages.join('; ')}`);
    if (figures.export) {
      const e = figures.export;
      log(
        `console: ${database} ${n.toLocaleString('en')}: export ${e.rows} rows in ${e.seconds.toFixed(1)} s ` +
          `(${e.perSecond.toFixed(0)}/s), the server process's RSS +${(e.rssGrowth / MB).toFixed(1)} MB at its peak ` +
          `(its main thread's heap +${(e.heapGrowth / MB).toFixed(1)} MB, buffers +${(e.externalGrowth / MB).toFixed(1)} MB)`,
      );
    }
    return figures;
  } finally {
    await bench.close();
  }
}

export interface ConsoleRowsOptions {
  /** History lengths measured (BENCH_CONSOLE_SIZES). */
  sizes: number[];
  /** The export is measured on the histories up to this length (BENCH_CONSOLE_EXPORT_UP_TO; all by default). */
  exportUpTo?: number;
  log: (line: string) => void;
}

/** The figures of every database and size; PostgreSQL's only with TEST_DATABASE_URL or DATABASE_URL. */
export async function consoleRows({ sizes, exportUpTo = Infinity, log }: ConsoleRowsOptions): Promise<DatabaseFigures[]> {
  const source = process.env.TEST_DATABASE_URL ? 'TEST_DATABASE_URL' : process.env.DATABASE_URL ? 'DATABASE_URL' : undefined;
  const url = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  if (!url) log('console: PostgreSQL rows skipped (set TEST_DATABASE_URL or DATABASE_URL)');
  log(`console: histories of ${sizes.map((n) => n.toLocaleString('en')).join(', ')} checkouts over ${SEED_DAYS} days`);
  const databases: DatabaseFigures[] = [];
  for (const database of url ? (['SQLite', 'PostgreSQL'] as const) : (['SQLite'] as const)) {
    const empty = await measureStore(database, 0, url, exportUpTo, log);
    const baseline = await measureStore(database, 1_000, url, exportUpTo, log);
    const measured: StoreFigures[] = [];
    for (const n of sizes) measured.push(await measureStore(database, n, url, exportUpTo, log, n === sizes.at(-1)));
    databases.push({ database, source: database === 'PostgreSQL' ? source : undefined, empty, baseline, sizes: measured });
  }
  return databases;
}

const MB = 2 ** 20;
const slowerPage = (page: { first: number; deep: number }) => Math.max(page.first, page.deep);
/** Issue 27's floor for the whole export, in rows per second. */
const EXPORT_RATE = 50_000;
/** "The same order of time": what a page may cost next to the same request on an empty store. */
const ORDER = 10;

/**
 * The rows of the console figures, for each database: per size, the list's filter and page furthest from the same
 * request on an empty store (the baseline: what a request costs with nothing to read), and the export's rate and
 * memory beside the export of 1,000 checkouts; at the largest size, a row per filter.
 */
export function consoleTable(databases: DatabaseFigures[]): Row[] {
  const rows: Row[] = [];
  for (const { database, source, empty, baseline, sizes } of databases) {
    const where = source ? `${database} (${source})` : database;
    const slug = database.toLowerCase();
    const listRow = (id: string, what: string, name: string, value: number): Row => {
      const base = slowerPage(empty.list[name]!);
      return {
        id,
        what,
        value,
        unit: 'ms',
        better: 'lower',
        baseline: `empty store ${ms(base)} (1,000 checkouts ${ms(slowerPage(baseline.list[name]!))})`,
        baselineValue: base,
        goal: `same order: ≤ ${ORDER}× the empty store`,
        met: value <= ORDER * base,
      };
    };
    for (const figures of sizes) {
      const n = figures.size.toLocaleString('en');
      const [name, page] = Object.entries(figures.list).sort(
        ([a, pa], [b, pb]) => slowerPage(pb) / slowerPage(empty.list[b]!) - slowerPage(pa) / slowerPage(empty.list[a]!),
      )[0]!;
      const what = `Console payments list, ${where}, ${n} checkouts: the filter and page furthest from the empty store's (${name})`;
      rows.push(listRow(`console-list-${slug}-${figures.size}`, what, name, slowerPage(page)));
      if (!figures.export || !baseline.export) continue;
      const e = figures.export;
      rows.push({
        id: `console-export-rate-${slug}-${figures.size}`,
        what: `Console CSV export of all ${n} checkouts, ${where}, from a server process over a socket: rows per second (${e.seconds.toFixed(1)} s)`,
        value: e.perSecond,
        unit: '/s',
        better: 'higher',
        baseline: `1,000 checkouts ${baseline.export.perSecond.toFixed(0)}/s`,
        baselineValue: baseline.export.perSecond,
        goal: `≥ ${EXPORT_RATE.toLocaleString('en')}/s, and ≥ 0.5× with 1,000 (no slower per row as the file grows)`,
        met: e.perSecond >= EXPORT_RATE && e.perSecond >= 0.5 * baseline.export.perSecond,
      });
      rows.push({
        id: `console-export-rss-${slug}-${figures.size}`,
        what:
          `Same export: peak growth of the server process's RSS while it streams, after a warm-up export of up to 10,000 rows ` +
          `(the client in the bench's process; ` +
          `the server's main-thread heap +${(e.heapGrowth / MB).toFixed(1)} MB of it)`,
        value: e.rssGrowth,
        unit: 'B',
        better: 'lower',
        // No ratio: a growth this small is mostly the allocator's noise.
        baseline: `1,000 checkouts +${(baseline.export.rssGrowth / MB).toFixed(1)} MB`,
        baselineValue: null,
        goal: 'flat: ≤ 32 MB more than with 1,000',
        met: e.rssGrowth <= baseline.export.rssGrowth + 32 * MB,
      });
    }
    const largest = sizes.at(-1);
    if (!largest) continue;
    rows.push(...stallRows(largest, where, slug));
    for (const [name, page] of Object.entries(largest.list)) {
      const n = largest.size.toLocaleString('en');
      const what = `Console list, ${where}, ${n} checkouts, ${name}: first page ${ms(page.first)}, deep page ${ms(page.deep)} (the slower)`;
      rows.push(listRow(`console-filter-${slug}-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`, what, name, slowerPage(page)));
    }
  }
  return rows;
}
