/**
 * The demo's console users: at the first start on a store with no user, the demo adds four (two owners, so one can
 * approve what the other asked for, an operator and a viewer), each with a random password, through the product's own
 * user creation (server/accounts/users.ts, recorded in the audit trail as done by `demo`). Their e-mails and passwords
 * are written to `DATA_DIR/demo-users.txt` (owner-only), which the startup lines point to. A store that has users
 * already gets none: the file of the first start stays as it was. Never with PROVIDER_BASE_URL (the demo is off then).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditRecorder } from '../server/accounts/audit';
import { addUser } from '../server/accounts/users';
import type { Clock } from '../server/lib/clock';
import type { AccountStore, UserRole } from '../server/store/accounts';

export const DEMO_USERS_FILE = 'demo-users.txt';

/** Who the demo signs in as. */
export const DEMO_USERS: readonly { email: string; role: UserRole; who: string }[] = [
  { email: 'dona@armazem.demo', role: 'owner', who: 'a dona da loja' },
  { email: 'socia@armazem.demo', role: 'owner', who: 'a sócia (aprova o que a dona pede)' },
  { email: 'operador@armazem.demo', role: 'operator', who: 'o operador (reembolsos, transferências)' },
  { email: 'leitura@armazem.demo', role: 'viewer', who: 'só leitura' },
];

/** 18 random bytes: 24 characters of base64url, well over the 12 a password needs. */
const newPassword = () => randomBytes(18).toString('base64url');

export interface DemoUsers {
  /** The file with their e-mails and passwords (written at the first start only). */
  file: string;
  /** True when this start created them. */
  created: boolean;
}

/**
 * Adds the demo users when the store has none, and writes their passwords to DATA_DIR; `consoleUrl` goes in the
 * file's first line. Undefined when the store had users from elsewhere (no file of ours describes them).
 */
export async function ensureDemoUsers({
  store,
  clock,
  dataDir,
  consoleUrl,
}: {
  store: AccountStore;
  clock: Clock;
  dataDir: string;
  consoleUrl: string;
}): Promise<DemoUsers | undefined> {
  const file = join(dataDir, DEMO_USERS_FILE);
  if ((await store.countUsers()) > 0) {
    const ours = await Promise.all(DEMO_USERS.map(({ email }) => store.findUserByEmail(email)));
    return ours.some(Boolean) ? { file, created: false } : undefined;
  }
  const audit = auditRecorder({ store, clock, who: { actor: 'demo', role: null, ip: null } });
  const lines = [
    `# The demo's console users (${consoleUrl}), created at its first start. Keep this file private.`,
    '# role      e-mail                     password',
  ];
  // Hashed side by side (scrypt runs on libuv's pool): a first start waits for one hash, not four.
  const passwords = DEMO_USERS.map(newPassword);
  await Promise.all(DEMO_USERS.map(({ email, role }, i) => addUser({ store, clock }, { email, role, password: passwords[i]! }, audit)));
  DEMO_USERS.forEach(({ email, role, who }, i) => lines.push(`${role.padEnd(9)} ${email.padEnd(26)} ${passwords[i]}   # ${who}`));
  writeFileSync(file, `${lines.join('\n')}\n`, { mode: 0o600 });
  // The mode of writeFileSync applies to a new file only: an older file keeps its own otherwise.
  chmodSync(file, 0o600);
  return { file, created: true };
}

/** The users of a demo-users file: what the tests and a curious reader get back from it. */
export function parseDemoUsers(text: string): { role: string; email: string; password: string }[] {
  return text
    .split('\n')
    .map((line) => /^(\w+)\s+(\S+@\S+)\s+(\S+)/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map(([, role, email, password]) => ({ role: role!, email: email!, password: password! }));
}
