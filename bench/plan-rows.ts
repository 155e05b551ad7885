/**
 * The query plans of `npm run bench`: one walk through the product (./lib/plan-workload.ts) on SQLite, and on
 * PostgreSQL when TEST_DATABASE_URL or DATABASE_URL is set, with every statement it runs caught and planned
 * (./lib/query-plans.ts). Prints each statement with its plan, and gives one row per database: the statements whose
 * plan reads an unbounded share of a large table (goal 0; test/server/store/query-plans.test.ts fails on any), beside
 * how many statements the walk ran. The console's payments list and the reconciler's claims are left to their own
 * plan tests on thousands of analysed rows (`plannedElsewhere`).
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { ManualClock } from '../server/lib/clock';
import { createTestDatabase } from '../test/server/store/pg-test-database';
import { startTestServer } from '../test/server/helpers/server';
import { storeWorkload, WORKLOAD_ADMIN_TOKEN } from './lib/plan-workload';
import { captureQueries, explainPostgres, explainSqlite, headline, isProducts, plannedElsewhere, type Plan } from './lib/query-plans';
import type { Row } from './rows';

export interface PlanFigures {
  database: 'SQLite' | 'PostgreSQL';
  statements: number;
  unbounded: { sql: string; why: string[] }[];
  plans: { sql: string; runs: number; plan: string[] }[];
}

/** The walk on a fresh server (`env`: its database), every statement it ran with its plan; the plans test's too. */
export async function planTheWalk(database: PlanFigures['database'], env: Record<string, string>): Promise<Plan[]> {
  const clock = new ManualClock(new Date());
  const capture = captureQueries(Database, pg);
  let server: Awaited<ReturnType<typeof startTestServer>> | undefined;
  try {
    server = await startTestServer({ env: { ADMIN_TOKEN: WORKLOAD_ADMIN_TOKEN, ...env }, start: { clock } });
    await storeWorkload(server, clock);
  } finally {
    capture.stop();
  }
  try {
    const queries = [...capture.queries.values()].filter((q) => (database === 'SQLite' ? isProducts(q) : q.database === 'postgres'));
    if (database === 'SQLite') return queries.map(explainSqlite);
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    try {
      const plans: Plan[] = [];
      for (const query of queries) plans.push(await explainPostgres(client, query));
      return plans;
    } finally {
      await client.end();
    }
  } finally {
    await server.close();
  }
}

export async function planRows({ log }: { log: (line: string) => void }): Promise<PlanFigures[]> {
  const url = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  const figures: PlanFigures[] = [];
  for (const database of ['SQLite', ...(url ? ['PostgreSQL'] : [])] as PlanFigures['database'][]) {
    const pgDatabase = database === 'PostgreSQL' ? await createTestDatabase(url!) : undefined;
    try {
      log(`bench: the plan of every statement of one walk through the product, ${database}`);
      const plans = await planTheWalk(database, pgDatabase ? { DATABASE_URL: pgDatabase.url } : {});
      figures.push({
        database,
        statements: plans.length,
        unbounded: plans
          .filter((plan) => plan.unbounded.length > 0 && !plannedElsewhere(plan.query.sql))
          .map((plan) => ({ sql: headline(plan.query.sql), why: plan.unbounded })),
        plans: plans.map((plan) => ({ sql: headline(plan.query.sql, 160), runs: plan.query.runs, plan: plan.lines })),
      });
    } finally {
      await pgDatabase?.drop();
    }
  }
  return figures;
}

/** Every statement with its plan, for the bench's output. */
export function printPlans(figures: PlanFigures[]): string {
  return figures
    .map(({ database, plans }) =>
      [
        `Query plans, ${database} (${plans.length} statements):`,
        ...plans.map((p) => `  ${p.runs}× ${p.sql}\n${p.plan.map((l) => `      ${l}`).join('\n')}`),
      ].join('\n'),
    )
    .join('\n\n');
}

export function planTable(figures: PlanFigures[]): Row[] {
  return figures.map(({ database, statements, unbounded }) => ({
    id: `plans-unbounded-${database.toLowerCase()}`,
    what: `Statements of one walk through the product (payments, webhooks, events, reconciler, console) whose plan reads an unbounded share of a large table, ${database}${unbounded.length ? `: ${unbounded.map((u) => u.sql.slice(0, 60)).join('; ')}` : ''}`,
    value: unbounded.length,
    unit: '',
    better: 'lower',
    baseline: `${statements} statements planned`,
    baselineValue: null,
    goal: '0',
    met: unbounded.length === 0,
  }));
}
