/**
 * The back office's named API keys in the store (schema step 24, ./migrations-api-keys.ts), written once for both
 * databases (`apiKeysPart`) and pinned by the same tests on each. Records are checked by the zod schema here on the
 * way out, so both return the same shapes.
 *
 * Rules kept here so both databases agree:
 * - only the SHA-256 of a key is kept, and a key is found by it (`findApiKey`): no key, in clear, ever reaches the
 *   database, and the lookup compares hashes, never the secret;
 * - a name is unique among the keys not revoked (`addApiKey` answers undefined for a taken one);
 * - a revocation is kept (its time), never undone, and a second one changes nothing;
 * - the last use moves forward only, and only when the one noted is older than the bound given (`touchApiKey`), so
 *   instances that see the same key at once write it once;
 * - the store decides nothing about expiry or revocation on a lookup: the caller (server/accounts/api-keys.ts) does,
 *   on every request, from the row it has just read.
 */
import { z } from 'zod';
import { USER_ROLES } from './accounts';
import type { Row } from './rows';
import type { Db } from './sql/db';
import { all, get, run } from './sql/work';
import { InstantSchema } from './types';

export const StoredApiKeySchema = z.object({
  /** `key_…`. */
  id: z.string().min(1),
  name: z.string().min(1),
  role: z.enum(USER_ROLES),
  /** The key's first characters (`pck_live_` and a few more): not a secret, shown to tell keys apart. */
  prefix: z.string().min(1),
  /** SHA-256 of the key (hex). */
  keyHash: z.string().min(1),
  createdAt: InstantSchema,
  /** Who made it: a user's e-mail, `api-token`, `key:<name>`, `cli`. */
  createdBy: z.string().min(1),
  expiresAt: InstantSchema.nullable(),
  lastUsedAt: InstantSchema.nullable(),
  revokedAt: InstantSchema.nullable(),
});
export type StoredApiKey = z.infer<typeof StoredApiKeySchema>;

export type NewApiKey = Omit<StoredApiKey, 'lastUsedAt' | 'revokedAt'>;

export interface ApiKeyStore {
  /** Keeps a new key; undefined when a key not revoked already has its name. */
  addApiKey(key: NewApiKey): Promise<StoredApiKey | undefined>;
  /** The key whose SHA-256 is `keyHash`, whatever its state; undefined when there is none. */
  findApiKey(keyHash: string): Promise<StoredApiKey | undefined>;
  /** Every key, revoked ones too, newest first. */
  listApiKeys(): Promise<StoredApiKey[]>;
  /** Revokes it at `at` (a key revoked already keeps its time); undefined when there is no such key. */
  revokeApiKey(id: string, at: string): Promise<StoredApiKey | undefined>;
  /** Notes a use at `at`, unless one was noted after `staleBefore`; true when it wrote. */
  touchApiKey(id: string, at: string, staleBefore: string): Promise<boolean>;
}

const date = (value: unknown) => (value instanceof Date ? value.toISOString() : (value ?? null));

export function apiKeyFromRow(row: Row): StoredApiKey {
  return StoredApiKeySchema.parse({
    id: row.id,
    name: row.name,
    role: row.role,
    prefix: row.prefix,
    keyHash: row.key_hash,
    createdAt: date(row.created_at),
    createdBy: row.created_by,
    expiresAt: date(row.expires_at),
    lastUsedAt: date(row.last_used_at),
    revokedAt: date(row.revoked_at),
  });
}

export function apiKeysPart(db: Db): ApiKeyStore {
  const d = db.dialect;
  const sql = {
    // The partial unique index on live names is the conflict target: a taken name inserts nothing.
    add: `
      INSERT INTO api_keys (id, name, role, prefix, key_hash, created_at, created_by, expires_at)
      VALUES (@id, @name, @role, @prefix, @keyHash, @createdAt, @createdBy, ${d.instant('expiresAt')})
      ON CONFLICT (name) WHERE revoked_at IS NULL DO NOTHING
      RETURNING *`,
    find: `SELECT * FROM api_keys WHERE key_hash = @keyHash`,
    list: `SELECT * FROM api_keys ORDER BY created_at DESC, ${d.textOrder('id')} DESC`,
    revoke: `UPDATE api_keys SET revoked_at = coalesce(revoked_at, ${d.instant('at')}) WHERE id = @id RETURNING *`,
    touch: `
      UPDATE api_keys SET last_used_at = ${d.instant('at')}
      WHERE id = @id AND (last_used_at IS NULL OR last_used_at < ${d.instant('staleBefore')})`,
  };
  const key = (row: Row | undefined) => (row ? apiKeyFromRow(row) : undefined);
  const at = (value: string) => InstantSchema.parse(value);

  return {
    async addApiKey(input) {
      const params = {
        ...input,
        createdAt: at(input.createdAt),
        expiresAt: input.expiresAt === null ? null : at(input.expiresAt),
      };
      return key(await db.read(() => get(sql.add, params)));
    },
    async findApiKey(keyHash) {
      return key(await db.read(() => get(sql.find, { keyHash })));
    },
    async listApiKeys() {
      return (await db.read(() => all(sql.list))).map(apiKeyFromRow);
    },
    async revokeApiKey(id, when) {
      return key(await db.read(() => get(sql.revoke, { id, at: at(when) })));
    },
    async touchApiKey(id, when, staleBefore) {
      return (await db.read(() => run(sql.touch, { id, at: at(when), staleBefore: at(staleBefore) }))) > 0;
    },
  };
}
