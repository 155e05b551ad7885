/**
 * The back office's payments list seeks an index for every filter and every page, on SQLite and (with
 * TEST_DATABASE_URL) PostgreSQL: each combination of filters the list takes, first page and a cursor page, is
 * planned by the database (SQLite's EXPLAIN QUERY PLAN, PostgreSQL's EXPLAIN (FORMAT JSON) on 20,000 checkouts
 * after ANALYZE, so its planner has real statistics to choose by), and a plan that reads the whole table, sorts
 * every match, or walks to a deep page instead of seeking its cursor fails. The same for the refunds of a page.
 * The queries are the store's own (`checkoutListQuery` and `refundsOfQuery` over each dialect; PostgreSQL's numbered as
 * its executor numbers them).
 */
import { describe, expect, it } from 'vitest';
import type { CheckoutFilter } from '../../../server/store/back-office';
import { checkoutListQuery, listIndexFor, refundsOfQuery, type Query } from '../../../server/store/back-office-sql';
import { LIST_INDEXES } from '../../../server/store/migrations-indexes';
import { postgresDialect, sqliteDialect } from '../../../server/store/sql/dialect';
import { compileNamed } from '../../../server/store/sql/postgres-executor';
import { TEST_DATABASE_URL } from './pg-test-database';
import { pgNodes, pgPlan, seededPostgres, seededSqlite, sqlitePlan, type PgNode } from './plan-fixtures';

/** Checkouts seeded: one a minute from `START`, mixed states and methods, some duplicates and late payments. */
const ROWS = 20_000;
const START = Date.parse('2026-01-01T00:00:00.000Z');
const minute = (n: number) => new Date(START + n * 60_000).toISOString();

// Row i (1 to ROWS): its state, method, duplicate and lateness, the same on both databases.
const STATE = `CASE WHEN i % 100 = 0 THEN 'Reversed' WHEN i % 10 < 6 THEN 'Completed' WHEN i % 10 < 8 THEN 'Expired'
  WHEN i % 10 = 8 THEN 'Error' ELSE 'Cancelled' END`;
const METHOD = `CASE WHEN i % 7 = 0 THEN 'openfinance' ELSE 'pix' END`;
/** The checkout id of row `n` (an SQL expression), its number zero-padded as each database pads it. */
const SQLITE_ID = (n: string) => `'co_' || substr('0000000' || (${n}), -8)`;
const PG_ID = (n: string) => `'co_' || lpad((${n})::text, 8, '0')`;
/** One checkout in 250 is a second transaction of the order before it. */
const DUPLICATE = (id: (n: string) => string) => `CASE WHEN i % 250 = 3 THEN ${id('i - 1')} END`;
/** Minutes from creation to payment: past the 30-minute window for one checkout in 300. */
const PAID_AFTER = `CASE WHEN i % 300 = 1 THEN 45 ELSE 5 END`;
/** The refund cash-outs (every fourth checkout) and other cash-outs (as many), which a page's refunds must skip. */
const CASH_OUTS = ROWS / 2;

const SQLITE_SEED = `
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS})
  INSERT INTO checkouts (id, order_id, method, state, amount_cents, currency, transaction_id, details, duplicate_of, seq,
    expires_at, created_at, updated_at)
  SELECT ${SQLITE_ID('i')}, 'order-' || substr('0000000' || i, -8), ${METHOD}, ${STATE}, 1000, 'BRL',
    'tx_' || i, json_object('paidAt', strftime('%Y-%m-%dT%H:%M:%fZ', ${START / 1000} + i * 60 + ${PAID_AFTER} * 60, 'unixepoch')),
    ${DUPLICATE(SQLITE_ID)}, 2, strftime('%Y-%m-%dT%H:%M:%fZ', ${START / 1000} + i * 60 + 1800, 'unixepoch'),
    strftime('%Y-%m-%dT%H:%M:%fZ', ${START / 1000} + i * 60, 'unixepoch'), strftime('%Y-%m-%dT%H:%M:%fZ', ${START / 1000} + i * 60, 'unixepoch')
  FROM n;
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${CASH_OUTS})
  INSERT INTO cashouts (idempotency_key, fingerprint, order_id, state, amount_cents, recipient_name, recipient_cpf, key_type,
    key_value, refund_of, created_at, updated_at)
  SELECT 'key-' || i, 'f', 'payout-' || i, 'Completed', 100, 'Maria', '52998224725', 'CPF', '52998224725',
    CASE WHEN i % 2 = 0 THEN ${SQLITE_ID('i * 2')} END, '2026-02-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z'
  FROM n;
`;

const PG_SEED = `
  INSERT INTO checkouts (id, order_id, method, state, amount_cents, currency, transaction_id, details, duplicate_of, seq,
    expires_at, created_at, updated_at)
  SELECT ${PG_ID('i')}, 'order-' || lpad(i::text, 8, '0'), ${METHOD}, ${STATE}, 1000, 'BRL', 'tx_' || i,
    jsonb_build_object('paidAt', to_char(to_timestamp(${START / 1000} + i * 60 + ${PAID_AFTER} * 60) AT TIME ZONE 'UTC',
      'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
    ${DUPLICATE(PG_ID)}, 2,
    to_timestamp(${START / 1000} + i * 60 + 1800), to_timestamp(${START / 1000} + i * 60), to_timestamp(${START / 1000} + i * 60)
  FROM generate_series(1, ${ROWS}) AS i;
  INSERT INTO cashouts (idempotency_key, fingerprint, order_id, state, amount_cents, recipient_name, recipient_cpf, key_type,
    key_value, refund_of, created_at, updated_at)
  SELECT 'key-' || i, 'f', 'payout-' || i, 'Completed', 100, 'Maria', '52998224725', 'CPF', '52998224725',
    CASE WHEN i % 2 = 0 THEN ${PG_ID('i * 2')} END, '2026-02-01T00:00:00Z', '2026-02-01T00:00:00Z'
  FROM generate_series(1, ${CASH_OUTS}) AS i;
  ANALYZE checkouts;
  ANALYZE cashouts;
`;

/** `query` as PostgreSQL's executor sends it: `$n` placeholders and their values. */
function numbered({ text, params }: Query): { text: string; values: unknown[] } {
  const compiled = compileNamed(text);
  return { text: compiled.text, values: compiled.names.map((name) => params[name]) };
}

/** Every combination of the list's filters, each without and with a cursor (two thirds down the seeded rows). */
function combinations(): CheckoutFilter[] {
  const all: CheckoutFilter[] = [];
  const third = Math.floor(ROWS / 3);
  const after = { createdAt: minute(third), id: `co_${String(third).padStart(8, '0')}` };
  for (const states of [undefined, ['Reversed'], ['Completed', 'Error']] as const)
    for (const method of [undefined, 'openfinance'] as const)
      for (const period of [{}, { from: minute(100) }, { to: minute(ROWS - 100) }, { from: minute(100), to: minute(ROWS - 100) }])
        for (const orderId of [undefined, 'order-00000042'])
          for (const flag of [undefined, 'duplicate', 'late', 'flagged'] as const)
            for (const cursor of [undefined, after]) {
              all.push({
                ...(states ? { states: [...states] } : {}),
                ...(method ? { method } : {}),
                ...period,
                ...(orderId ? { orderId } : {}),
                ...(flag ? { flag } : {}),
                ...(cursor ? { after: cursor } : {}),
              });
            }
  return all;
}

/** What is wrong with SQLite's plan of `filter`'s list (`details`: the plan's lines), or undefined. */
function sqlitePlanFault(filter: CheckoutFilter, details: string[]): string | undefined {
  const reads = details.filter((line) => /^(SCAN|SEARCH) checkouts\b/.test(line));
  if (reads.length !== 1) return `reads checkouts ${reads.length} times`;
  const match = /^(SCAN|SEARCH) checkouts USING (?:COVERING )?INDEX (\w+)(?: \((.*)\))?$/.exec(reads[0]!);
  if (!match) return 'reads the table, not an index';
  const [, how, index, seek = ''] = match;
  // A state, a method or an order is sought by its own index; a flag reads the partial index of flagged payments.
  if (filter.states?.length || filter.method || filter.orderId || filter.flag) {
    if (index === LIST_INDEXES.recent) return 'walks every checkout in time order and checks its filters';
    if (index !== LIST_INDEXES.flagged && !/\b(state|method|order_id)=\?/.test(seek)) return 'does not seek its filter';
  }
  // Walking a whole index is only for the first page of the unfiltered list or of the flagged payments (a partial
  // index), and stops at the page's end. A period and a cursor are sought.
  if ((filter.after || filter.from || filter.to) && index !== LIST_INDEXES.order) {
    if (how !== 'SEARCH' || !seek.includes('created_at')) return 'walks the index instead of seeking its period or cursor';
    if (filter.after && !seek.includes('(created_at,id)<(?,?)')) return 'does not seek the cursor';
  }
  // A sort of every match is only for an order's few checkouts, and for several states (SQLite stops each state's
  // part of the sort once the page is full, since the index gives each state's rows in the list's order).
  const sorts = details.some((line) => line.startsWith('USE TEMP B-TREE'));
  if (sorts && index !== LIST_INDEXES.order && !(filter.states && filter.states.length > 1 && seek.includes('state=?'))) {
    return 'sorts every match';
  }
  if (index !== listIndexFor(filter)) return `reads ${index}, not ${listIndexFor(filter)}`;
  return undefined;
}

/** What is wrong with PostgreSQL's plan of a query on `table` (with a cursor: `cursor`), or undefined. */
function pgPlanFault(plan: PgNode, table: string, cursor: boolean): string | undefined {
  const all = pgNodes(plan);
  if (all.some((node) => node['Node Type'] === 'Seq Scan' && node['Relation Name'] === table)) return `Seq Scan on ${table}`;
  const indexed = all.filter((node) => node['Index Name']);
  if (indexed.length === 0) return `reads ${table} through no index`;
  // An order has a handful of checkouts: found by its index, its cursor is checked on them. Anything else seeks it.
  const byOrder = indexed.some((node) => node['Index Name'] === LIST_INDEXES.order);
  if (cursor && !byOrder && !indexed.some((node) => node['Index Cond']?.includes('ROW(created_at, id) <'))) {
    return 'does not seek the cursor';
  }
  return undefined;
}

describe('the payments list on SQLite', () => {
  const db = seededSqlite(SQLITE_SEED);
  const plan = (text: string, params: unknown) => sqlitePlan(db(), text, params);

  it('seeks an index for every combination of filters, first page and cursor page', () => {
    const faults = combinations().flatMap((filter) => {
      const { text, params } = checkoutListQuery(sqliteDialect, filter, 21, () => true);
      const details = plan(text, params);
      const fault = sqlitePlanFault(filter, details);
      return fault ? [`${JSON.stringify(filter)}: ${fault}\n    ${details.join('\n    ')}`] : [];
    });
    expect(faults).toEqual([]);
  });

  it('the plan check fails a list that reads the table or walks to its cursor', () => {
    const after = { createdAt: minute(10), id: 'co_00000010' };
    expect(sqlitePlanFault({}, ['SCAN checkouts'])).toBe('reads the table, not an index');
    expect(sqlitePlanFault({ after }, ['SCAN checkouts USING INDEX checkouts_recent'])).toBe(
      'walks the index instead of seeking its period or cursor',
    );
    expect(sqlitePlanFault({ after }, ['SEARCH checkouts USING INDEX checkouts_recent (created_at<?)'])).toBe('does not seek the cursor');
    expect(sqlitePlanFault({ states: ['Reversed'] }, ['SCAN checkouts USING INDEX checkouts_recent'])).toBe(
      'walks every checkout in time order and checks its filters',
    );
    expect(sqlitePlanFault({ method: 'pix' }, ['SCAN checkouts USING INDEX checkouts_by_method'])).toBe('does not seek its filter');
    expect(
      sqlitePlanFault({ states: ['Reversed'] }, [
        'SEARCH checkouts USING INDEX checkouts_by_state (state=?)',
        'USE TEMP B-TREE FOR ORDER BY',
      ]),
    ).toBe('sorts every match');
    expect(sqlitePlanFault({ states: ['Reversed'] }, ['SEARCH checkouts USING INDEX checkouts_by_state (state=?)'])).toBeUndefined();
  });

  it("finds a page's refunds by their index", () => {
    for (const count of [1, 64]) {
      const ids = Array.from({ length: count }, (_, i) => `co_${String(i * 4).padStart(8, '0')}`);
      const details = plan(refundsOfQuery(sqliteDialect), { ids: sqliteDialect.list(ids) });
      expect(details.filter((line) => line.includes('cashouts'))).toEqual(['SEARCH cashouts USING INDEX cashouts_by_refund (refund_of=?)']);
    }
  });
});

describe.skipIf(!TEST_DATABASE_URL)('the payments list on PostgreSQL (TEST_DATABASE_URL)', () => {
  const pg = seededPostgres(PG_SEED);
  const plan = (text: string, values: unknown[]) => pgPlan(pg(), text, values);

  it('seeks an index for every combination of filters, first page and cursor page', async () => {
    const faults: string[] = [];
    for (const filter of combinations()) {
      const { text, values } = numbered(checkoutListQuery(postgresDialect, filter, 21, () => true));
      const tree = await plan(text, values);
      const fault = pgPlanFault(tree, 'checkouts', filter.after !== undefined);
      if (fault) faults.push(`${JSON.stringify(filter)}: ${fault}\n${JSON.stringify(tree)}`);
    }
    expect(faults).toEqual([]);
  }, 60_000);

  it('the plan check fails a list that reads the table or walks to its cursor', () => {
    const walk: PgNode = { 'Node Type': 'Index Scan', 'Relation Name': 'checkouts', 'Index Name': 'checkouts_recent' };
    expect(
      pgPlanFault({ 'Node Type': 'Limit', Plans: [{ 'Node Type': 'Seq Scan', 'Relation Name': 'checkouts' }] }, 'checkouts', false),
    ).toBe('Seq Scan on checkouts');
    expect(pgPlanFault(walk, 'checkouts', true)).toBe('does not seek the cursor');
    expect(pgPlanFault(walk, 'checkouts', false)).toBeUndefined();
  });

  it("finds a page's refunds by their index", async () => {
    const ids = Array.from({ length: 50 }, (_, i) => `co_${String(i * 4).padStart(8, '0')}`);
    const { text, values } = numbered({ text: refundsOfQuery(postgresDialect), params: { ids: postgresDialect.list(ids) } });
    expect(pgPlanFault(await plan(text, values), 'cashouts', false)).toBeUndefined();
  });
});
