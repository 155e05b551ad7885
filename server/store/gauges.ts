/**
 * What the metrics read from the store at each scrape (server/metrics/registry.ts), written once for both databases:
 * the checkouts that still await their payer, and the merchant's events still owed to an endpoint. Each is one
 * statement over a partial index (`checkouts_live`, `webhook_deliveries_due`), so a scrape reads
 * the live rows, never the history. In PostgreSQL they are every instance's, hence the gauges' help text.
 */
import { LIVE_STATES } from '../../core/states';
import type { Db } from './sql/db';
import { all, get } from './sql/work';

export interface StoreGauges {
  /**
   * The checkouts in `Created` or `Registered` (`LIVE_STATES`: waiting for the payer), counted by method, and how many
   * of them are past their payment window at `now` (the reconciler expires those within a pass: any that stay are stuck).
   */
  liveCheckouts(now: Date): Promise<{ method: string; count: number; pastWindow: number }[]>;
  /** The pending deliveries of the merchant's events, and when the oldest of their events was written. */
  merchantBacklog(): Promise<{ events: number; oldestAt: Date | undefined }>;
  /** PostgreSQL: the clients waiting for one of the pool's connections; undefined for SQLite. */
  waitingClients(): number | undefined;
}

const LIVE = `SELECT method, count(*) AS n, sum(CASE WHEN expires_at <= @now THEN 1 ELSE 0 END) AS past FROM checkouts
  WHERE state IN (${LIVE_STATES.map((state) => `'${state}'`).join(', ')}) GROUP BY method`;

const BACKLOG = `SELECT count(*) AS n, min(e.created_at) AS oldest FROM webhook_deliveries d
  JOIN merchant_events e ON e.seq = d.event_seq WHERE d.state = 'pending'`;

export function gaugesPart(db: Db, waitingClients: () => number | undefined = () => undefined): StoreGauges {
  return {
    async liveCheckouts(now) {
      const rows = await db.read(() =>
        all<{ method: string; n: number | string; past: number | string | null }>(LIVE, { now: now.toISOString() }),
      );
      return rows.map((row) => ({ method: row.method, count: Number(row.n), pastWindow: Number(row.past ?? 0) }));
    },
    async merchantBacklog() {
      const row = await db.read(() => get<{ n: number | string; oldest: string | Date | null }>(BACKLOG));
      const oldest = row?.oldest;
      return { events: Number(row?.n ?? 0), oldestAt: oldest === null || oldest === undefined ? undefined : new Date(oldest) };
    },
    waitingClients,
  };
}
