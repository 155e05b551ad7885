/**
 * Whether the store answers and its schema is the one this code needs: `GET /readyz` (server/readiness.ts) asks it.
 * Written once for both databases. A step built online (./migrate-online.ts) is not waited for: queries read the same
 * rows without its indexes.
 */
import { migrations } from './migrations';
import type { Db } from './sql/db';
import { get } from './sql/work';

export interface ReadinessStore {
  /** Undefined when ready; else why not (`schema_behind`). Rejects when the database does not answer. */
  notReady(): Promise<'schema_behind' | undefined>;
}

const NEEDED = migrations.filter((step) => !step.online).map((step) => step.version);

export function readinessPart(db: Db): ReadinessStore {
  const query = `SELECT count(*) AS applied FROM schema_migrations WHERE version IN (${NEEDED.join(', ')})`;
  return {
    async notReady() {
      const row = await db.read(() => get<{ applied: number | string }>(query));
      return Number(row?.applied ?? 0) === NEEDED.length ? undefined : 'schema_behind';
    },
  };
}
