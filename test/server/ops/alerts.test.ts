/**
 * The files a merchant loads into Prometheus and Grafana (ops/): the alert rules pass `promtool check rules` and
 * their own unit tests (`promtool test rules`, where each alert fires and is seen not firing), the dashboard has the
 * structure Grafana's schema asks for, and every metric an alert or a panel names is one GET /metrics exposes
 * (server/metrics/families.ts, or one of Node's default metrics). promtool comes with Debian's prometheus package
 * (.ci/run installs it); without it these tests fail rather than pass unchecked.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_LOOP_LAG_P99, METRIC_FAMILIES } from '../../../server/metrics/families';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const RULES = 'ops/prometheus/alerts.yml';
const RULE_TESTS = 'ops/prometheus/alerts.test.yml';
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** promtool's answer (stdout and stderr), throwing with it when promtool fails or is not installed. */
function promtool(...args: string[]): string {
  try {
    return execFileSync('promtool', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const { code, stdout, stderr } = error as NodeJS.ErrnoException & { stdout?: string; stderr?: string };
    if (code === 'ENOENT') throw new Error('promtool is not installed (apt-get install prometheus)', { cause: error });
    throw new Error(`promtool ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`, { cause: error });
  }
}

/**
 * The values of `key:` in a YAML file written as alerts.yml is: inline, or a `|` block of the lines indented under
 * it. (No YAML parser is among the dependencies; promtool has parsed the file for real above.)
 */
function valuesOf(text: string, key: string): string[] {
  const lines = text.split('\n');
  const values: string[] = [];
  lines.forEach((line, i) => {
    const match = new RegExp(`^(\\s*)(?:- )?${key}: (.*)$`).exec(line);
    if (!match) return;
    const [, indent, inline] = match;
    if (inline !== '|') return void values.push(inline!.trim());
    const block = lines.slice(i + 1);
    const end = block.findIndex((l) => l.trim() !== '' && l.search(/\S/) <= indent!.length);
    values.push((end < 0 ? block : block.slice(0, end)).join('\n').trim());
  });
  return values;
}

const PROMQL_WORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);

/** The metric names a PromQL expression selects: what is left once strings, matchers, ranges and label lists go. */
function metricNamesIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\boffset\s+\S+/g, ' ');
  const names = [...bare.matchAll(/(?<![\w.$:])([A-Za-z_:][\w:]*)(?![\w:]|\s*\()/g)].map((m) => m[1]!);
  return [...new Set(names.filter((name) => !PROMQL_WORDS.has(name)))];
}

/** The histograms among the families (issue 37 names these three as histograms): a query takes their series. */
const HISTOGRAMS: readonly string[] = [
  METRIC_FAMILIES.httpRequestDuration,
  METRIC_FAMILIES.providerRequestDuration,
  METRIC_FAMILIES.dbQueryDuration,
];
const seriesOf = (name: string, type: string) =>
  type === 'histogram' ? ['_bucket', '_sum', '_count'].map((suffix) => name + suffix) : [name];

/** Every series name GET /metrics may show: the families and what prom-client's default metrics register. */
async function exposedNames(): Promise<Set<string>> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const defaults = (await registry.getMetricsAsJSON()).flatMap((metric) => seriesOf(metric.name, String(metric.type)));
  registry.clear();
  const families = Object.values(METRIC_FAMILIES).flatMap((name) =>
    seriesOf(name, HISTOGRAMS.includes(name) ? 'histogram' : 'counter or gauge'),
  );
  return new Set([...families, ...defaults]);
}

interface Target {
  refId?: string;
  expr?: string;
  datasource?: { type?: string; uid?: string };
}
interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { h: number; w: number; x: number; y: number };
  datasource?: { type?: string; uid?: string };
  targets?: Target[];
  panels?: Panel[];
}
interface Variable {
  name: string;
  type: string;
  query: string | { query: string };
}

const dashboard = JSON.parse(read('ops/grafana/pix-checkout.json')) as {
  uid: string;
  title: string;
  schemaVersion: number;
  panels: Panel[];
  templating: { list: Variable[] };
};
const panels = dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]);
const queryPanels = panels.filter((panel) => panel.type !== 'row');
/** The variables' queries; `label_values(<selector>, <label>)` is Grafana's, over the series `<selector>` selects. */
const variableQueries = dashboard.templating.list
  .filter((v) => v.type === 'query')
  .map((v) => (typeof v.query === 'string' ? v.query : v.query.query).replace(/^label_values\((.+),\s*\w+\)$/, '$1'));
/** The panels' and variables' queries with Grafana's variables given plain values, as Grafana sends them. */
const dashboardExprs = [...queryPanels.flatMap((panel) => (panel.targets ?? []).map((t) => t.expr ?? '')), ...variableQueries].map((expr) =>
  expr.replace(/\$__rate_interval|\$__interval/g, '5m').replace(/\$\{?\w+\}?/g, '.*'),
);

const rules = read(RULES);
const alertNames = valuesOf(rules, 'alert');
const alertExprs = valuesOf(rules, 'expr');

let known: Set<string>;
let scratch: string;
beforeAll(async () => {
  known = await exposedNames();
  scratch = mkdtempSync(join(tmpdir(), 'pix-alerts-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the alert rules (ops/prometheus/alerts.yml)', () => {
  it('pass promtool check rules, with every alert the issue asks for', () => {
    expect(promtool('check', 'rules', RULES)).toContain(`SUCCESS: ${alertNames.length} rules found`);
    expect(alertExprs).toHaveLength(alertNames.length);
    for (const family of [
      'merchantBacklogOldest',
      'providerRequestDuration',
      'checkoutsPastWindow',
      'reconcilerPasses',
      'httpRequestDuration',
    ] as const)
      expect(alertExprs.join('\n'), family).toContain(METRIC_FAMILIES[family]);
    expect(alertExprs.join('\n')).toContain(EVENT_LOOP_LAG_P99);
  });

  it('pass their unit tests (promtool test rules), where each alert fires once and is seen not firing', () => {
    expect(promtool('test', 'rules', RULE_TESTS)).toContain('SUCCESS');
    const cases = read(RULE_TESTS)
      .split(/^\s*- eval_time: /m)
      .slice(1)
      .map((text) => ({ alert: valuesOf(text, 'alertname')[0], firing: !/exp_alerts: \[\]/.test(text) }));
    for (const alert of alertNames) {
      expect(cases, `${alert} firing`).toContainEqual({ alert, firing: true });
      expect(cases, `${alert} not firing`).toContainEqual({ alert, firing: false });
    }
  });

  it('name only metrics GET /metrics exposes', () => {
    for (const expr of alertExprs)
      expect(
        metricNamesIn(expr).filter((name) => !known.has(name)),
        expr,
      ).toEqual([]);
  });

  it('each carry a severity, a summary, a description and a runbook link to a heading of docs/operations.md', () => {
    const headings = new Set(
      [...read('docs/operations.md').matchAll(/^#+ (.+)$/gm)].map((m) =>
        m[1]!
          .toLowerCase()
          .replace(/[^\w\- ]/g, '')
          .replace(/ /g, '-'),
      ),
    );
    const alerts = rules.split(/^\s*- alert: /m).slice(1);
    expect(alerts).toHaveLength(alertNames.length);
    for (const alert of alerts) {
      const [name] = alert.split('\n');
      expect(valuesOf(alert, 'severity'), name).toEqual([expect.stringMatching(/^(critical|warning)$/)]);
      expect(valuesOf(alert, 'summary'), name).toHaveLength(1);
      expect(valuesOf(alert, 'description'), name).toHaveLength(1);
      const [runbook] = valuesOf(alert, 'runbook_url');
      expect(runbook, name).toBe(`docs/operations.md#${name!.toLowerCase()}`);
      expect(headings.has(name!.toLowerCase()), `a heading "${name}" in docs/operations.md`).toBe(true);
    }
  });
});

describe('the dashboard (ops/grafana/pix-checkout.json)', () => {
  const PANEL_TYPES = ['row', 'timeseries', 'stat', 'gauge', 'bargauge', 'table', 'heatmap', 'text', 'piechart', 'state-timeline'];

  it('has a uid, a title and a schema version Grafana 10 and 11 read', () => {
    expect(dashboard.uid).toMatch(/^[\w-]{1,40}$/);
    expect(dashboard.title).not.toBe('');
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
  });

  it('lays out panels with unique ids and known types on the 24-column grid, none over another', () => {
    expect(new Set(panels.map((panel) => panel.id)).size).toBe(panels.length);
    const cells = new Set<string>();
    for (const { id, type, gridPos } of panels) {
      expect(PANEL_TYPES, `panel ${id}`).toContain(type);
      expect(Object.values(gridPos).every(Number.isInteger) && gridPos.w > 0 && gridPos.h > 0, `panel ${id}`).toBe(true);
      expect(gridPos.x + gridPos.w, `panel ${id}`).toBeLessThanOrEqual(24);
      for (let x = gridPos.x; x < gridPos.x + gridPos.w; x += 1)
        for (let y = gridPos.y; y < gridPos.y + gridPos.h; y += 1) {
          expect(cells.has(`${x},${y}`), `panel ${id} over another at ${x},${y}`).toBe(false);
          cells.add(`${x},${y}`);
        }
    }
  });

  it('queries the Prometheus chosen in its data source variable, in every panel and target', () => {
    const variable = dashboard.templating.list.find((v) => v.type === 'datasource');
    expect(variable).toMatchObject({ query: 'prometheus' });
    const chosen = { type: 'prometheus', uid: `\${${variable!.name}}` };
    expect(queryPanels.length).toBeGreaterThan(10);
    for (const panel of queryPanels) {
      expect(panel.datasource, panel.title).toEqual(chosen);
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets!)
        expect(target, panel.title).toMatchObject({ datasource: chosen, refId: expect.any(String), expr: expect.any(String) });
    }
  });

  it('has queries PromQL parses (promtool checks them as recording rules)', () => {
    const asRules = dashboardExprs.map((expr, i) => `      - record: dashboard:query_${i}\n        expr: ${JSON.stringify(expr)}\n`);
    const file = join(scratch, 'dashboard-queries.yml');
    writeFileSync(file, `groups:\n  - name: dashboard\n    rules:\n${asRules.join('')}`);
    expect(promtool('check', 'rules', file)).toContain(`SUCCESS: ${dashboardExprs.length} rules found`);
  });

  it('names only metrics GET /metrics exposes, and shows every family', () => {
    for (const expr of dashboardExprs)
      expect(
        metricNamesIn(expr).filter((name) => !known.has(name)),
        expr,
      ).toEqual([]);
    const shown = dashboardExprs.join('\n');
    for (const family of Object.values(METRIC_FAMILIES)) expect(shown, family).toContain(family);
  });
});

describe('metricNamesIn', () => {
  it('finds the selected metrics, not the functions, label names, label values, ranges or keywords', () => {
    expect(
      metricNamesIn(
        'histogram_quantile(0.95, sum by (le, route) (rate(a_bucket{route=~"/api/x"}[5m]))) > 0.5 and on (job) b offset 40m unless sum(c) without (instance)',
      ),
    ).toEqual(['a_bucket', 'b', 'c']);
  });
});
