/**
 * Every SQL statement the product runs, caught as it runs, and the database's plan of each: what the plans test
 * (test/server/store/query-plans.test.ts) checks and `npm run bench` prints. Nothing of the product is changed: the
 * capture wraps better-sqlite3's `prepare` (each statement's run/get/all/iterate then records its SQL and arguments)
 * and pg's `Client#query`, in this process only, until `stop()`.
 *
 * A plan is "unbounded" when it can read a share of a large table that grows with the table:
 * - a scan of a large table, unless through an index and under a LIMIT (a keyset walk stops after its page);
 * - a sort of every row found by a state (or method) alone, when the states are not only the short-lived ones: the
 *   rows of `Completed` grow with the history, while those of `Created` or `Registered` last a payment window;
 * - SQLite's plan is EXPLAIN QUERY PLAN; PostgreSQL's is EXPLAIN (FORMAT JSON) with `enable_seqscan = off`, so a
 *   small test table cannot hide a missing index behind a cheap sequential scan.
 */
import type Database from 'better-sqlite3';
import type pg from 'pg';
import { POSTGRES_CASH_OUT_CLAIMS, POSTGRES_CLAIMS, SQLITE_CASH_OUT_CLAIMS, SQLITE_CLAIMS } from '../../server/store/reconcile';
import { CASH_OUTS_SENDING_INDEX } from '../../server/store/migrations-reconcile';

/**
 * Partial indexes whose rows last moments, whatever the history: walking one whole is bounded. `cashouts_sending`
 * holds the cash-outs whose provider call has not answered yet (PostgreSQL's planner walks it for an activation when
 * a test's table holds a few rows).
 */
const SHORT_LIVED = new Set([CASH_OUTS_SENDING_INDEX]);

/** The tables that grow with the merchant's history; the others (users, endpoints, cursors, migrations) stay small. */
export const LARGE_TABLES = [
  'checkouts',
  'checkout_events',
  'checkout_webhooks',
  'merchant_events',
  'webhook_deliveries',
  'webhook_attempts',
  'webhook_log',
  'webhook_nonces',
  'cashouts',
  'audit_log',
  'foreign_transactions',
  'admin_sessions',
] as const;

export interface CapturedQuery {
  database: 'sqlite' | 'postgres';
  sql: string;
  args: unknown[];
  /** How many times it ran during the capture. */
  runs: number;
}

export interface Plan {
  query: CapturedQuery;
  /** The plan, one line per node, indented by depth. */
  lines: string[];
  /** Why the plan reads an unbounded share of a large table; empty when it does not. */
  unbounded: string[];
}

/** Statements with a plan worth reading: not DDL, transactions, pragmas or LISTEN/NOTIFY. */
const PLANNED = /^\s*(SELECT|WITH|UPDATE|DELETE|INSERT)\b/i;
const normal = (sql: string) => sql.replace(/\s+/g, ' ').trim();

export interface Capture {
  queries: Map<string, CapturedQuery & { db?: Database.Database }>;
  stop(): void;
}

/** Catches what better-sqlite3 (the class given) and pg (the module given) run from now until `stop()`. */
export function captureQueries(sqlite: typeof Database, postgres: typeof pg): Capture {
  const queries: Capture['queries'] = new Map();
  const record = (database: CapturedQuery['database'], sql: string, args: unknown[], db?: Database.Database) => {
    if (!PLANNED.test(sql)) return;
    const key = `${database} ${normal(sql)}`;
    const known = queries.get(key);
    if (known) known.runs++;
    else queries.set(key, { database, sql, args, runs: 1, ...(db ? { db } : {}) });
  };

  // eslint-disable-next-line @typescript-eslint/unbound-method -- put back as it was by stop(), and called with its `this`
  const prepare = sqlite.prototype.prepare;
  sqlite.prototype.prepare = function (this: Database.Database, sql: string) {
    const statement = prepare.call(this, sql);
    for (const method of ['run', 'get', 'all', 'iterate'] as const) {
      // eslint-disable-next-line @typescript-eslint/unbound-method -- called with the statement as `this`, below
      const original = statement[method] as (...args: unknown[]) => unknown;
      (statement as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        record('sqlite', sql, args, this);
        return original.apply(statement, args);
      };
    }
    return statement;
  } as typeof prepare;

  // eslint-disable-next-line @typescript-eslint/unbound-method -- put back as it was by stop(), and called with its `this`
  const query = postgres.Client.prototype.query;
  postgres.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [first, values] = args;
    const text = typeof first === 'string' ? first : (first as { text?: unknown } | null)?.text;
    const bound = Array.isArray(values) ? values : ((first as { values?: unknown[] } | null)?.values ?? []);
    if (typeof text === 'string') record('postgres', text, bound);
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;

  return {
    queries,
    stop() {
      sqlite.prototype.prepare = prepare;
      postgres.Client.prototype.query = query;
    },
  };
}

/** A statement of the product's own SQLite file (`checkout.sqlite`), not of the emulator's or the demo shop's. */
export const isProducts = (query: CapturedQuery & { db?: Database.Database }) =>
  query.database === 'sqlite' && !!query.db?.name.endsWith('checkout.sqlite');

const large = new RegExp(`^(${LARGE_TABLES.join('|')})$`);

/** States whose rows are few whatever the history: a checkout, a cash-out or a delivery is in them for minutes. */
const TRANSIENT = ['Creating', 'Created', 'Registered', 'Sending', 'PendingApproval', 'pending'];
/** Columns with a handful of values: a search by them alone finds a share of the table, not a few rows. */
const COARSE = /^(state|method|status|kind|type)$/;

/**
 * True when the statement may select rows of a state that grows with the history: it names a state that is not
 * short-lived, or takes its states as parameters.
 */
function mayHoldLongLivedStates(sql: string): boolean {
  const named = [...sql.matchAll(/\bstate\s*(?:=|<>|IN\s*\()\s*([^)]*?)(?:\)|\s+(?:AND|OR|ORDER|LIMIT)\b|$)/gi)].map((m) => m[1]!);
  if (named.length === 0) return true;
  return named.some((list) => /[@$?]/.test(list) || [...list.matchAll(/'(\w+)'/g)].some((m) => !TRANSIENT.includes(m[1]!)));
}

/** The columns a plan's search constrains, from SQLite's `(state=? AND created_at<?)`. */
const searchColumns = (constraint: string) => [...constraint.matchAll(/(\w+)\s*(?:=|<|>|IN)/g)].map((m) => m[1]!);

/** SQLite's plan of `query`, on the database it ran on. */
export function explainSqlite(query: CapturedQuery & { db?: Database.Database }): Plan {
  if (!query.db) throw new Error('a SQLite query without its database');
  const rows = query.db.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...query.args) as { id: number; parent: number; detail: string }[];
  const depth = new Map<number, number>([[0, -1]]);
  const lines: string[] = [];
  const unbounded: string[] = [];
  // A LIMIT stops a walk after its page; EXISTS after its first row.
  const limited = /\b(LIMIT\b|EXISTS\s*\()/i.test(query.sql);
  const coarseSearches: string[] = [];
  for (const row of rows) {
    const level = (depth.get(row.parent) ?? -1) + 1;
    depth.set(row.id, level);
    lines.push(`${'  '.repeat(level)}${row.detail}`);
    const search = /^SEARCH (\w+)(?: AS \w+)? USING .*?\((.*)\)$/.exec(row.detail);
    if (search && large.test(search[1]!) && searchColumns(search[2]!).every((column) => COARSE.test(column)))
      coarseSearches.push(row.detail);
    const scan = /^SCAN (\w+)(?: AS \w+)?(.*)$/.exec(row.detail);
    if (!scan || !large.test(scan[1]!)) continue;
    const throughIndex = /USING (COVERING )?INDEX/.test(scan[2]!);
    if (!throughIndex || !limited) unbounded.push(row.detail);
  }
  const sortsAll = rows.some((row) => row.detail === 'USE TEMP B-TREE FOR ORDER BY');
  if (coarseSearches.length > 0 && (sortsAll || !limited) && mayHoldLongLivedStates(query.sql))
    unbounded.push(`${coarseSearches.join(', ')}${sortsAll ? ', then sorts every row found' : ' with no LIMIT'}`);
  return { query, lines, unbounded };
}

interface PgNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Filter?: string;
  Plans?: PgNode[];
}

/** PostgreSQL's plan of `query` on `client` (in a transaction rolled back, with sequential scans discouraged). */
export async function explainPostgres(client: pg.ClientBase, query: CapturedQuery): Promise<Plan> {
  await client.query('BEGIN');
  try {
    await client.query('SET LOCAL enable_seqscan = off');
    const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PgNode }] }>(`EXPLAIN (FORMAT JSON) ${query.sql}`, query.args);
    const lines: string[] = [];
    const unbounded: string[] = [];
    const longLived = mayHoldLongLivedStates(query.sql);
    const walk = (node: PgNode, level: number, underLimit: boolean, underSort: boolean, table = '') => {
      const on = node['Relation Name'] ? ` on ${node['Relation Name']}` : '';
      const index = node['Index Name'] ? ` using ${node['Index Name']}` : '';
      const cond = node['Index Cond'] ? ` (${node['Index Cond']})` : '';
      lines.push(`${'  '.repeat(level)}${node['Node Type']}${index}${on}${cond}`);
      // A bitmap index scan names no table: it is its heap scan's (the caller's).
      const relation = node['Relation Name'] ?? (node['Node Type'] === 'Bitmap Index Scan' ? table : '');
      if (large.test(relation)) {
        const columns = [...(node['Index Cond'] ?? '').matchAll(/\((\w+)\s*(?:=|<|>)/g)].map((m) => m[1]!);
        const coarse = columns.length > 0 && columns.every((column) => COARSE.test(column));
        if (node['Node Type'] === 'Seq Scan') unbounded.push(`Seq Scan on ${relation}`);
        else if (
          /^Index( Only)? Scan$/.test(node['Node Type']) &&
          !node['Index Cond'] &&
          !underLimit &&
          !SHORT_LIVED.has(node['Index Name'] ?? '')
        )
          unbounded.push(`${node['Node Type']} of all ${relation}${index}`);
        else if (coarse && longLived && (underSort || !underLimit))
          unbounded.push(
            `${node['Node Type']} of ${relation} by ${columns.join(', ')} alone${underSort ? ', then sorts every row found' : ' with no LIMIT'}`,
          );
      }
      const sorts = underSort || node['Node Type'] === 'Sort';
      for (const child of node.Plans ?? []) walk(child, level + 1, underLimit || node['Node Type'] === 'Limit', sorts, relation || table);
    };
    walk(rows[0]!['QUERY PLAN'][0].Plan, 0, false, false);
    return { query, lines, unbounded };
  } finally {
    await client.query('ROLLBACK');
  }
}

/**
 * Statements whose plans are checked by a test of their own on thousands of analysed rows, where the planner's choice
 * depends on statistics that a short walk's few rows do not have: the console's payments list
 * (test/server/store/list-plans.test.ts) and the reconciler's claims (test/server/store/reconcile-plans.test.ts,
 * test/server/store/cashout-claim-plans.test.ts).
 */
export function plannedElsewhere(sql: string): boolean {
  const text = normal(sql);
  return CONSOLE_LIST.test(text) || CLAIMS.has(unnumbered(text));
}
const CONSOLE_LIST = /FROM checkouts (INDEXED BY \w+ )?WHERE state <> 'Creating'.*ORDER BY created_at DESC, id DESC LIMIT/;
/** A statement whatever its PostgreSQL parameters' numbers: the plan tests number a claim's as they give its values. */
const unnumbered = (text: string) => text.replace(/\$\d+/g, '$');
const CLAIMS = new Set(
  [POSTGRES_CLAIMS, SQLITE_CLAIMS, POSTGRES_CASH_OUT_CLAIMS, SQLITE_CASH_OUT_CLAIMS]
    .flatMap((claims) => Object.values(claims))
    .map((sql) => unnumbered(normal(sql))),
);

/** The first line of a statement, for a report. */
export const headline = (sql: string, width = 110) => {
  const text = normal(sql);
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
};
