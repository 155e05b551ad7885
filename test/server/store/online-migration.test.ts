/**
 * Online schema steps (server/store/migrate.ts, migrate-online.ts): a store whose step 14 (the payments
 * list's indexes) is still pending over a table with rows opens and answers at once, lists the same rows while the
 * indexes are being built, and records the step once they exist. The build is held (`onlineMigrationsAfter`) so the
 * test looks at the store while the step is pending, whatever the machine's speed; on SQLite and (with
 * TEST_DATABASE_URL) PostgreSQL. On PostgreSQL, an instance that found another one building takes the step over when
 * that one dies.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildOnlinePostgres } from '../../../server/store/migrate-online';
import { indexSteps, LIST_INDEXES } from '../../../server/store/migrations-indexes';
import { openPostgresStore } from '../../../server/store/postgres';
import { openSqliteStore } from '../../../server/store/sqlite';
import type { Store } from '../../../server/store/types';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from './pg-test-database';
import { at, draftFor } from './store-contract';

const STEP = 14;
const INDEXES = [LIST_INDEXES.state, LIST_INDEXES.method, LIST_INDEXES.flagged];

const dir = mkdtempSync(join(tmpdir(), 'online-migration-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let pg_: TestDatabase | undefined;
afterAll(async () => pg_?.drop());

/** What a database tells of step 14: whether it is recorded, and which of its indexes exist. */
interface Database14 {
  recorded(): Promise<boolean>;
  indexes(): Promise<string[]>;
  /** Puts the database back to before step 14: its indexes dropped, its record deleted. */
  undo(): Promise<void>;
}

interface Backend {
  name: string;
  open(after?: Promise<void>): Promise<Store>;
  db: Database14;
}

function sqliteBackend(): Backend {
  const file = join(dir, 'store.sqlite');
  const run = <T>(work: (db: Database.Database) => T) => {
    const db = new Database(file);
    try {
      return work(db);
    } finally {
      db.close();
    }
  };
  return {
    name: 'SQLite',
    open: async (after) => openSqliteStore({ file, ...(after ? { onlineMigrationsAfter: after } : {}) }),
    db: {
      recorded: async () => run((db) => db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').get(STEP) !== undefined),
      indexes: async () =>
        run((db) => db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name`).pluck().all() as string[]).filter((n) =>
          INDEXES.includes(n as never),
        ),
      undo: async () =>
        run((db) => {
          for (const name of INDEXES) db.exec(`DROP INDEX ${name}`);
          db.prepare('DELETE FROM schema_migrations WHERE version = ?').run(STEP);
        }),
    },
  };
}

async function postgresBackend(): Promise<Backend> {
  pg_ ??= await createTestDatabase(TEST_DATABASE_URL!);
  const database = pg_;
  return {
    name: 'PostgreSQL',
    open: async (after) => openPostgresStore({ connectionString: database.url, ...(after ? { onlineMigrationsAfter: after } : {}) }),
    db: {
      recorded: async () => (await database.query('SELECT 1 FROM schema_migrations WHERE version = $1', [STEP])).rowCount === 1,
      indexes: async () =>
        (await database.query(`SELECT indexname FROM pg_indexes WHERE indexname = ANY($1) ORDER BY indexname`, [INDEXES])).rows.map(
          (row: { indexname: string }) => row.indexname,
        ),
      undo: async () => {
        for (const name of INDEXES) await database.query(`DROP INDEX ${name}`);
        await database.query('DELETE FROM schema_migrations WHERE version = $1', [STEP]);
      },
    },
  };
}

const backends: (() => Backend | Promise<Backend>)[] = [sqliteBackend, ...(TEST_DATABASE_URL ? [postgresBackend] : [])];

/** Waits until `check` holds (the build runs in the background), for at most 20 s. */
async function until(check: () => Promise<boolean>) {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the online step');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(backends.map((make) => [make.name.replace('Backend', ''), make] as const))('an online schema step (%s)', (_name, make) => {
  it('lets the store open and answer while its indexes are pending, then builds them and records the step', async () => {
    const backend = await make();
    // A store at the latest version with checkouts in it, then put back to before step 14.
    const seeded = await backend.open();
    for (let i = 0; i < 30; i++) {
      const draft = draftFor(`O-${i}`, { id: `co-${String(i).padStart(3, '0')}`, createdAt: at(i), expiresAt: at(i + 30) });
      await seeded.insertActive(
        draft,
        { state: i % 3 === 0 ? 'Completed' : 'Expired', transactionId: `tx-${i}`, details: {} },
        'webhook',
        null,
        at(i),
      );
    }
    const completed = (await seeded.listCheckouts({ states: ['Completed'] }, 100)).map((c) => c.id);
    expect(completed).toHaveLength(10);
    await seeded.close();
    await backend.db.undo();

    let release!: () => void;
    const store = await backend.open(new Promise<void>((resolve) => (release = resolve)));
    try {
      // Open and answering, the step pending: no index yet, the same rows listed (by state, method, flag).
      expect(await backend.db.recorded()).toBe(false);
      expect(await backend.db.indexes()).toEqual([]);
      expect((await store.listCheckouts({ states: ['Completed'] }, 100)).map((c) => c.id)).toEqual(completed);
      expect(await store.listCheckouts({ method: 'openfinance' }, 100)).toEqual([]);
      expect(await store.listCheckouts({ flag: 'flagged' }, 100)).toEqual([]);
      expect((await store.getCheckout('co-003'))?.state).toBe('Completed');

      release();
      await until(() => backend.db.recorded());
      expect(await backend.db.indexes()).toEqual([...INDEXES].sort());
      expect((await store.listCheckouts({ states: ['Completed'] }, 100)).map((c) => c.id)).toEqual(completed);
    } finally {
      release();
      await store.close();
    }
  });
});

describe.skipIf(!TEST_DATABASE_URL)('an online schema step whose builder dies (PostgreSQL, TEST_DATABASE_URL)', () => {
  it('is taken over by a waiting instance once the lock is free, and built and recorded', async () => {
    const backend = await postgresBackend();
    await (await backend.open()).close();
    await backend.db.undo();
    // Another instance holds the builders' lock, as a build in progress does.
    const builder = new pg.Client({ connectionString: pg_!.url });
    await builder.connect();
    await builder.query(`SELECT pg_advisory_lock(hashtext('checkout-store online indexes'))`);
    const pool = new pg.Pool({ connectionString: pg_!.url, max: 2 });
    const step = indexSteps.find((s) => s.version === STEP)!;
    const waiting = buildOnlinePostgres(pool, [step], { after: Promise.resolve(), pollMs: 50 });
    try {
      // It leaves the work to the holder while the holder lives.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await backend.db.recorded()).toBe(false);
      expect(await backend.db.indexes()).toEqual([]);
      // The holder's instance dies: its session ends, the lock with it.
      const pid = (builder as unknown as { processID: number }).processID;
      builder.on('error', () => undefined);
      await pg_!.query('SELECT pg_terminate_backend($1)', [pid]);
      await waiting.done;
      expect(await backend.db.recorded()).toBe(true);
      expect(await backend.db.indexes()).toEqual([...INDEXES].sort());
    } finally {
      await waiting.stop();
      await pool.end();
      await builder.end().catch(() => undefined);
    }
  });
});
