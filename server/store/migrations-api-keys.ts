/**
 * Schema step 24: the back office's named API keys (./api-keys.ts), each with a role, an optional expiry, its
 * creator and its last use; the key itself is never kept, only its SHA-256 (`key_hash`, unique: a key is found by it)
 * and the short prefix shown in lists to tell keys apart. A revoked key keeps its row (its name stays in the audit
 * trail, the list shows when it was revoked); a name is unique among the keys not revoked.
 */
import { sqlList, step, type Migration } from './migration-step';
import { createTable, index, instant, text } from './sql/ddl';

const ROLES = sqlList(['viewer', 'operator', 'owner']);

export const apiKeySteps: readonly Migration[] = [
  step({
    version: 24,
    name: "the back office's named API keys: SHA-256 of the key, prefix, role, creator, expiry, last use, revocation",
    ddl: [
      createTable(
        'api_keys',
        {
          id: text().primaryKey(),
          name: text().notNull(),
          role: text().notNull().check(`role IN (${ROLES})`),
          prefix: text().notNull(),
          key_hash: text().notNull().unique(),
          created_at: instant().notNull(),
          created_by: text().notNull(),
          expires_at: instant(),
          last_used_at: instant(),
          revoked_at: instant(),
        },
        { withoutRowid: true },
      ),
      index('api_keys_live_name', 'api_keys', ['name'], { unique: true, where: 'revoked_at IS NULL' }),
    ],
  }),
];
