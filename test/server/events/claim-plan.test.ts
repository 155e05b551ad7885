/**
 * The delivery worker's claim (`Store.claimDeliveries`) seeks the index of pending deliveries on SQLite and (with
 * TEST_DATABASE_URL) PostgreSQL: with an endpoint's history of delivered events behind it, a claim reads what is due,
 * not every delivery the endpoint ever had. On SQLite that read runs inside the write transaction the shoppers'
 * status waits for, so its cost is theirs. SQLite is planned as the product runs it, with no statistics (the store
 * never runs ANALYZE); PostgreSQL after ANALYZE, as autovacuum would have by then.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_DELIVERY_CLAIM } from '../../../server/store/deliveries-postgres';
import { SQLITE_DELIVERY_CLAIM } from '../../../server/store/deliveries-sqlite';
import { openPostgresStore } from '../../../server/store/postgres';
import { openSqliteStore } from '../../../server/store/sqlite';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../store/pg-test-database';

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

interface PgNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PgNode[];
}
const nodes = (node: PgNode): PgNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];
/** What is wrong with PostgreSQL's plan of the claim, or undefined: no scan of every delivery, nor of an endpoint's. */
const pgClaimFault = (plan: PgNode): string | undefined => {
  const wide = nodes(plan).find(
    (node) =>
      (node['Node Type'] === 'Seq Scan' && node['Relation Name'] === 'webhook_deliveries') ||
      node['Index Name'] === 'webhook_deliveries_of_endpoint',
  );
  return wide && `${wide['Node Type']} ${wide['Index Name'] ?? wide['Relation Name']}`;
};

const dir = mkdtempSync(join(tmpdir(), 'claim-plan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the delivery worker's claim on SQLite", () => {
  let db: Database.Database;
  beforeAll(async () => {
    const file = join(dir, 'plan.sqlite');
    await openSqliteStore({ file }).close();
    db = new Database(file);
    db.exec(SQLITE_SEED);
  });
  afterAll(() => db?.close());

  it('reads the pending deliveries by their index, not every delivery of the endpoint', () => {
    const params = { owner: 'worker-1', leaseUntil: NOW, now: NOW, endpoints: JSON.stringify(['env']), limit: 64 };
    const details = (db.prepare(`EXPLAIN QUERY PLAN ${SQLITE_DELIVERY_CLAIM}`).all(params) as { detail: string }[]).map(
      (row) => row.detail,
    );
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
  let pg: TestDatabase;
  beforeAll(async () => {
    pg = await createTestDatabase(TEST_DATABASE_URL!);
    await (await openPostgresStore({ connectionString: pg.url })).close();
    await pg.query(PG_SEED);
  }, 60_000);
  afterAll(async () => pg?.drop());

  it('reads neither the whole table nor every delivery of the endpoint', async () => {
    const { rows } = await pg.query(`EXPLAIN (FORMAT JSON) ${POSTGRES_DELIVERY_CLAIM}`, [['env'], NOW, 'worker-1', NOW, 64]);
    const plan = (rows[0] as { 'QUERY PLAN': [{ Plan: PgNode }] })['QUERY PLAN'][0].Plan;
    expect(pgClaimFault(plan), JSON.stringify(plan)).toBeUndefined();
  });

  it('the plan check fails a Seq Scan and a walk of the endpoint index', () => {
    const scan = { 'Node Type': 'Seq Scan', 'Relation Name': 'webhook_deliveries' };
    const walk = { 'Node Type': 'Index Scan', 'Index Name': 'webhook_deliveries_of_endpoint' };
    expect(pgClaimFault({ 'Node Type': 'Update', Plans: [scan] })).toBe('Seq Scan webhook_deliveries');
    expect(pgClaimFault({ 'Node Type': 'Update', Plans: [walk] })).toBe('Index Scan webhook_deliveries_of_endpoint');
  });
});
