/**
 * The delivery worker's claim (`Store.claimDeliveries`) seeks each endpoint's pending deliveries by their index on
 * SQLite and (with TEST_DATABASE_URL) PostgreSQL: with an endpoint's history of delivered events behind it, and
 * another endpoint's thousands of due deliveries before its own (a receiver that hangs), a claim reads what is due
 * for the endpoint, neither every delivery it ever had nor the other's. On SQLite that read runs inside the write
 * transaction the shoppers' status waits for, so its cost is theirs. SQLite is planned as the product runs it, with
 * no statistics (the store never runs ANALYZE); PostgreSQL after ANALYZE, as autovacuum would have by then.
 */
import { describe, expect, it } from 'vitest';
import { POSTGRES_DELIVERY_CLAIM, sqliteDeliveryClaim } from '../../../server/store/deliveries';
import { compileNamed } from '../../../server/store/sql/postgres-executor';
import { DUE_BY_ENDPOINT } from '../../../server/store/migrations-deliveries';
import { TEST_DATABASE_URL } from '../store/pg-test-database';
import { pgNodes, pgPickFault, pgPlan, seededPostgres, seededSqlite, sqlitePlan, type PgNode } from '../store/plan-fixtures';

/**
 * Events of two endpoints: `env` had them all delivered but the last fifty, which are pending; `we_hanging` has every
 * one pending, due a day before env's.
 */
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
  INSERT INTO webhook_deliveries (event_seq, endpoint_id, state, attempts, next_at)
  SELECT seq, 'we_hanging', 'pending', 1, '2026-04-30T00:00:00.000Z' FROM merchant_events;
`;
const PG_SEED = `
  INSERT INTO merchant_events (id, type, created_at, data)
  SELECT 'evt_' || i, 'checkout.completed', '2026-05-01T00:00:00Z', '{}' FROM generate_series(1, ${EVENTS}) AS i;
  INSERT INTO webhook_deliveries (event_seq, endpoint_id, state, attempts, next_at)
  SELECT seq, 'env', ${STATE}, 1, '2026-05-01T00:00:00Z' FROM merchant_events;
  INSERT INTO webhook_deliveries (event_seq, endpoint_id, state, attempts, next_at)
  SELECT seq, 'we_hanging', 'pending', 1, '2026-04-30T00:00:00Z' FROM merchant_events;
  ANALYZE merchant_events;
  ANALYZE webhook_deliveries;
`;

/**
 * What is wrong with SQLite's plan of the claim (its lines), or undefined: it seeks the endpoint's pending deliveries
 * by their index, on the endpoint and the due time both.
 */
function sqliteClaimFault(details: string[]): string | undefined {
  const reads = details.filter((line) => /^(SCAN|SEARCH) webhook_deliveries\b/.test(line) && !line.includes('PRIMARY KEY'));
  if (reads.length === 0) return 'reads no deliveries';
  const wrong = reads.find((line) => !line.includes(`USING INDEX ${DUE_BY_ENDPOINT} (endpoint_id=? AND next_at<?)`));
  return wrong && `reads deliveries not by the endpoint's pending index: ${wrong}`;
}

/**
 * What is wrong with PostgreSQL's plan of the claim, or undefined: no scan of every delivery, of an endpoint's, nor
 * of every pending one by due time (past the other endpoint's).
 */
const pgClaimFault = (plan: PgNode): string | undefined => {
  const wide = pgNodes(plan).find(
    (node) =>
      node['Relation Name'] === 'webhook_deliveries' &&
      node['Node Type'] !== 'ModifyTable' &&
      !(node['Node Type'] === 'Index Scan' && [DUE_BY_ENDPOINT, 'webhook_deliveries_pkey'].includes(node['Index Name']!)),
  );
  return wide && `${wide['Node Type']} ${wide['Index Name'] ?? wide['Relation Name']}`;
};

describe("the delivery worker's claim on SQLite", () => {
  const db = seededSqlite(SQLITE_SEED);

  it("seeks the endpoint's pending deliveries, not every delivery it had nor another endpoint's due before", () => {
    const params = { owner: 'worker-1', leaseUntil: NOW, now: NOW, endpointId: 'env', limit: 16 };
    const details = sqlitePlan(db(), sqliteDeliveryClaim(DUE_BY_ENDPOINT), params);
    expect(sqliteClaimFault(details), details.join('\n')).toBeUndefined();
    // What the seek gives: env's own due deliveries, however many of the other's are due before them.
    const taken = db().transaction(() => {
      const rows = db().prepare(sqliteDeliveryClaim(DUE_BY_ENDPOINT)).all(params) as { endpoint_id: string }[];
      throw Object.assign(new Error('rolled back'), { rows });
    });
    expect(() => taken()).toThrow(
      expect.objectContaining({
        rows: Array.from({ length: 16 }, () => ({ endpoint_id: 'env', event_seq: expect.any(Number), attempts: 1 })),
      }),
    );
  });

  it("the plan check fails a walk of the endpoint's deliveries, of every pending one, or of the table", () => {
    expect(sqliteClaimFault(['SEARCH webhook_deliveries USING INDEX webhook_deliveries_of_endpoint (endpoint_id=?)'])).toMatch(
      /not by the endpoint's pending index/,
    );
    expect(sqliteClaimFault(['SEARCH webhook_deliveries USING INDEX webhook_deliveries_due (next_at<?)'])).toMatch(/not by/);
    expect(sqliteClaimFault(['SCAN webhook_deliveries'])).toMatch(/not by/);
    expect(sqliteClaimFault([`SEARCH webhook_deliveries USING INDEX ${DUE_BY_ENDPOINT} (endpoint_id=? AND next_at<?)`])).toBeUndefined();
  });
});

describe.skipIf(!TEST_DATABASE_URL)("the delivery worker's claim on PostgreSQL (TEST_DATABASE_URL)", () => {
  const pg = seededPostgres(PG_SEED);

  it("seeks each endpoint's pending deliveries, nothing wider, and picks its rows once (never more than its limits)", async () => {
    const claim = compileNamed(POSTGRES_DELIVERY_CLAIM);
    const claimParams: Record<string, unknown> = {
      endpoints: ['env', 'we_hanging'],
      takes: [16, 16],
      now: NOW,
      owner: 'worker-1',
      leaseUntil: NOW,
      total: 32,
    };
    const plan = await pgPlan(
      pg(),
      claim.text,
      claim.names.map((name) => claimParams[name]),
    );
    expect(pgClaimFault(plan), JSON.stringify(plan)).toBeUndefined();
    expect(pgPickFault(plan), JSON.stringify(plan)).toBeUndefined();
  });

  it('the plan check fails a Seq Scan, a walk of the endpoint index, and one of every pending delivery', () => {
    const of = (node: PgNode) => pgClaimFault({ 'Node Type': 'ModifyTable', 'Relation Name': 'webhook_deliveries', Plans: [node] });
    expect(of({ 'Node Type': 'Seq Scan', 'Relation Name': 'webhook_deliveries' })).toBe('Seq Scan webhook_deliveries');
    expect(of({ 'Node Type': 'Bitmap Heap Scan', 'Relation Name': 'webhook_deliveries' })).toBe('Bitmap Heap Scan webhook_deliveries');
    const walk = { 'Node Type': 'Index Scan', 'Relation Name': 'webhook_deliveries' };
    expect(of({ ...walk, 'Index Name': 'webhook_deliveries_of_endpoint' })).toBe('Index Scan webhook_deliveries_of_endpoint');
    expect(of({ ...walk, 'Index Name': 'webhook_deliveries_due' })).toBe('Index Scan webhook_deliveries_due');
    expect(of({ ...walk, 'Index Name': DUE_BY_ENDPOINT })).toBeUndefined();
  });
});
