/**
 * The reconciler's claim of stale cash-outs (`Store.claimStaleCashOuts`) seeks its partial indexes on SQLite and (with
 * TEST_DATABASE_URL) PostgreSQL: with a history of mostly final cash-outs and refunds, neither statement reads the
 * table or walks an index of every cash-out, so a pass costs what is still `Sending` or moving, not the history.
 */
import { describe, expect, it } from 'vitest';
import { POSTGRES_CASH_OUT_CLAIMS, SQLITE_CASH_OUT_CLAIMS } from '../../../server/store/reconcile';
import { TEST_DATABASE_URL } from './pg-test-database';
import { pgNodes, pgPickFault, pgPlan, seededPostgres, seededSqlite, sqlitePlan, type PgNode } from './plan-fixtures';

/** Cash-outs seeded: one a minute, most of them Completed, one in a hundred still Sending, one in twenty-five moving. */
const ROWS = 20_000;
const START = Date.parse('2026-01-01T00:00:00.000Z');
const NOW = new Date(START + ROWS * 60_000).toISOString();
const STATE = `CASE WHEN i % 100 = 0 THEN 'Sending' WHEN i % 50 = 1 THEN 'Created' WHEN i % 50 = 2 THEN 'Registered'
  ELSE 'Completed' END`;
const COLUMNS = `idempotency_key, fingerprint, order_id, transaction_id, state, amount_cents, recipient_name, recipient_cpf,
  key_type, key_value, created_at, updated_at`;

const SQLITE_SEED = `
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS})
  INSERT INTO cashouts (${COLUMNS})
  SELECT 'key-' || i, 'f', 'payout-' || i, CASE WHEN i % 100 = 0 THEN NULL ELSE 'tx_' || i END, ${STATE}, 1000, 'Maria',
    '52998224725', 'CPF', '52998224725',
    strftime('%Y-%m-%dT%H:%M:%fZ', ${START / 1000} + i * 60, 'unixepoch'),
    strftime('%Y-%m-%dT%H:%M:%fZ', ${START / 1000} + i * 60 + 30, 'unixepoch')
  FROM n;
  ANALYZE;
`;
const PG_SEED = `
  INSERT INTO cashouts (${COLUMNS})
  SELECT 'key-' || i, 'f', 'payout-' || i, CASE WHEN i % 100 = 0 THEN NULL ELSE 'tx_' || i END, ${STATE}, 1000, 'Maria',
    '52998224725', 'CPF', '52998224725', to_timestamp(${START / 1000} + i * 60), to_timestamp(${START / 1000} + i * 60 + 30)
  FROM generate_series(1, ${ROWS}) AS i;
  ANALYZE cashouts;
`;

/** What is wrong with SQLite's plan of a claim, or undefined: each read of cashouts seeks an index or walks a partial one. */
function sqliteClaimFault(details: string[]): string | undefined {
  const reads = details.filter((line) => /^(SCAN|SEARCH) cashouts\b/.test(line));
  if (reads.length === 0) return 'reads no cash-outs';
  for (const line of reads) {
    if (line.startsWith('SEARCH ')) continue;
    if (!/^SCAN cashouts USING (COVERING )?INDEX (cashouts_sending|cashouts_unsettled)\b/.test(line)) return `full scan: ${line}`;
  }
  return undefined;
}

const pgClaimFault = (plan: PgNode): string | undefined =>
  pgNodes(plan).some((node) => node['Node Type'] === 'Seq Scan' && node['Relation Name'] === 'cashouts')
    ? 'Seq Scan on cashouts'
    : undefined;

describe("the reconciler's claim of stale cash-outs on SQLite", () => {
  const db = seededSqlite(SQLITE_SEED);

  it.each(Object.entries(SQLITE_CASH_OUT_CLAIMS))('%s: seeks its partial index, never the whole table', (_, text) => {
    const details = sqlitePlan(db(), text, { now: NOW, before: NOW, limit: 50, until: NOW });
    expect(sqliteClaimFault(details), details.join('\n')).toBeUndefined();
  });

  it('the plan check fails a scan of the table or of an index of every cash-out', () => {
    expect(sqliteClaimFault(['SCAN cashouts'])).toBe('full scan: SCAN cashouts');
    expect(sqliteClaimFault(['SCAN cashouts USING INDEX cashouts_recent'])).toBe('full scan: SCAN cashouts USING INDEX cashouts_recent');
  });
});

describe.skipIf(!TEST_DATABASE_URL)("the reconciler's claim of stale cash-outs on PostgreSQL (TEST_DATABASE_URL)", () => {
  const pg = seededPostgres(PG_SEED);

  it.each(Object.entries(POSTGRES_CASH_OUT_CLAIMS))(
    '%s: never reads the whole table, and picks its rows once (never more than its limit)',
    async (_, text) => {
      const plan = await pgPlan(pg(), text, [NOW, NOW, 50, NOW]);
      expect(pgClaimFault(plan), JSON.stringify(plan)).toBeUndefined();
      expect(pgPickFault(plan), JSON.stringify(plan)).toBeUndefined();
    },
  );
});
