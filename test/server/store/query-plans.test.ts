/**
 * No statement the product runs reads an unbounded share of a large table (bench/lib/query-plans.ts says what that
 * means on each database): every SQL statement run during one walk through the product (bench/lib/plan-workload.ts:
 * the payment path, webhooks, the merchant's events and their deliveries, the reconciler, the console's lists, pages,
 * refunds and exports) is caught as it runs and planned by its database, on SQLite and (with TEST_DATABASE_URL)
 * PostgreSQL. The console's payments list and the reconciler's claims are left to their own, finer tests
 * (./list-plans.test.ts, ./reconcile-plans.test.ts), which plan them on 20,000 analysed rows: the planner's choice for
 * them depends on statistics that the few rows of this walk do not have. (On SQLite the list and its refunds run in
 * the reader's thread, server/store/sqlite-reader.ts, where this capture does not reach: those tests plan them.)
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../server/lib/clock';
import { storeWorkload, WORKLOAD_ADMIN_TOKEN } from '../../../bench/lib/plan-workload';
import {
  captureQueries,
  explainPostgres,
  explainSqlite,
  headline,
  isProducts,
  plannedElsewhere,
  type Capture,
  type Plan,
} from '../../../bench/lib/query-plans';
import { DATABASES, type TestDatabaseEnv } from '../events/databases';
import { startTestServer, type TestServer } from '../helpers/server';

describe.each(DATABASES)('the plan of every statement the product runs (%s)', (name, database) => {
  let db: TestDatabaseEnv;
  let server: TestServer;
  let capture: Capture;
  const plans: Plan[] = [];
  beforeAll(async () => {
    db = await database();
    const clock = new ManualClock(new Date());
    capture = captureQueries(Database, pg);
    try {
      server = await startTestServer({ env: { ADMIN_TOKEN: WORKLOAD_ADMIN_TOKEN, ...db.env }, start: { clock } });
      await storeWorkload(server, clock);
    } finally {
      capture.stop();
    }
    const queries = [...capture.queries.values()].filter((q) => (name === 'SQLite' ? isProducts(q) : q.database === 'postgres'));
    if (name === 'SQLite') for (const query of queries) plans.push(explainSqlite(query));
    else {
      const client = new pg.Client({ connectionString: db.env.DATABASE_URL });
      await client.connect();
      try {
        for (const query of queries) plans.push(await explainPostgres(client, query));
      } finally {
        await client.end();
      }
    }
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  it('caught the statements of each part of the walk', () => {
    const sql = plans.map((plan) => plan.query.sql).join('\n');
    // Each part of the walk ran statements on the tables it owns (so a capture that missed them would fail here).
    for (const table of ['checkouts', 'checkout_events', 'merchant_events', 'webhook_deliveries', 'cashouts', 'audit_log'])
      expect(sql, table).toMatch(new RegExp(`\\b${table}\\b`));
    expect(plans.length).toBeGreaterThan(30);
  });

  it('finds no statement that reads an unbounded share of a large table', () => {
    const unbounded = plans
      .filter((plan) => plan.unbounded.length > 0 && !plannedElsewhere(plan.query.sql))
      .map((plan) => `${headline(plan.query.sql)}\n    ${plan.unbounded.join('; ')}\n${plan.lines.map((l) => `      ${l}`).join('\n')}`);
    expect(unbounded, `${unbounded.length} of ${plans.length} statements`).toEqual([]);
  });
});
