/**
 * The delivery worker's claim (`Store.claimDeliveries`) seeks the index of pending deliveries on SQLite and (with
 * TEST_DATABASE_URL) PostgreSQL: with an endpoint's history of delivered events behind it, a claim reads what is due,
 * not every delivery the endpoint ever had. On SQLite that read runs inside the write transaction the shoppers'
 * status waits for, so its cost is theirs. SQLite is planned as the product runs it, with no statistics (the store
 * never runs ANALYZE); PostgreSQL after ANALYZE, as autovacuum would have by then.
 */
import { describe, expect, it } from 'vitest';
import { POSTGRES_DELIVERY_CLAIM } from '../../../server/store/deliveries-postgres';
import { SQLITE_DELIVERY_CLAIM } from '../../../server/store/deliveries-sqlite';
import { TEST_DATABASE_URL } from '../store/pg-test-database';
import { pgNodes, pgPickFault, pgPlan, seededPostgres, seededSqlite, sqlitePlan, type PgNode } from '../store/plan-fixtures';

/** Events of one endpoint: all delivered but the last fifty, which are pending. */
const EVENTS = 20_000;
const PENDING = 50;
const NOW = '2026-06-01T00:00:00.000Z';
const STATE = `CASE WHEN seq > ${EVENTS - PENDING} THEN 'pending' ELSE 'delivered' END`;

const SQLITE_SEED = `
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${EVENTS})
  INSERT INTO merchant_events (id, type, created_at, data)
  SELECT 'evt_' || i, 'checkout.completed', '2026-05-01T00:00:00.000Z', '{}' FROM n;
  INSERT INTO webhook_deliveries (event_seq, endpoint_id, state, attempts, next_at)
  SELECT seq, 'env', ${STATE}, 1, '2026-05-01T00:00:00.000Z'
  FROM merchant_events;
`;
const PG_SEED = `
  INSERT INTO merchant_events (id, type, created_at, data)
  SELECT 'evt_' || i, 'checkout.completed', '2026-05-01T00:00:00Z', '{}' FROM generate_series(1, ${EVENTS}) AS i;
  INSERT INTO webhook_deliveries (event_seq, endpoint_id, state, attempts, next_at)
  SELECT seq, 'env', ${STATE}, 1, '2026-05-01T00:00:00Z' FROM merchant_events;
  ANALYZE merchant_events;
  ANALYZE webhook_deliveries;
`;

/** What is wrong with SQLite's plan of the claim (its lines), or undefined: it reads deliveries by the pending index. */
function sqliteClaimFault(details: string[]): string | undefined {
  const reads = details.filter((line) => /^(SCAN|SEARCH) webhook_deliveries\b/.test(line) && !line.includes('PRIMARY KEY'));
  if (reads.length === 0) return 'reads no deliveries';
  const wrong = reads.find((line) => !line.includes('USING INDEX webhook_deliveries_due '));
  return wrong && `reads deliveries not by the pending index: ${wrong}`;
}

/** What is wrong with PostgreSQL's plan of the claim, or undefined: no scan of every delivery, nor of an endpoint's. */
const pgClaimFault = (plan: PgNode): string | undefined => {
  const wide = pgNodes(plan).find(
    (node) =>
      (node['Node Type'] === 'Seq Scan' && node['Relation Name'] === 'webhook_deliveries') ||
      node['Index Name'] === 'webhook_deliveries_of_endpoint',
  );
  return wide && `${wide['Node Type']} ${wide['Index Name'] ?? wide['Relation Name']}`;
};

describe("the delivery worker's claim on SQLite", () => {
  const db = seededSqlite(SQLITE_SEED);

  it('reads the pending deliveries by their index, not every delivery of the endpoint', () => {
    const params = { owner: 'worker-1', leaseUntil: NOW, now: NOW, endpoints: JSON.stringify(['env']), limit: 64 };
    const details = sqlitePlan(db(), SQLITE_DELIVERY_CLAIM, params);
    expect(sqliteClaimFault(details), details.join('\n')).toBeUndefined();
  });

  it("the plan check fails a walk of the endpoint's deliveries or of the table", () => {
    expect(sqliteClaimFault(['SEARCH webhook_deliveries USING INDEX webhook_deliveries_of_endpoint (endpoint_id=?)'])).toMatch(
      /not by the pending index/,
    );
    expect(sqliteClaimFault(['SCAN webhook_deliveries'])).toMatch(/not by the pending index/);
    expect(sqliteClaimFault(['SEARCH webhook_deliveries USING INDEX webhook_deliveries_due (next_at<?)'])).toBeUndefined();
  });
});

describe.skipIf(!TEST_DATABASE_URL)("the delivery worker's claim on PostgreSQL (TEST_DATABASE_URL)", () => {
  const pg = seededPostgres(PG_SEED);

  it('reads neither the whole table nor every delivery of the endpoint, and picks its rows once (never more than its limit)', async () => {
    const plan = await pgPlan(pg(), POSTGRES_DELIVERY_CLAIM, [['env'], NOW, 'worker-1', NOW, 64]);
    expect(pgClaimFault(plan), JSON.stringify(plan)).toBeUndefined();
    expect(pgPickFault(plan), JSON.stringify(plan)).toBeUndefined();
  });

  it('the plan check fails a Seq Scan and a walk of the endpoint index', () => {
    const scan = { 'Node Type': 'Seq Scan', 'Relation Name': 'webhook_deliveries' };
    const walk = { 'Node Type': 'Index Scan', 'Index Name': 'webhook_deliveries_of_endpoint' };
    expect(pgClaimFault({ 'Node Type': 'Update', Plans: [scan] })).toBe('Seq Scan webhook_deliveries');
    expect(pgClaimFault({ 'Node Type': 'Update', Plans: [walk] })).toBe('Index Scan webhook_deliveries_of_endpoint');
  });
});
