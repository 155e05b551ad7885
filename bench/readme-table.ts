/**
 * The README's "## Performance" table, rendered from a results file of `npm run bench`, between two markers, so that
 * the table always says what a committed run measured. `npm run bench` rewrites it from the file it has just written;
 * `npm run bench:readme` rewrites it from the newest committed results file; a server test
 * (test/server/bench-readme.test.ts) fails when the README's table is not the one rendered from the newest committed
 * file.
 *
 * "Best reached", under a row whose goal is not met, is the best figure among the committed results files up to the
 * rendered one.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bestFigures, printTable, type Results } from './report';

export const START = '<!-- bench-table:start (written by npm run bench; npm run bench:readme renders it again) -->';
export const END = '<!-- bench-table:end -->';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The committed results files (`bench/results/*.json`, oldest first), or those on disk outside a git checkout. */
export function committedResults(): string[] {
  try {
    return execFileSync('git', ['ls-files', 'bench/results/*.json'], { encoding: 'utf8', cwd: root }).split('\n').filter(Boolean).sort();
  } catch {
    return readdirSync(`${root}bench/results`)
      .filter((f) => f.endsWith('.json'))
      .map((f) => `bench/results/${f}`)
      .sort();
  }
}

const read = (file: string) => JSON.parse(readFileSync(`${root}${file}`, 'utf8')) as Results;

/** The README's section for `file` (a path from the repository's root), with the best of `history` up to it. */
export function renderSection(file: string, history: readonly string[]): string {
  const results = read(file);
  const upTo = [...new Set([...history, file])].filter((name) => name <= file).sort();
  const best = bestFigures(upTo.map((name) => ({ name: name.replace(/^bench\/results\//, ''), results: read(name) })));
  const m = results.machine;
  const minutes = results.seconds / 60;
  return [
    START,
    '<!-- prettier-ignore-start -->',
    `Latest full run: \`${file}\`, commit ${results.commit}, ${results.date}. It took ${results.seconds.toFixed(0)} s ` +
      `(${minutes.toFixed(1)} min) on ${m.cpus} × ${m.model}, ${m.memoryGb} GB, Node ${m.node}, ${m.platform}.`,
    '',
    ...printTable(results, best).split('\n').slice(2),
    '<!-- prettier-ignore-end -->',
    END,
  ].join('\n');
}

/** The README's current section (markers included), or undefined when it has none. */
export function readmeSection(readme: string): string | undefined {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  return start < 0 || end < start ? undefined : readme.slice(start, end + END.length);
}

/** Rewrites the README's section from `file`; throws when the README has no markers. */
export function writeReadmeTable(file: string, history = committedResults()) {
  const path = `${root}README.md`;
  const readme = readFileSync(path, 'utf8');
  const current = readmeSection(readme);
  if (current === undefined) throw new Error(`README.md has no ${START} … ${END} section`);
  writeFileSync(
    path,
    readme.replace(current, () => renderSection(file, history)),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2] ?? committedResults().at(-1);
  if (!file) throw new Error('bench:readme: no committed bench/results/*.json');
  writeReadmeTable(file);
  console.log(`README.md: the performance table of ${file}`);
}
