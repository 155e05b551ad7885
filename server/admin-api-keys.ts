/**
 * `npm run admin -- api-key …` (./admin-cli.ts): the back office's named API keys from the shell, recorded in the
 * audit trail as `cli`. The key is printed once, on stdout alone (so `$(npm run admin -- api-key create …)` takes it),
 * the rest on stderr. The logic is server/accounts/api-keys.ts's, shared with the back office.
 *
 *   npm run admin -- api-key create <name> --role <viewer|operator|owner> [--expires <ISO date>]
 *   npm run admin -- api-key list
 *   npm run admin -- api-key revoke <id>
 */
import type { ApiKey } from '../core/backoffice';
import { createApiKey, listApiKeys, revokeApiKey, type ApiKeyDeps } from './accounts/api-keys';
import type { AuditRecorder } from './accounts/audit';
import { USER_ROLES, type UserRole } from './store/accounts';

export const API_KEY_USAGE = `  api-key create <name> --role <viewer|operator|owner> [--expires <ISO date>]
                                      a named key for a script, printed this once (only its hash is kept)
  api-key list                        the keys: id, name, role, prefix, creator, creation, last use, expiry, state
  api-key revoke <id>                 refuse the key at once, on every instance`;

export type ApiKeyCommand =
  | { name: 'api-key-create'; keyName: string; role: UserRole; expiresAt?: string }
  | { name: 'api-key-list' }
  | { name: 'api-key-revoke'; id: string };

/** The command of `args` (what follows `api-key`), or throws `refuse(message)`. */
export function parseApiKeyCommand(args: readonly string[], refuse: (message: string) => Error): ApiKeyCommand {
  const [verb, subject, ...flags] = args;
  if (verb === 'list' && subject === undefined) return { name: 'api-key-list' };
  if (verb === 'revoke') {
    if (!subject || subject.startsWith('--') || flags.length > 0) throw refuse('api-key revoke needs one key id.');
    return { name: 'api-key-revoke', id: subject };
  }
  if (verb !== 'create') throw refuse(`Unknown command "api-key ${verb ?? ''}"; try \`npm run admin -- help\`.`);
  if (!subject || subject.startsWith('--')) throw refuse('api-key create needs a name.');
  const rest = [...flags];
  const value = (flag: string) => {
    const at = rest.indexOf(flag);
    return at < 0 ? undefined : (rest.splice(at, 2)[1] ?? '');
  };
  const role = value('--role');
  if (!USER_ROLES.includes(role as UserRole)) throw refuse(`api-key create needs --role ${USER_ROLES.join('|')}.`);
  const expiresAt = value('--expires');
  if (rest.length > 0) throw refuse(`Unexpected "${rest.join(' ')}"; try \`npm run admin -- help\`.`);
  return { name: 'api-key-create', keyName: subject, role: role as UserRole, ...(expiresAt !== undefined ? { expiresAt } : {}) };
}

const stateOf = (key: ApiKey) => (key.revokedAt ? `revoked ${key.revokedAt}` : key.expiresAt ? `expires ${key.expiresAt}` : 'live');

function table(keys: readonly ApiKey[]): string {
  if (keys.length === 0) return 'No API keys yet. Make one with: npm run admin -- api-key create <name> --role viewer';
  const rows = [
    ['ID', 'NAME', 'ROLE', 'PREFIX', 'CREATED BY', 'CREATED', 'LAST USE', 'STATE'],
    ...keys.map((k) => [k.id, k.name, k.role, k.prefix, k.createdBy, k.createdAt, k.lastUsedAt ?? 'never', stateOf(k)]),
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

/** Runs `command`; resolves with what to print on stdout (and tells the rest on stderr). */
export async function runApiKeyCommand(command: ApiKeyCommand, deps: ApiKeyDeps, audit: AuditRecorder): Promise<string> {
  switch (command.name) {
    case 'api-key-list':
      return table(await listApiKeys(deps.store));
    case 'api-key-create': {
      const input = { name: command.keyName, role: command.role, ...(command.expiresAt ? { expiresAt: command.expiresAt } : {}) };
      const { key, apiKey } = await createApiKey(deps, input, { name: 'cli', role: null }, audit);
      console.error(`Created ${apiKey.name} (${apiKey.id}) as ${apiKey.role}. The key is shown this once: keep it in a secret store.`);
      return key;
    }
    case 'api-key-revoke': {
      const revoked = await revokeApiKey(deps, command.id, audit);
      return `Revoked ${revoked.name} (${revoked.id}) at ${revoked.revokedAt}.`;
    }
  }
}
