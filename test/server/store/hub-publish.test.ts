/**
 * The PostgreSQL hub does not queue its publishes on its one NOTIFY connection: 200 requests publishing at once
 * send their notices in one or two statements, never more than one on the connection at a time, and every other
 * instance hears each of them.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPostgresHub } from '../../../server/store/hub';
import type { StatusHub } from '../../../server/store/types';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from './pg-test-database';

/** Counts the NOTIFY statements sent through any pool, and the most that were on their way at once. */
function watchNotifies() {
  const original = pg.Pool.prototype.query;
  const seen = { statements: 0, inFlight: 0, maxInFlight: 0 };
  const spy = vi.spyOn(pg.Pool.prototype, 'query').mockImplementation(function (this: pg.Pool, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : '';
    const result = (original as (...a: unknown[]) => unknown).apply(this, args);
    if (!text.includes('pg_notify') || !(result instanceof Promise)) return result as never;
    seen.statements++;
    seen.maxInFlight = Math.max(seen.maxInFlight, ++seen.inFlight);
    const done = () => void seen.inFlight--;
    result.then(done, done);
    return result as never;
  });
  return { seen, restore: () => spy.mockRestore() };
}

describe.skipIf(!TEST_DATABASE_URL)('the PostgreSQL hub under 200 concurrent publishes (TEST_DATABASE_URL)', () => {
  let db: TestDatabase;
  const hubs: StatusHub[] = [];
  beforeAll(async () => {
    db = await createTestDatabase(TEST_DATABASE_URL!);
  });
  afterAll(async () => {
    await Promise.all(hubs.map((hub) => hub.close()));
    await db?.drop();
  });

  it('sends them together instead of queueing 200 statements on its connection, and loses none', async () => {
    const publisher = await createPostgresHub({ connectionString: db.url });
    const listener = await createPostgresHub({ connectionString: db.url });
    hubs.push(publisher, listener);
    const heard = new Set<string>();
    const allHeard = new Promise<void>((resolve) =>
      listener.subscribeAll((checkoutId) => {
        heard.add(checkoutId);
        if (heard.size === 200) resolve();
      }),
    );

    const { seen, restore } = watchNotifies();
    try {
      // 200 requests, each publishing after its own await, as transitions finishing together do.
      await Promise.all(
        Array.from({ length: 200 }, async (_, i) => {
          await new Promise((resolve) => setImmediate(resolve));
          publisher.publish(`co-${i}`, 1);
        }),
      );
      await allHeard;
    } finally {
      restore();
    }
    expect(heard.size).toBe(200);
    expect(seen.maxInFlight).toBe(1);
    expect(seen.statements).toBeLessThanOrEqual(3);
  });
});
