/**
 * `npm run admin`: the console's users from the shell, on the store of the server's own configuration (DATA_DIR or
 * DATABASE_URL, read by `loadConfig`), for the first owner and for when nobody can sign in. Each change is recorded in
 * the audit trail as `cli`. A password is read from standard input (`--password-stdin`: its first line; typed unseen
 * on a terminal), never from the command line, where the shell's history and `ps` would keep it. An error is one line
 * on stderr and exit code 1, never a stack. The logic is server/accounts/users.ts's, shared with the back office.
 *
 *   npm run admin -- user add <email> --role <viewer|operator|owner> --password-stdin
 *   npm run admin -- user list
 *   npm run admin -- user disable <email>
 *   npm run admin -- user enable <email>
 *   npm run admin -- user reset-password <email> --password-stdin
 *   npm run admin -- user reset-mfa <email>
 *   npm run admin -- link <orderId> [--days N]
 *   npm run admin -- backup <file>       (SQLite; the server may run)
 *   npm run admin -- restore <file>      (SQLite; the server stopped)
 *   npm run admin -- audit verify        (the audit trail's hash chain; exit code 1 when broken)
 *   npm run admin -- api-key create|list|revoke   (./admin-api-keys.ts)
 *   npm run admin -- erase-payer <cpf>   (LGPD: one payer's data out of our store now; ./admin-erase-payer.ts)
 *   npm run admin -- help
 */
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import type { AdminUser } from '../core/backoffice';
import { API_KEY_USAGE, parseApiKeyCommand, runApiKeyCommand, type ApiKeyCommand } from './admin-api-keys';
import { backupStore, restoreStore } from './admin-backup';
import { verifyAuditTrail } from './admin-audit';
import { rotateSecretsKey } from './admin-secrets';
import { erasePayer } from './admin-erase-payer';
import { resetMfa } from './admin-reset-mfa';
import { auditRecorder } from './accounts/audit';
import type { ApiKeyDeps } from './accounts/api-keys';
import type { MfaStore } from './store/mfa';
import { addUser, changeUser, listUsers, resetPassword, userByEmail, type UserDeps } from './accounts/users';
import { keptSecret, loadConfig, type Config } from './config';
import { DEFAULT_LINK_DAYS, MAX_LINK_DAYS, paymentLink } from './pay-link';
import { ORDER_ID } from './pay-page';
import { systemClock } from './lib/clock';
import { openStore } from './store';
import { USER_ROLES, type UserRole } from './store/accounts';

const USAGE = `Usage: npm run admin -- <command>

  user add <email> --role <viewer|operator|owner> --password-stdin
                                      add a console user; the password is the first line of standard input
  user list                           the users: e-mail, role, state, last sign-in
  user disable <email>                stop the user signing in (its sessions end at once)
  user enable <email>                 let a disabled user sign in again
  user reset-password <email> --password-stdin
                                      set a new password (the user's sessions end)
  user reset-mfa <email>              remove the user's second factor (a lost device); it enrols again
  link <orderId> [--days N]           a payment link for the order (/pay/<orderId>#t=<order token>), valid N days
                                      (default 7), to send by WhatsApp or e-mail
  backup <file>                       a consistent copy of the SQLite store into a new file, the server running
  restore <file>                      put a backup in place of the SQLite store, the server stopped
  rotate-secrets-key                  seal every secret kept sealed again under SECRETS_KEY (opening with
                                      SECRETS_KEY_PREVIOUS), or under a new key in DATA_DIR for the embedded default
  audit verify                        walk the audit trail's hash chain: OK and the count, or the first entry that
                                      does not fit (exit code 1); the server may run
${API_KEY_USAGE}
  erase-payer <cpf>                   erase one payer's name, CPF and accounts from the store now (LGPD art. 18),
                                      audited; the provider keeps its own records
  help                                this text

The store is the server's: DATABASE_URL when set, else DATA_DIR (default ./data). A link's token is signed with the
BFF's key (ORDERS_TOKEN, else DATA_DIR/orders-token) and its address starts with PUBLIC_BASE_URL.`;

type Command =
  | { name: 'help' }
  | { name: 'list' }
  | { name: 'link'; orderId: string; days: number }
  | { name: 'backup'; file: string }
  | { name: 'restore'; file: string }
  | { name: 'audit-verify' }
  | { name: 'rotate-secrets-key' }
  | ApiKeyCommand
  | { name: 'erase-payer'; cpf: string }
  | { name: 'add'; email: string; role: UserRole }
  | { name: 'disable' | 'enable' | 'reset-password' | 'reset-mfa'; email: string };

/** A refusal of the command line itself. */
class UsageError extends Error {}

/** `link <orderId> [--days N]`. */
function parseLink(args: readonly string[]): Command {
  const [orderId, ...flags] = args;
  if (!orderId || orderId.startsWith('--')) throw new UsageError('link needs an order id.');
  if (!ORDER_ID.test(orderId)) throw new UsageError(`"${orderId}" is not an order id: letters, digits and . _ : - only, at most 64.`);
  let days = DEFAULT_LINK_DAYS;
  if (flags[0] === '--days') {
    const value = flags[1] ?? '';
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_LINK_DAYS) {
      throw new UsageError(`link --days needs a whole number of days from 1 to ${MAX_LINK_DAYS}.`);
    }
    days = Number(value);
    flags.splice(0, 2);
  }
  if (flags.length > 0) throw new UsageError(`Unexpected "${flags.join(' ')}"; try \`npm run admin -- help\`.`);
  return { name: 'link', orderId, days };
}

/** The payment link of `command`: the order token signed with the BFF's key, in the fragment of the page's address. */
function linkOf(config: Config, { orderId, days }: { orderId: string; days: number }, now: Date) {
  const key = config.orders?.token ?? keptSecret(config.dataDir, 'orders-token');
  const base = config.publicBaseUrl ?? `http://127.0.0.1:${config.port}`;
  return paymentLink({ base, key, orderId, days, now });
}

/** The command of `args` (what follows `npm run admin --`), or a UsageError saying what is wrong. */
function parse(args: readonly string[]): Command {
  const [group, verb, email, ...rest] = args;
  if (group === undefined || group === 'help' || group === '--help' || group === '-h') return { name: 'help' };
  if (group === 'link') return parseLink(args.slice(1));
  if (group === 'backup' || group === 'restore') {
    if (!verb || verb.startsWith('--') || email !== undefined) throw new UsageError(`${group} needs one file.`);
    return { name: group, file: verb };
  }
  if (group === 'rotate-secrets-key') {
    if (verb !== undefined) throw new UsageError('rotate-secrets-key takes nothing: the keys come from the environment.');
    return { name: group };
  }
  if (group === 'erase-payer') {
    if (!verb || email !== undefined) throw new UsageError('erase-payer needs one CPF.');
    return { name: 'erase-payer', cpf: verb };
  }
  if (group === 'audit') {
    if (verb !== 'verify' || email !== undefined) throw new UsageError('Unknown command; the audit trail has one: audit verify.');
    return { name: 'audit-verify' };
  }
  if (group === 'api-key') return parseApiKeyCommand(args.slice(1), (message) => new UsageError(message));
  if (group !== 'user') throw new UsageError(`Unknown command "${group}"; try \`npm run admin -- help\`.`);
  if (verb === 'list' && email === undefined) return { name: 'list' };
  if (verb !== 'add' && verb !== 'disable' && verb !== 'enable' && verb !== 'reset-password' && verb !== 'reset-mfa') {
    throw new UsageError(`Unknown command "user ${verb ?? ''}"; try \`npm run admin -- help\`.`);
  }
  if (!email || email.startsWith('--')) throw new UsageError(`user ${verb} needs an e-mail address.`);
  const flags = [...rest];
  const take = (flag: string) => {
    const at = flags.indexOf(flag);
    return at < 0 ? false : (flags.splice(at, 1), true);
  };
  const needsPassword = verb === 'add' || verb === 'reset-password';
  if (needsPassword && !take('--password-stdin')) {
    throw new UsageError(`user ${verb} needs --password-stdin: the password is read from standard input, never from the command line.`);
  }
  let role: UserRole | undefined;
  if (verb === 'add') {
    const at = flags.indexOf('--role');
    const value = at < 0 ? undefined : flags.splice(at, 2)[1];
    if (!USER_ROLES.includes(value as UserRole)) throw new UsageError(`user add needs --role ${USER_ROLES.join('|')}.`);
    role = value as UserRole;
  }
  if (flags.length > 0) throw new UsageError(`Unexpected "${flags.join(' ')}"; try \`npm run admin -- help\`.`);
  return verb === 'add' ? { name: 'add', email, role: role! } : { name: verb, email };
}

/** The first line of standard input; on a terminal, asked for and typed without echo. */
async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) {
    let muted = false;
    const output = new Writable({
      write(chunk, _encoding, done) {
        if (!muted) process.stderr.write(chunk as Buffer);
        done();
      },
    });
    const prompt = createInterface({ input: process.stdin, output, terminal: true });
    process.stderr.write('Password: ');
    muted = true;
    return new Promise((resolve) =>
      prompt.question('', (answer) => {
        prompt.close();
        process.stderr.write('\n');
        resolve(answer);
      }),
    );
  }
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  return '';
}

/** The users as a table: e-mail, role, state, last sign-in. */
function table(users: readonly AdminUser[]): string {
  if (users.length === 0) return 'No users yet. Add one with: npm run admin -- user add <email> --role owner --password-stdin';
  const rows = [
    ['EMAIL', 'ROLE', 'STATE', 'LAST SIGN-IN'],
    ...users.map((u) => [u.email, u.role, u.disabled ? 'disabled' : 'enabled', u.lastSignInAt ?? 'never']),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Runs `command` on the store; resolves with what to print. */
async function run(
  command: Exclude<Command, { name: 'link' | 'backup' | 'restore' | 'audit-verify' | 'rotate-secrets-key' | 'erase-payer' }>,
  deps: UserDeps & ApiKeyDeps & { store: MfaStore },
): Promise<string> {
  const audit = auditRecorder({ store: deps.store, clock: deps.clock, who: { actor: 'cli', role: null, ip: null } });
  switch (command.name) {
    case 'api-key-create':
    case 'api-key-list':
    case 'api-key-revoke':
      return runApiKeyCommand(command, deps, audit);
    case 'help':
      return USAGE;
    case 'list':
      return table(await listUsers(deps.store));
    case 'add': {
      const user = await addUser(deps, { email: command.email, role: command.role, password: await readPassword() }, audit);
      return `Added ${user.email} as ${user.role}.`;
    }
    case 'disable':
    case 'enable': {
      const { id } = await userByEmail(deps.store, command.email);
      const user = await changeUser(deps, id, { disabled: command.name === 'disable' }, audit);
      return user.disabled ? `Disabled ${user.email}; its sessions are ended.` : `Enabled ${user.email}.`;
    }
    case 'reset-password': {
      const { id } = await userByEmail(deps.store, command.email);
      const user = await resetPassword(deps, id, await readPassword(), audit);
      return `New password set for ${user.email}; its sessions are ended.`;
    }
    case 'reset-mfa':
      return resetMfa(command.email, deps.store, audit);
  }
}

/** An error as one line: a configuration's several problems joined, never a stack. */
const oneLine = (error: unknown) =>
  (error instanceof Error ? error.message : String(error))
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join(' ');

async function main(): Promise<number> {
  const command = parse(process.argv.slice(2));
  if (command.name === 'help') {
    console.log(USAGE);
    return 0;
  }
  const config = loadConfig();
  if (command.name === 'link') {
    // No store: the link is the order token and the page's address. The expiry goes to stderr, the link alone to stdout.
    const { url, expiresAt } = linkOf(config, command, systemClock.now());
    console.log(url);
    console.error(`Valid until ${expiresAt} (${command.days} days). Anyone with this link can pay this order.`);
    return 0;
  }
  if (command.name === 'backup' || command.name === 'restore') {
    const where = { dataDir: config.dataDir, databaseUrl: config.databaseUrl };
    console.log(
      command.name === 'backup'
        ? await backupStore({ ...where, target: command.file })
        : await restoreStore({ ...where, backup: command.file, now: systemClock.now() }),
    );
    return 0;
  }
  const { store, hub } = await openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    if (command.name === 'audit-verify') {
      const { ok, text } = verifyAuditTrail(await store.verifyAudit());
      console.log(text);
      return ok ? 0 : 1;
    }
    if (command.name === 'rotate-secrets-key') {
      const audit = auditRecorder({ store, clock: systemClock, who: { actor: 'cli', role: null, ip: null } });
      const { ok, text } = await rotateSecretsKey(config, store, audit);
      console.log(text);
      return ok ? 0 : 1;
    }
    if (command.name === 'erase-payer') {
      console.log(await erasePayer(command.cpf, { store, clock: systemClock }));
      return 0;
    }
    console.log(await run(command, { store, clock: systemClock }));
    return 0;
  } finally {
    await hub.close();
    await store.close();
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(`admin: ${oneLine(error)}`);
  process.exitCode = 1;
}
