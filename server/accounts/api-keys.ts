/**
 * The back office's named API keys, for the routes of server/backoffice/routes/api-keys.ts and for `npm run admin`
 * alike: create one (the key shown once, only its SHA-256 kept), list them, revoke one, and find the key a request
 * sends. Each creation and revocation is recorded in the audit trail by the caller's recorder. No HTTP here: refusals
 * are the values of ./errors.
 *
 * A key is `pck_live_` and 32 random bytes in base64url (256 bits: a hash lookup leaks nothing worth timing, since
 * nobody can aim at a hash's first bytes). Every request reads the key's row, so a revocation or an expiry holds at
 * once on every instance: nothing is cached. Its last use is written at most once a minute.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { API_KEY_PREFIX, hasRole, type ApiKey, type CreatedApiKey, type NewApiKeyInput } from '../../core/backoffice';
import type { Clock } from '../lib/clock';
import type { ApiKeyStore, StoredApiKey } from '../store/api-keys';
import type { UserRole } from '../store/accounts';
import { invalidRequest } from '../payments/errors';
import { recorded, type AuditRecorder } from './audit';
import { adminForbidden, apiKeyExists, apiKeyNotFound } from './errors';
import { tokenHash } from './sessions';

export { API_KEY_PREFIX };

/** How many characters of a key its prefix shows: `pck_live_` and eight of the random part (48 of its 256 bits). */
const SHOWN = API_KEY_PREFIX.length + 8;
/** A use is noted when the last one noted is older than this. */
export const LAST_USE_EVERY_MS = 60_000;

/** A key's name: what the audit trail shows it as (`key:<name>`). */
export const ApiKeyNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'Letters, digits and . _ - only, at most 64, starting with a letter or digit');

/** What a key id looks like (`key_` and base64url); anything else is a 404 without a query. */
export const API_KEY_ID = /^key_[A-Za-z0-9_-]{1,64}$/;

/** Whether a bearer token has the form of a named key (the ADMIN_TOKEN is any other text). */
export const looksLikeApiKey = (token: string) => token.startsWith(API_KEY_PREFIX);

/** The actor a key is recorded as in the audit trail. */
export const keyActor = (key: { name: string }) => `key:${key.name}`;

export interface ApiKeyDeps {
  store: ApiKeyStore;
  clock: Clock;
}

/** A key as the back office shows it (core/backoffice/wire-api-keys.ts): never the key, never its hash. */
export const apiKeyView = (key: StoredApiKey): ApiKey => ({
  id: key.id,
  name: key.name,
  role: key.role,
  prefix: key.prefix,
  createdAt: key.createdAt,
  createdBy: key.createdBy,
  lastUsedAt: key.lastUsedAt,
  expiresAt: key.expiresAt,
  revokedAt: key.revokedAt,
});

export async function listApiKeys(store: ApiKeyStore): Promise<ApiKey[]> {
  return (await store.listApiKeys()).map(apiKeyView);
}

/** The expiry as the store keeps it, or a 400 `invalid_request` when it is not an instant in the future. */
function checkedExpiry(expiresAt: string | undefined, now: Date): string | null {
  if (expiresAt === undefined) return null;
  const parsed = z.iso.datetime({ offset: true }).or(z.iso.date()).safeParse(expiresAt);
  const time = parsed.success ? Date.parse(parsed.data) : NaN;
  if (!(time > now.getTime())) {
    throw invalidRequest('expiresAt must be a date or an instant in the future.', [{ path: '/expiresAt', message: 'A future date' }]);
  }
  return new Date(time).toISOString();
}

/**
 * Creates a key, recorded as `api_key.create`; the key is in the answer only. `creator` is who asks: its role caps the
 * key's (a 403 `admin_forbidden` above it; the CLI, `role: null`, has the shell's rights). A 409 `api_key_exists` when
 * a key not revoked has the name.
 */
export async function createApiKey(
  { store, clock }: ApiKeyDeps,
  input: NewApiKeyInput,
  creator: { name: string; role: UserRole | null },
  audit: AuditRecorder,
): Promise<CreatedApiKey> {
  const name = ApiKeyNameSchema.safeParse(input.name);
  if (!name.success) throw invalidRequest('Not a key name.', [{ path: '/name', message: name.error.issues[0]!.message }]);
  return recorded(audit, 'api_key.create', name.data, async () => {
    if (creator.role !== null && !hasRole(creator.role, input.role)) throw adminForbidden(input.role);
    const now = clock.now();
    const expiresAt = checkedExpiry(input.expiresAt, now);
    const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const added = await store.addApiKey({
      id: `key_${randomBytes(12).toString('base64url')}`,
      name: name.data,
      role: input.role,
      prefix: key.slice(0, SHOWN),
      keyHash: tokenHash(key),
      createdAt: now.toISOString(),
      createdBy: creator.name,
      expiresAt,
    });
    if (!added) throw apiKeyExists();
    return { result: { id: added.id, key, apiKey: apiKeyView(added) }, details: { id: added.id, role: added.role, expiresAt } };
  });
}

/** Revokes a key at once, recorded as `api_key.revoke`; a 404 `api_key_not_found`. A revoked key stays revoked. */
export async function revokeApiKey({ store, clock }: ApiKeyDeps, id: string, audit: AuditRecorder): Promise<ApiKey> {
  if (!API_KEY_ID.test(id)) throw apiKeyNotFound();
  return recorded(audit, 'api_key.revoke', id, async () => {
    const revoked = await store.revokeApiKey(id, clock.now().toISOString());
    if (!revoked) throw apiKeyNotFound();
    return { result: apiKeyView(revoked), details: { name: revoked.name } };
  });
}

/** What `useApiKey` found: the key, and whether this use was noted as its last (the first in a minute). */
export interface KeyUse {
  key: StoredApiKey;
  noted: boolean;
}

/**
 * The live key `token` is, read from the store on every call; undefined when there is none, or it is revoked or
 * expired. Notes the use when the last one noted is a minute old or more.
 */
export async function useApiKey({ store, clock }: ApiKeyDeps, token: string): Promise<KeyUse | undefined> {
  const key = await store.findApiKey(tokenHash(token));
  const now = clock.now();
  if (!key || key.revokedAt !== null || (key.expiresAt !== null && Date.parse(key.expiresAt) <= now.getTime())) return undefined;
  const staleBefore = new Date(now.getTime() - LAST_USE_EVERY_MS);
  // Read first, so a key used many times a minute costs no write; the store's condition settles two instances at once.
  const stale = key.lastUsedAt === null || Date.parse(key.lastUsedAt) < staleBefore.getTime();
  const noted = stale && (await store.touchApiKey(key.id, now.toISOString(), staleBefore.toISOString()));
  return { key, noted };
}
