/**
 * `npm run admin -- audit verify` (server/admin-cli.ts) in a child process, on the store of DATA_DIR (SQLite) or
 * DATABASE_URL (PostgreSQL, with TEST_DATABASE_URL): OK with the count and the chain's head while the trail is
 * untouched; once an entry is edited behind the triggers' back, that entry named (its seq and date) and exit code 1;
 * a wrong `audit` command is a usage error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../server/store';
import type { AuditEntry } from '../../../server/store/accounts';
import { runAdminCli, type CliResult } from '../helpers/admin-cli';
import { tempDir } from '../helpers/server';
import { at } from '../store/store-contract';
import { DATABASES, type TestDatabaseEnv } from '../merchant-webhooks/databases';
import { tamper } from './audit-tamper';

/** A process start costs a second or more on a busy machine. */
const SLOW = 60_000;

describe.each(DATABASES)('npm run admin -- audit verify (%s)', (_name, database) => {
  let db: TestDatabaseEnv;
  let dataDir: string;
  let written: AuditEntry[];
  beforeAll(async () => {
    db = await database();
    dataDir = tempDir('audit-verify-');
    const { store, hub } = await openStore({ dataDir, databaseUrl: db.env.DATABASE_URL });
    written = [];
    for (let i = 0; i < 3; i++) {
      const entry = {
        at: at(i),
        actor: 'cli',
        role: null,
        ip: null,
        action: 'user.add',
        target: `u${i}@example.com`,
        outcome: 'ok' as const,
      };
      written.push(await store.appendAudit({ ...entry, details: { role: 'viewer', i } }));
    }
    await hub.close();
    await store.close();
  });
  afterAll(async () => db?.drop());

  function admin(args: string[]): Promise<CliResult> {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, ...db.env };
    if (!db.env.DATABASE_URL) delete env.DATABASE_URL;
    return runAdminCli(args, env);
  }

  it(
    'prints OK with the count, then names the entry edited behind the triggers’ back and exits 1',
    async () => {
      const ok = await admin(['audit', 'verify']);
      expect(ok).toMatchObject({ code: 0, stderr: '' });
      expect(ok.stdout).toMatch(new RegExp(`^OK: 3 audit entries chained; head: entry ${written[2]!.seq}, [0-9a-f]{64}\\n$`));

      const where = db.env.DATABASE_URL ? { databaseUrl: db.env.DATABASE_URL } : { file: `${dataDir}/checkout.sqlite` };
      await tamper(where, `UPDATE audit_log SET target = 'someone-else@example.com' WHERE seq = ${written[1]!.seq}`);
      const broken = await admin(['audit', 'verify']);
      expect(broken.code).toBe(1);
      expect(broken.stdout).toContain(
        `BROKEN: entry ${written[1]!.seq} (at ${written[1]!.at}) does not fit: its content no longer gives its hash`,
      );
      expect(broken.stdout).toContain('The 1 before it fit.');
    },
    SLOW,
  );

  it(
    'refuses an unknown audit command: one line on stderr, exit code 1',
    async () => {
      const refused = await admin(['audit', 'rewrite']);
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim().split('\n')).toEqual([expect.stringMatching(/audit verify/)]);
    },
    SLOW,
  );
});
