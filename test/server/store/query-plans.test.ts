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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planTheWalk } from '../../../bench/plan-rows';
import { headline, plannedElsewhere, type Plan } from '../../../bench/lib/query-plans';
import { DATABASES, type TestDatabaseEnv } from '../merchant-webhooks/databases';

describe.each(DATABASES)('the plan of every statement the product runs (%s)', (name, database) => {
  let db: TestDatabaseEnv;
  let plans: Plan[] = [];
  beforeAll(async () => {
    db = await database();
    plans = await planTheWalk(name as 'SQLite' | 'PostgreSQL', db.env);
  }, 60_000);
  afterAll(() => db?.drop());

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
