/**
 * Rows of the accounts' tables as records (./accounts), for both stores: SQLite gives dates and JSON as text, `pg`
 * gives timestamptz as ISO text (pg-types.ts) or, in another session zone, a Date, jsonb parsed and bigint as a string.
 * Also the one rule both stores apply before a change of a user: whether it would take away the last enabled owner.
 */
import {
  AuditEntrySchema,
  StoredSessionSchema,
  StoredUserSchema,
  type AuditEntry,
  type StoredSession,
  type StoredUser,
  type UserChange,
} from './accounts';
import type { JsonColumns, Row } from './rows';

const date = (value: unknown) => (value instanceof Date ? value.toISOString() : (value ?? null));

export function userFromRow(row: Row): StoredUser {
  return StoredUserSchema.parse({
    id: row.id,
    email: row.email,
    role: row.role,
    passwordHash: row.password_hash,
    disabledAt: date(row.disabled_at),
    createdAt: date(row.created_at),
    lastSignInAt: date(row.last_sign_in_at),
  });
}

/** A session row read with its user's columns; the session's own are prefixed `s_` (see the stores' join). */
export function sessionFromRow(row: Row): StoredSession {
  return StoredSessionSchema.parse({
    tokenHash: row.s_token_hash,
    id: row.s_id,
    device: row.s_device ?? null,
    address: row.s_address ?? null,
    userId: row.s_user_id,
    createdAt: date(row.s_created_at),
    expiresAt: date(row.s_expires_at),
    lastSeenAt: date(row.s_last_seen_at),
  });
}

/** The session's columns, prefixed, beside every column of its user (`u`). */
export const SESSION_WITH_USER = `
  SELECT s.token_hash AS s_token_hash, s.user_id AS s_user_id, s.created_at AS s_created_at, s.expires_at AS s_expires_at,
    s.last_seen_at AS s_last_seen_at, s.id AS s_id, s.device AS s_device, s.address AS s_address, u.*
  FROM admin_sessions s JOIN admin_users u ON u.id = s.user_id`;

export function auditFromRow(row: Row, columns: JsonColumns): AuditEntry {
  return AuditEntrySchema.parse({
    seq: Number(row.seq),
    at: date(row.at),
    actor: row.actor,
    role: row.role ?? null,
    ip: row.ip ?? null,
    action: row.action,
    target: row.target ?? null,
    outcome: row.outcome,
    details: columns === 'text' ? (JSON.parse(row.details as string) as unknown) : row.details,
  });
}

const enabledOwner = (role: string, disabledAt: string | null) => role === 'owner' && disabledAt === null;

/**
 * True when `change` turns `user`, an enabled owner, into something else (another role, or disabled) while no other
 * enabled owner is left: the change is then refused. A change of anyone else never is (there may be no owner at all
 * yet, the bearer token being one).
 */
export function takesLastOwner(user: StoredUser, change: UserChange, otherEnabledOwners: number): boolean {
  if (!enabledOwner(user.role, user.disabledAt)) return false;
  const after = enabledOwner(change.role ?? user.role, change.disabledAt === undefined ? user.disabledAt : change.disabledAt);
  return !after && otherEnabledOwners === 0;
}

/** Whether a change ends the user's sessions: it disables the user or sets a password. */
export const endsSessions = (change: UserChange) =>
  (change.disabledAt !== undefined && change.disabledAt !== null) || !!change.passwordHash;
