/**
 * The reconciler's claims (`Store.claimStaleCheckouts`, `claimDueExpiries`, `claimStaleReservations`) seek their partial indexes on SQLite and (with
 * TEST_DATABASE_URL) PostgreSQL: with a history of mostly final checkouts, neither reads the table or walks an index
 * of every checkout, so a pass costs what the live and recently expired checkouts are, not what the history is.
 */
import { describe, expect, it } from 'vitest';
import { POSTGRES_CLAIMS, SQLITE_CLAIMS } from '../../../server/store/reconcile';
import { TEST_DATABASE_URL } from './pg-test-database';
import { pgNodes, pgPickFault, pgPlan, seededPostgres, seededSqlite, sqlitePlan, type PgNode } from './plan-fixtures';

/** Checkouts seeded: one a minute, most of them final, one in ten expired, one in fifty still live. */
const ROWS = 20_000;
const START = Date.parse('2026-01-01T00:00:00.000Z');
const NOW = new Date(START + ROWS * 60_000).toISOString();
const STATE = `CASE WHEN i % 50 = 0 THEN 'Registered' WHEN i % 50 = 1 THEN 'Created' WHEN i % 10 = 2 THEN 'Expired'
  ELSE 'Completed' END`;

const SQLITE_SEED = `
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS})
  INSERT INTO checkouts (id, order_id, method, state, amount_cents, currency, transaction_id, details, seq, expires_at,
    created_at, updated_at)
  SELECT 'co_' || i, 'order-' || i, 'pix', ${STATE}, 1000, 'BRL', 'tx_' || i, '{}', 2,
    strftime('%Y-%m-%dT%H:%M:%fZ', ${START / 1000} + i * 60 + 1800, 'unixepoch'),
    strftime('%Y-%m-%dT%H:%M:%fZ', ${START / 1000} + i * 60, 'unixepoch'),
    strftime('%Y-%m-%dT%H:%M:%fZ', ${START / 1000} + i * 60 + 1800, 'unixepoch')
  FROM n;
  ANALYZE;
`;
const PG_SEED = `
  INSERT INTO checkouts (id, order_id, method, state, amount_cents, currency, transaction_id, details, seq, expires_at,
    created_at, updated_at)
  SELECT 'co_' || i, 'order-' || i, 'pix', ${STATE}, 1000, 'BRL', 'tx_' || i, '{}', 2,
    to_timestamp(${START / 1000} + i * 60 + 1800), to_timestamp(${START / 1000} + i * 60), to_timestamp(${START / 1000} + i * 60 + 1800)
  FROM generate_series(1, ${ROWS}) AS i;
  ANALYZE checkouts;
`;

/** What is wrong with SQLite's plan of a claim (its lines), or undefined: each read of checkouts seeks an index or walks a partial one. */
function sqliteClaimFault(details: string[]): string | undefined {
  const reads = details.filter((line) => /^(SCAN|SEARCH) checkouts\b/.test(line));
  if (reads.length === 0) return 'reads no checkouts';
  for (const line of reads) {
    if (line.startsWith('SEARCH ')) continue;
    if (!/^SCAN checkouts USING (COVERING )?INDEX (checkouts_live|checkouts_expired|checkouts_creating)\b/.test(line))
      return `full scan: ${line}`;
  }
  return undefined;
}

const pgClaimFault = (plan: PgNode): string | undefined =>
  pgNodes(plan).some((node) => node['Node Type'] === 'Seq Scan' && node['Relation Name'] === 'checkouts')
    ? 'Seq Scan on checkouts'
    : undefined;

describe("the reconciler's claims on SQLite", () => {
  const db = seededSqlite(SQLITE_SEED);

  it.each(Object.entries(SQLITE_CLAIMS))('%s: seeks its partial index, never the whole table', (_, text) => {
    const params = { now: NOW, before: NOW, limit: 50, liveUntil: NOW, since: NOW, minDays: 0.001, maxDays: 0.04, until: NOW };
    const details = sqlitePlan(db(), text, params);
    expect(sqliteClaimFault(details), details.join('\n')).toBeUndefined();
  });

  it('the plan check fails a scan of the table or of an index of every checkout', () => {
    expect(sqliteClaimFault(['SCAN checkouts'])).toBe('full scan: SCAN checkouts');
    expect(sqliteClaimFault(['SCAN checkouts USING INDEX checkouts_recent'])).toBe(
      'full scan: SCAN checkouts USING INDEX checkouts_recent',
    );
    expect(sqliteClaimFault(['SEARCH checkouts USING INDEX checkouts_expired (updated_at>?)'])).toBeUndefined();
  });
});

describe.skipIf(!TEST_DATABASE_URL)("the reconciler's claims on PostgreSQL (TEST_DATABASE_URL)", () => {
  const pg = seededPostgres(PG_SEED);

  it.each([
    ['live', POSTGRES_CLAIMS.live, [NOW, NOW, 50, NOW]],
    ['expired', POSTGRES_CLAIMS.expired, [NOW, NOW, 50, new Date(Date.parse(NOW) - 86_400_000).toISOString(), 60_000, 3_600_000]],
    ['dueExpiries', POSTGRES_CLAIMS.dueExpiries, [NOW, 50, NOW]],
    ['staleReservations', POSTGRES_CLAIMS.staleReservations, [NOW, NOW, 50, NOW]],
  ] as const)('%s: never reads the whole table, and picks its rows once (never more than its limit)', async (_, text, values) => {
    const plan = await pgPlan(pg(), text, values);
    expect(pgClaimFault(plan), JSON.stringify(plan)).toBeUndefined();
    expect(pgPickFault(plan), JSON.stringify(plan)).toBeUndefined();
  });

  it('the pick check fails a lock taken by a subquery of the UPDATE', () => {
    const lock = { 'Node Type': 'LockRows', Plans: [{ 'Node Type': 'Index Scan', 'Index Name': 'checkouts_live' }] };
    expect(pgPickFault({ 'Node Type': 'ModifyTable', Plans: [{ 'Node Type': 'Nested Loop', Plans: [lock] }] })).toBe(
      'no materialized CTE named picked',
    );
    const cte = { 'Node Type': 'Limit', 'Subplan Name': 'CTE picked', Plans: [] };
    expect(pgPickFault({ 'Node Type': 'ModifyTable', Plans: [cte, lock] })).toBe('LockRows outside the CTE picked');
  });

  it('the plan check fails a Seq Scan', () => {
    expect(pgClaimFault({ 'Node Type': 'Update', Plans: [{ 'Node Type': 'Seq Scan', 'Relation Name': 'checkouts' }] })).toBe(
      'Seq Scan on checkouts',
    );
  });
});
