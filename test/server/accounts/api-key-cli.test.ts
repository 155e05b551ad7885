/**
 * `npm run admin -- api-key …` (server/admin-api-keys.ts) in a child process, on SQLite and (with TEST_DATABASE_URL)
 * PostgreSQL: a key created is printed once on stdout alone and kept as its hash, listed without it, revoked; a bad
 * role is one line on stderr and exit code 1; each change is in the audit trail as `cli`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useApiKey } from '../../../server/accounts/api-keys';
import { systemClock } from '../../../server/lib/clock';
import { openStore } from '../../../server/store';
import { runAdminCli } from '../helpers/admin-cli';
import { tempDir } from '../helpers/server';
import { DATABASES, type TestDatabaseEnv } from '../merchant-webhooks/databases';

const SLOW = 60_000;

describe.each(DATABASES)('npm run admin -- api-key (%s)', (_name, database) => {
  let db: TestDatabaseEnv;
  let dataDir: string;
  beforeAll(async () => {
    db = await database();
    dataDir = tempDir('api-key-cli-');
  });
  afterAll(async () => db?.drop());

  const admin = (args: string[]) => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, ...db.env };
    if (!db.env.DATABASE_URL) delete env.DATABASE_URL;
    return runAdminCli(['api-key', ...args], env);
  };

  it(
    'creates a key shown once, lists it without the key, revokes it, and records both as cli',
    async () => {
      const created = await admin(['create', 'billing-sync', '--role', 'operator', '--expires', '2999-01-01']);
      expect(created.code).toBe(0);
      const key = created.stdout.trim();
      expect(key).toMatch(/^pck_live_[A-Za-z0-9_-]{43}$/);
      expect(created.stderr).toMatch(/Created billing-sync \(key_[A-Za-z0-9_-]+\) as operator/);
      const id = /\((key_[A-Za-z0-9_-]+)\)/.exec(created.stderr)![1]!;

      const listed = await admin(['list']);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain('billing-sync');
      expect(listed.stdout).toContain(key.slice(0, 17));
      expect(listed.stdout).not.toContain(key);

      expect(await admin(['revoke', id])).toMatchObject({ code: 0 });
      const { store, hub } = await openStore({ dataDir, databaseUrl: db.env.DATABASE_URL });
      try {
        expect(await useApiKey({ store, clock: systemClock }, key)).toBeUndefined();
        const trail = await store.listAudit({ limit: 10, actor: 'cli', action: 'api_key' });
        expect(trail.map((e) => e.action)).toEqual(['api_key.revoke', 'api_key.create']);
      } finally {
        await hub.close();
        await store.close();
      }
    },
    SLOW,
  );

  it(
    'refuses a bad role in one line, exit code 1',
    async () => {
      const refused = await admin(['create', 'x', '--role', 'god']);
      expect(refused).toMatchObject({ code: 1, stdout: '' });
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    },
    SLOW,
  );
});
