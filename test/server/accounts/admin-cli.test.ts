/**
 * `npm run admin` (server/admin-cli.ts) as a merchant runs it, in a child process on the store of DATA_DIR (SQLite)
 * or DATABASE_URL (PostgreSQL, with TEST_DATABASE_URL): a user added with its password on standard input, listed,
 * disabled and enabled, given a new password; a short password, an unknown user and a bad command are one line on
 * stderr and exit code 1; every change is in the audit trail as `cli`.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCli, type CliResult } from '../helpers/admin-cli';
import { verifyPassword } from '../../../server/accounts/passwords';
import { openStore } from '../../../server/store';
import { DATABASES, type TestDatabaseEnv } from '../merchant-webhooks/databases';
import { tempDir } from '../helpers/server';

/** A process start costs a second or more on a busy machine; a test here starts up to six. */
const SLOW = 60_000;

describe.each(DATABASES)('npm run admin (%s)', (_name, database) => {
  let db: TestDatabaseEnv;
  let dataDir: string;
  beforeAll(async () => {
    db = await database();
    dataDir = tempDir('admin-cli-');
  });
  afterAll(async () => db?.drop());

  /** Runs the CLI with `args`, writing `stdin` to it; resolves with its exit code and output. */
  function admin(args: string[], stdin = ''): Promise<CliResult> {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, ...db.env };
    if (!db.env.DATABASE_URL) delete env.DATABASE_URL;
    return runAdminCli(args, env, stdin);
  }

  /** The store the CLI wrote to, opened as the server would, for `work`. */
  async function withStore<T>(work: (store: Awaited<ReturnType<typeof openStore>>['store']) => Promise<T>): Promise<T> {
    const { store, hub } = await openStore({ dataDir, databaseUrl: db.env.DATABASE_URL });
    try {
      return await work(store);
    } finally {
      await hub.close();
      await store.close();
    }
  }

  const email = `Owner-${randomUUID()}@Example.com`;
  const password = 'a long enough password';

  it(
    'adds a user with the password read from stdin, and lists it',
    async () => {
      const added = await admin(['user', 'add', email, '--role', 'owner', '--password-stdin'], `${password}\nignored second line\n`);
      expect(added).toMatchObject({ code: 0, stderr: '' });
      expect(added.stdout).toContain(email.toLowerCase());
      const listed = await admin(['user', 'list']);
      expect(listed.code).toBe(0);
      const lines = listed.stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^EMAIL\s+ROLE\s+STATE\s+LAST SIGN-IN$/);
      expect(lines.slice(1)).toContainEqual(expect.stringMatching(new RegExp(`^${email.toLowerCase()}\\s+owner\\s+enabled\\s+never$`)));
      expect(listed.stdout).not.toContain(password);
      await withStore(async (store) => {
        const user = (await store.findUserByEmail(email))!;
        expect(await verifyPassword(password, user.passwordHash)).toBe(true);
        expect(await store.listAudit({ limit: 5, actor: 'cli', action: 'user.add' })).toMatchObject([
          { actor: 'cli', role: null, ip: null, target: email.toLowerCase(), outcome: 'ok', details: { role: 'owner' } },
        ]);
      });
    },
    SLOW,
  );

  it(
    'refuses a password under 12 characters: one line on stderr, exit code 1, no user',
    async () => {
      const other = `short-${randomUUID()}@example.com`;
      const refused = await admin(['user', 'add', other, '--role', 'viewer', '--password-stdin'], 'elevenchars\n');
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim().split('\n')).toEqual([expect.stringMatching(/at least 12 characters/)]);
      expect(refused.stdout).toBe('');
      expect(await withStore((store) => store.findUserByEmail(other))).toBeUndefined();
    },
    SLOW,
  );

  it(
    'disables and enables a user, and sets a new password',
    async () => {
      const second = `second-${randomUUID()}@example.com`;
      expect((await admin(['user', 'add', second, '--role', 'viewer', '--password-stdin'], `${password}\n`)).code).toBe(0);
      expect((await admin(['user', 'disable', second])).code).toBe(0);
      expect((await admin(['user', 'list'])).stdout).toMatch(new RegExp(`${second}\\s+viewer\\s+disabled`));
      expect((await admin(['user', 'enable', second])).code).toBe(0);
      expect((await admin(['user', 'reset-password', second, '--password-stdin'], 'another long password\r\n')).code).toBe(0);
      await withStore(async (store) => {
        const user = (await store.findUserByEmail(second))!;
        expect(user.disabledAt).toBeNull();
        expect(await verifyPassword('another long password', user.passwordHash)).toBe(true);
        const actions = (await store.listAudit({ limit: 10, actor: 'cli' })).filter((e) => e.target === second).map((e) => e.action);
        expect(actions).toEqual(['user.reset_password', 'user.enable', 'user.disable', 'user.add']);
      });
    },
    SLOW,
  );

  it(
    'says what is wrong in one line, exit code 1, for an unknown user, a missing flag or command',
    async () => {
      const cases: [string[], RegExp][] = [
        [['user', 'disable', `nobody-${randomUUID()}@example.com`], /No such user/],
        [['user', 'add', 'x@example.com', '--role', 'owner'], /--password-stdin/],
        [['user', 'add', 'x@example.com', '--role', 'admin', '--password-stdin'], /--role viewer\|operator\|owner/],
        [['frobnicate'], /Unknown command/],
      ];
      for (const [args, message] of cases) {
        const result = await admin(args, `${password}\n`);
        expect(result.code).toBe(1);
        expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(message)]);
        expect(result.stderr).not.toMatch(/\n\s+at /);
      }
      const help = await admin(['help']);
      expect(help).toMatchObject({ code: 0 });
      expect(help.stdout).toContain('user add <email> --role <viewer|operator|owner> --password-stdin');
    },
    SLOW,
  );
});
