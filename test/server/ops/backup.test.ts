/**
 * `npm run admin -- backup <file>` while a real server takes payments, then `restore <file>` into a new data folder:
 * every checkout committed before the backup began is there with its state. A file that is no store, a server still
 * holding the database, and DATABASE_URL are refused with one line and exit code 1, the live store left untouched.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCli } from '../helpers/admin-cli';
import { openStore } from '../../../server/store';
import { startTestServer, tempDir, type TestServer } from '../helpers/server';

/** A process start costs a second or more on a busy machine. */
const SLOW = 60_000;

function admin(dataDir: string, args: string[], env: Record<string, string> = {}) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, ...env };
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  return runAdminCli(args, childEnv);
}

describe('npm run admin -- backup / restore (SQLite)', () => {
  let server: TestServer;
  beforeAll(async () => {
    // No per-client checkout limit: the test makes payments in a loop from one address.
    server = await startTestServer({ env: { CHECKOUT_RATE_PER_MINUTE: '0' } });
  }, SLOW);
  afterAll(async () => server?.close());

  const pay = async () => {
    const { orderId, orderToken } = await server.order();
    const created = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    expect(created.status).toBe(201);
    return created.body as { id: string; state: string };
  };

  it(
    'copies the store while payments go on; the restore holds every checkout committed before',
    async () => {
      // A reader holds its snapshot from before these payments (as a long console export would), so no checkpoint
      // copies them into the database file: they are in its WAL alone, which a copy of the file itself would miss.
      const reader = new Database(join(server.dataDir, 'checkout.sqlite'), { readonly: true });
      reader.exec('BEGIN');
      reader.prepare('SELECT count(*) FROM checkouts').get();
      const before: { id: string; state: string }[] = [];
      for (let i = 0; i < 5; i++) before.push(await pay());
      const file = join(tempDir('backup-'), 'store.sqlite');
      let writing = true;
      const during = (async () => {
        let made = 0;
        while (writing) {
          await pay();
          made++;
        }
        return made;
      })();
      const backup = await admin(server.dataDir, ['backup', file]);
      writing = false;
      reader.exec('COMMIT');
      reader.close();
      expect(await during).toBeGreaterThan(0);
      expect(backup).toMatchObject({ code: 0, stderr: '' });

      const fresh = tempDir('restored-');
      const restore = await admin(fresh, ['restore', file]);
      expect(restore).toMatchObject({ code: 0, stderr: '' });
      const { store, hub } = await openStore({ dataDir: fresh });
      try {
        for (const { id, state } of before) expect(await store.getCheckout(id)).toMatchObject({ id, state });
      } finally {
        await hub.close();
        await store.close();
      }

      // A second restore keeps the replaced store aside.
      expect(await admin(fresh, ['restore', file])).toMatchObject({ code: 0 });
      expect(readdirSync(fresh).some((name) => name.startsWith('checkout.sqlite.before-restore-'))).toBe(true);
    },
    SLOW * 2,
  );

  it(
    'refuses while the server holds the database, and leaves it alone',
    async () => {
      const file = join(tempDir('backup-'), 'store.sqlite');
      expect((await admin(server.dataDir, ['backup', file])).code).toBe(0);
      const refused = await admin(server.dataDir, ['restore', file]);
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
      expect(refused.stderr).toMatch(/in use/);
      expect(readdirSync(server.dataDir).some((name) => name.includes('before-restore'))).toBe(false);
      expect((await pay()).state).toBeTruthy();
    },
    SLOW,
  );

  it(
    'refuses a file that is not a store backup, and an existing target',
    async () => {
      const dir = tempDir('bad-');
      const text = join(dir, 'notes.txt');
      writeFileSync(text, 'not a database');
      const notSqlite = await admin(dir, ['restore', text]);
      expect(notSqlite.code).toBe(1);
      expect(notSqlite.stderr).toMatch(/not a SQLite database/);
      expect(existsSync(join(dir, 'checkout.sqlite'))).toBe(false);

      const missing = await admin(dir, ['restore', join(dir, 'none.sqlite')]);
      expect(missing.code).toBe(1);
      expect((await admin(server.dataDir, ['backup', text])).stderr).toMatch(/exists already/);
    },
    SLOW,
  );

  it(
    "refuses a newer release's backup: a schema step this one does not know",
    async () => {
      const file = join(tempDir('backup-'), 'store.sqlite');
      expect((await admin(server.dataDir, ['backup', file])).code).toBe(0);
      const db = new Database(file);
      db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'from the future', '2030-01-01')").run();
      db.close();
      const fresh = tempDir('restored-');
      const refused = await admin(fresh, ['restore', file]);
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim()).toBe(`admin: ${file} has schema steps this release does not know (9999).`);
      expect(existsSync(join(fresh, 'checkout.sqlite'))).toBe(false);
    },
    SLOW,
  );

  it(
    'points to pg_dump / pg_restore with DATABASE_URL',
    async () => {
      const env = { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' };
      const backup = await admin(tempDir('pg-'), ['backup', 'x.dump'], env);
      expect(backup.code).toBe(1);
      expect(backup.stderr).toMatch(/pg_dump -Fc/);
      const restore = await admin(tempDir('pg-'), ['restore', 'x.dump'], env);
      expect(restore.code).toBe(1);
      expect(restore.stderr).toMatch(/pg_restore/);
    },
    SLOW,
  );
});
