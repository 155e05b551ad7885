/**
 * `bench/results/` holds the baseline and its table only: `baseline.json`, the results of the full run every later run
 * is compared with (with the best figure each row has reached up to it, carried from baseline to baseline), and
 * `baseline.md`, its table. The README's "## Performance" section is the same table between two markers. Each run's
 * own results and histogram page go to `bench/runs/`, which git ignores (run history lives in commit messages).
 *
 * `npm run bench` makes a full run the new baseline and writes both tables from it; `npm run bench:readme` writes
 * them again from the baseline; ./baseline.test.ts fails when either table is not the one rendered from the baseline,
 * or when anything else is in `bench/results/`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bestFigures, printTable, type Results } from './report';

export const START = '<!-- bench-table:start (written by npm run bench; npm run bench:readme renders it again) -->';
export const END = '<!-- bench-table:end -->';

/** The baseline's results and its table, from the repository's root: all `bench/results/` may hold. */
export const BASELINE = 'bench/results/baseline.json';
export const BASELINE_TABLE = 'bench/results/baseline.md';
export const RESULTS_FILES = ['baseline.json', 'baseline.md'];
/** Where each run writes its results and its histogram page (ignored by git). */
export const RUNS = 'bench/runs';

const root = fileURLToPath(new URL('..', import.meta.url));

export const readResults = (file: string) => JSON.parse(readFileSync(`${root}${file}`, 'utf8')) as Results;

/** The best figure of each of the run's rows: the best carried by `previous` (the baseline it replaces) or its own. */
export function carryBest(run: Results, name: string, previous: Results | undefined): Results {
  const carried = bestFigures([{ name, results: run }], new Map(Object.entries(previous?.best ?? {})));
  const best = Object.fromEntries(run.rows.filter((row) => carried.has(row.id)).map((row) => [row.id, carried.get(row.id)!]));
  return { ...run, best };
}

const bestOf = (results: Results) => new Map(Object.entries(results.best ?? {}));

/** The README's section for `results`, markers included. */
export function renderSection(results: Results): string {
  const m = results.machine;
  const minutes = results.seconds / 60;
  return [
    START,
    '<!-- prettier-ignore-start -->',
    `The baseline, \`${BASELINE}\` (its table: \`${BASELINE_TABLE}\`): the full run of ${results.date}, commit ` +
      `${results.commit}. It took ${results.seconds.toFixed(0)} s (${minutes.toFixed(1)} min) on ${m.cpus} × ${m.model}, ` +
      `${m.memoryGb} GB, Node ${m.node}, ${m.platform}.`,
    '',
    ...printTable(results, bestOf(results)).split('\n').slice(2),
    '<!-- prettier-ignore-end -->',
    END,
  ].join('\n');
}

/** `bench/results/baseline.md`: the baseline's table as the bench prints it. */
export const renderTable = (results: Results) =>
  `# The bench baseline\n\nWritten from \`baseline.json\` by \`npm run bench\` and \`npm run bench:readme\`.\n\n${printTable(results, bestOf(results))}\n`;

/** The README's current section (markers included), or undefined when it has none. */
export function readmeSection(readme: string): string | undefined {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  return start < 0 || end < start ? undefined : readme.slice(start, end + END.length);
}

/** Writes the baseline's table (`baseline.md`) and the README's section from `results`; throws when the README has no markers. */
export function writeTables(results: Results) {
  const path = `${root}README.md`;
  const readme = readFileSync(path, 'utf8');
  const current = readmeSection(readme);
  if (current === undefined) throw new Error(`README.md has no ${START} … ${END} section`);
  writeFileSync(
    path,
    readme.replace(current, () => renderSection(results)),
  );
  writeFileSync(`${root}${BASELINE_TABLE}`, renderTable(results));
}

/** Makes `results` the baseline: writes `baseline.json` and both tables. */
export function writeBaseline(results: Results) {
  writeFileSync(`${root}${BASELINE}`, `${JSON.stringify(results, null, 2)}\n`);
  writeTables(results);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeTables(readResults(BASELINE));
  console.log(`README.md and ${BASELINE_TABLE}: the table of ${BASELINE}`);
}
