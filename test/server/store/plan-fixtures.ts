/**
 * What the plan tests share (./list-plans, ./reconcile-plans, ../events/claim-plan): a database with the store's
 * schema and a test's seed, on each store, and its plan of a statement read back (SQLite's EXPLAIN QUERY PLAN lines,
 * PostgreSQL's EXPLAIN (FORMAT JSON) tree). Each test keeps its own seed and its own idea of a bad plan.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll } from 'vitest';
import { openPostgresStore } from '../../../server/store/postgres';
import { openSqliteStore } from '../../../server/store/sqlite';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from './pg-test-database';

/** A node of PostgreSQL's JSON plan, as far as the plan tests read it. */
export interface PgNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Subplan Name'?: string;
  Plans?: PgNode[];
}

/** `node` and every node under it. */
export const pgNodes = (node: PgNode): PgNode[] => [node, ...(node.Plans ?? []).flatMap(pgNodes)];

/**
 * Why a claim's plan could lease more rows than its limit, or undefined: its rows must be picked and locked
 * (`LockRows`) once, inside the materialized CTE `picked`. A pick written as `id IN (subquery … LIMIT … FOR UPDATE)`
 * is a subquery the planner may run again for each row it joins, each run taking rows of its own.
 */
export function pgPickFault(plan: PgNode): string | undefined {
  const ctes = pgNodes(plan).filter((node) => node['Subplan Name'] === 'CTE picked');
  if (ctes.length !== 1) return 'no materialized CTE named picked';
  const insideCte = new Set(pgNodes(ctes[0]!));
  const locks = pgNodes(plan).filter((node) => node['Node Type'] === 'LockRows');
  if (locks.length === 0) return 'no LockRows';
  return locks.every((node) => insideCte.has(node)) ? undefined : 'LockRows outside the CTE picked';
}

/** Within a `describe`: a SQLite file at the store's latest schema with `seed` run over it, for the block's tests. */
export function seededSqlite(seed: string): () => Database.Database {
  let dir: string | undefined;
  let db: Database.Database | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'plans-'));
    const file = join(dir, 'plans.sqlite');
    await openSqliteStore({ file }).close();
    db = new Database(file);
    db.exec(seed);
  });
  afterAll(() => {
    db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return () => db!;
}

/** Within a `describe` (skipped without TEST_DATABASE_URL): a PostgreSQL database at the latest schema, seeded. */
export function seededPostgres(seed: string): () => TestDatabase {
  let pg: TestDatabase | undefined;
  beforeAll(async () => {
    pg = await createTestDatabase(TEST_DATABASE_URL!);
    await (await openPostgresStore({ connectionString: pg.url })).close();
    await pg.query(seed);
  }, 60_000);
  afterAll(async () => pg?.drop());
  return () => pg!;
}

/** SQLite's plan of `text` with `params`: its lines. */
export const sqlitePlan = (db: Database.Database, text: string, params: unknown): string[] =>
  (db.prepare(`EXPLAIN QUERY PLAN ${text}`).all(params as never) as { detail: string }[]).map((row) => row.detail);

/** PostgreSQL's plan of `text` with `values`: the root of its tree. */
export async function pgPlan(pg: TestDatabase, text: string, values: readonly unknown[]): Promise<PgNode> {
  const { rows } = await pg.query(`EXPLAIN (FORMAT JSON) ${text}`, [...values]);
  return (rows[0] as { 'QUERY PLAN': [{ Plan: PgNode }] })['QUERY PLAN'][0].Plan;
}
