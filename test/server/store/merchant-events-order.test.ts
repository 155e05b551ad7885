/**
 * PostgreSQL hands `seq` out at insert, not at commit. The merchant's events are read from a cursor in `seq` order
 * (the pull feed, each endpoint's delivery queue), so a transaction that wrote a lower `seq` and commits after a higher
 * one would be passed by every reader and never delivered (the soak found 9 of 703). Every event-writing transaction
 * therefore waits for the one before it to commit: this pins that a second writer cannot get past a first one still
 * open, so `seq` order is commit order.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewMerchantEvent } from '../../../server/store/merchant-events';
import { merchantEventWriter } from '../../../server/store/merchant-event-writes';
import { postgresDialect } from '../../../server/store/sql/dialect';
import { compileNamed } from '../../../server/store/sql/postgres-executor';
import { driveAsync } from '../../../server/store/sql/work';

/** The store's own event write (the parts' writer), carried out on `client` inside the caller's transaction. */
const writer = merchantEventWriter(postgresDialect);
const insertMerchantEvent = (client: pg.PoolClient, event: NewMerchantEvent) =>
  driveAsync(writer.write(event), async (op) => {
    const { text, names } = compileNamed(op.sql);
    const result = await client.query(
      text,
      names.map((name) => op.params[name] ?? null),
    );
    return op.kind === 'run' ? result.rowCount : op.kind === 'get' ? result.rows[0] : result.rows;
  });
import { openPostgresStore } from '../../../server/store/postgres';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from './pg-test-database';

describe.skipIf(!TEST_DATABASE_URL)("the merchant's events on PostgreSQL", () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    db = await createTestDatabase(TEST_DATABASE_URL!);
    await (await openPostgresStore({ connectionString: db.url })).close(); // migrates
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  const event = (id: string): NewMerchantEvent => ({ id, type: 'checkout.completed', createdAt: new Date().toISOString(), data: {} });

  it('commit in seq order: a second writer waits for the first one to commit', async () => {
    const first = await pool.connect();
    const second = await pool.connect();
    try {
      await first.query('BEGIN');
      await insertMerchantEvent(first, event('evt_first'));
      await second.query('BEGIN');
      let secondWrote = false;
      const writing = insertMerchantEvent(second, event('evt_second')).then(() => (secondWrote = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Still open: the second writer has not got its number yet, so no reader can see it before the first.
      expect(secondWrote).toBe(false);
      await first.query('COMMIT');
      await writing;
      await second.query('COMMIT');
      const { rows } = await first.query<{ id: string }>(`SELECT id FROM merchant_events WHERE id LIKE 'evt_%' ORDER BY seq`);
      expect(rows.map((row) => row.id)).toEqual(['evt_first', 'evt_second']);
    } finally {
      first.release();
      second.release();
    }
  });
});
