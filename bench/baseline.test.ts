/**
 * bench/results/ holds the baseline and its table only, and both tables (bench/results/baseline.md, the README's
 * "## Performance") are the ones rendered from the baseline (./baseline.ts): a run log left there, a baseline
 * committed without its tables, or a table edited by hand, fails here. And the table itself keeps the report's rules:
 * the Project column holds the project's figures, each ratio says which way is better, and a row whose goal is not
 * met is followed by its floor and the best figure reached.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BASELINE, BASELINE_TABLE, carryBest, readmeSection, readResults, renderSection, renderTable, RESULTS_FILES } from './baseline';
import { printTable, type Results } from './report';
import type { Row } from './rows';

const root = fileURLToPath(new URL('..', import.meta.url));

const row = (over: Partial<Row>): Row => ({
  id: 'status-p50',
  what: 'Status, p50',
  value: 6,
  unit: 'ms',
  better: 'lower',
  baseline: 'the hops floor 2.0 ms',
  baselineValue: 2,
  goal: '≤ 1.5× the hops floor',
  met: false,
  floor: { what: "the contract's hops floor p50", value: 2 },
  ...over,
});
const resultsOf = (rows: Row[]): Results => ({
  date: '2026-01-01T00:00:00.000Z',
  commit: 'abc1234',
  machine: { cpus: 2, model: 'test', memoryGb: 1, node: 'v20', platform: 'linux' },
  seconds: 1,
  streams: 1,
  rows,
  samples: undefined,
  summaries: undefined,
  raw: undefined,
});

describe('the bench baseline', () => {
  it('is all bench/results/ holds, with its table: no run log, no histogram page', () => {
    expect(readdirSync(`${root}bench/results`).sort()).toEqual([...RESULTS_FILES].sort());
  });

  it("has its table in baseline.md and in the README's performance section (npm run bench:readme writes both)", () => {
    const baseline = readResults(BASELINE);
    expect(readFileSync(`${root}${BASELINE_TABLE}`, 'utf8')).toBe(renderTable(baseline));
    expect(readmeSection(readFileSync(`${root}README.md`, 'utf8'))).toBe(renderSection(baseline));
  });

  it('carries on the best figure each row reached, naming the run it comes from', () => {
    const previous = carryBest(resultsOf([row({ value: 4 }), row({ id: 'create', better: 'higher', value: 500 })]), 'run-1', undefined);
    const next = carryBest(resultsOf([row({ value: 6 }), row({ id: 'create', better: 'higher', value: 600 })]), 'run-2', previous);
    expect(next.best).toEqual({ 'status-p50': { value: 4, from: 'run-1' }, create: { value: 600, from: 'run-2' } });
  });
});

describe('the bench table', () => {
  it('says which way is better in every ratio, the same way for times and rates', () => {
    const table = printTable(
      resultsOf([row({}), row({ id: 'create', unit: '/s', better: 'higher', value: 500, baselineValue: 4000, met: null })]),
    );
    expect(table).toContain('| 3.00× the baseline (lower is better) |');
    expect(table).toContain('| 0.13× the baseline (higher is better) |');
  });

  it('puts the floor and the best figure reached under a row whose goal is not met, and nothing under one met', () => {
    const table = printTable(resultsOf([row({}), row({ id: 'met', met: true, value: 2.5 })])).split('\n');
    const unmet = table.findIndex((line) => line.startsWith('| Status, p50 | 6.0 ms |'));
    expect(table[unmet + 1]).toBe("| ↳ not met. floor: the contract's hops floor p50, 2.0 ms; best reached: 6.0 ms (this run) | | | | | |");
    const met = table.findIndex((line) => line.startsWith('| Status, p50 | 2.5 ms |'));
    expect(table[met + 1]).toBeUndefined();
  });
});
