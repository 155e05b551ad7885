/**
 * The back office's answers about its named API keys (`/api/admin/api-keys`) and the body the console sends there,
 * as declared types: server/accounts/api-keys.ts builds them, the console reads them. A key itself is in one answer
 * only, its creation's; no answer ever holds its hash.
 */
import type { Role } from './roles';

/** What every key starts with: a scanner (or a person) can tell it is ours, and that it is a live one. */
export const API_KEY_PREFIX = 'pck_live_';

/** A named key as lists show it. */
export interface ApiKey {
  /** `key_…`. */
  id: string;
  name: string;
  role: Role;
  /** The key's first characters (`pck_live_` and eight more): not a secret, enough to tell keys apart. */
  prefix: string;
  createdAt: string;
  /** Who made it: a user's e-mail, `api-token`, `key:<name>`, `cli`. */
  createdBy: string;
  /** Noted at most once a minute. */
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

/** `POST /api-keys`. */
export interface NewApiKeyInput {
  name: string;
  role: Role;
  /** An instant in the future; absent: the key does not expire. */
  expiresAt?: string;
}

/** What a creation answers: the key, this once, and the key as lists show it. */
export interface CreatedApiKey {
  id: string;
  key: string;
  apiKey: ApiKey;
}
