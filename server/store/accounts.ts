/**
 * The back office's accounts in the store: named users, their sessions and the audit trail. Written once for both
 * databases in `accounts-part.ts` (schema step 12, `migrations-accounts.ts`), pinned by the same contract tests run
 * on each. Records are checked by the zod schemas here on the way out, so both return the same shapes.
 *
 * Rules kept here so both databases agree:
 * - an e-mail is stored lower-case, and unique as such;
 * - a change that would leave no enabled owner among the users is not made (`last_owner`), decided inside the change's
 *   own transaction so two owners demoting each other at once cannot both win;
 * - disabling a user or changing its password ends its sessions in the same transaction;
 * - only the SHA-256 of a session token is kept; the store checks nothing about a session's age (the rules of
 *   expiry are `server/accounts/sessions.ts`'s);
 * - the audit trail is append-only: this interface can add and read entries, nothing else, and the database's
 *   triggers refuse an UPDATE or DELETE of one; each entry is chained to the one before by its hash (schema step 21,
 *   ./audit-chain.ts), so a change made around the triggers is found by `verifyAudit`.
 */
import { z } from 'zod';
import { AUDIT_OUTCOMES, ROLES, type AuditOutcome } from '../../core/backoffice';
import { InstantSchema } from './types';

/** A user's role and an audit line's outcome are the back office's (core/backoffice/). */
export const USER_ROLES = ROLES;
export const UserRoleSchema = z.enum(USER_ROLES);
export type UserRole = z.infer<typeof UserRoleSchema>;

export { AUDIT_OUTCOMES, type AuditOutcome };

export const StoredUserSchema = z.object({
  /** `usr_…`. */
  id: z.string().min(1),
  /** Lower-case. */
  email: z.string().min(3),
  role: UserRoleSchema,
  /** `scrypt$N$r$p$salt$hash` (server/accounts/passwords.ts); never shown, never logged. */
  passwordHash: z.string().min(1),
  /** When it was disabled; null while it may sign in. */
  disabledAt: InstantSchema.nullable(),
  createdAt: InstantSchema,
  lastSignInAt: InstantSchema.nullable(),
});
export type StoredUser = z.infer<typeof StoredUserSchema>;

export interface NewUser {
  id: string;
  email: string;
  role: UserRole;
  passwordHash: string;
  createdAt: string;
}

/** What a change of a user sets; absent fields stay. `disabledAt: null` enables it. */
export interface UserChange {
  role?: UserRole;
  disabledAt?: string | null;
  passwordHash?: string;
}

/** The outcome of a change: the user after it, `last_owner` when refused, undefined when there is no such user. */
export type UserChangeResult = { user: StoredUser } | { refused: 'last_owner' } | undefined;

export const StoredSessionSchema = z.object({
  /** SHA-256 of the token (hex); the token itself is only ever in the cookie. */
  tokenHash: z.string().min(1),
  /** `ses_…`: what names the session to its user (./session-list.ts); never its token or hash (schema step 23). */
  id: z.string().min(1),
  /** A short label of the browser's User-Agent (`Firefox 128 · Linux`); null when unknown. */
  device: z.string().nullable(),
  /** The address it was opened from; null when unknown. */
  address: z.string().nullable(),
  userId: z.string().min(1),
  createdAt: InstantSchema,
  /** The hard end, 12 hours after sign-in. */
  expiresAt: InstantSchema,
  /** The last use noted (at most once a minute), for the idle end. */
  lastSeenAt: InstantSchema,
});
export type StoredSession = z.infer<typeof StoredSessionSchema>;

export const AuditEntrySchema = z.object({
  seq: z.int().positive(),
  at: InstantSchema,
  /** The user's e-mail, `api-token`, `cli`, or the e-mail tried on a failed sign-in (`anonymous` when none). */
  actor: z.string(),
  role: UserRoleSchema.nullable(),
  ip: z.string().nullable(),
  action: z.string(),
  target: z.string().nullable(),
  outcome: z.enum(AUDIT_OUTCOMES),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export type NewAuditEntry = Omit<AuditEntry, 'seq'>;

/** A page of the audit trail, newest first. Every filter is optional; `from` is inclusive, `to` exclusive. */
export interface AuditQuery {
  /** Only entries older than this seq (the cursor of the previous page). */
  before?: number;
  limit: number;
  actor?: string;
  action?: string;
  outcome?: AuditOutcome;
  from?: string;
  to?: string;
}

export interface UserStore {
  /** Adds the user; undefined when its e-mail (lower-cased) is taken. */
  addUser(user: NewUser): Promise<StoredUser | undefined>;
  getUser(id: string): Promise<StoredUser | undefined>;
  /** By e-mail, whatever its case. */
  findUserByEmail(email: string): Promise<StoredUser | undefined>;
  /** Every user, oldest first. */
  listUsers(): Promise<StoredUser[]>;
  countUsers(): Promise<number>;
  /**
   * Applies `change` unless it leaves no enabled owner while there was one (then `{ refused: 'last_owner' }`). A change
   * that disables the user or sets a password deletes its sessions in the same transaction.
   */
  changeUser(id: string, change: UserChange): Promise<UserChangeResult>;
}

export interface SessionStore {
  /** Keeps a new session and notes the user's sign-in at its `createdAt`, in one transaction. */
  startSession(session: StoredSession): Promise<void>;
  /** The session of `tokenHash` with its user, whatever their age or state; undefined when there is none. */
  findSession(tokenHash: string): Promise<{ session: StoredSession; user: StoredUser } | undefined>;
  /** Moves `lastSeenAt` to `at`, never backwards. */
  touchSession(tokenHash: string, at: string): Promise<void>;
  endSession(tokenHash: string): Promise<void>;
  /** Deletes the sessions past their end (`expiresAt <= now`) or idle since before `idleBefore`; resolves with how many. */
  pruneSessions(now: string, idleBefore: string): Promise<number>;
}

/**
 * What a walk of the audit trail's hash chain (./audit-chain.ts) found: every entry fits (`count` of them, and the
 * chain's head), or the first that does not, after `count` that do. `changed`: its content no longer gives its hash;
 * `unlinked`: it does not name the hash of the entry before it (one deleted or inserted between them); `cut`: the
 * chain's last entry, `seq`, is not there (entries cut off the end).
 */
export type AuditVerification =
  | { ok: true; count: number; head: { seq: number; hash: string } }
  | { ok: false; count: number; first: { seq: number; at: string | null; reason: 'changed' | 'unlinked' | 'cut' } };

export interface AuditStore {
  /** Appends one entry, chained after the last one, and returns it with its seq. */
  appendAudit(entry: NewAuditEntry): Promise<AuditEntry>;
  /** The entries matching `query`, newest first. */
  listAudit(query: AuditQuery): Promise<AuditEntry[]>;
  /** Walks the whole chain, oldest first (`npm run admin -- audit verify`); reads only. */
  verifyAudit(): Promise<AuditVerification>;
}

export type AccountStore = UserStore & SessionStore & AuditStore;

/** Normalises the fields both stores write: dates to `toISOString()` form, e-mails to lower case. */
export const normalEmail = (email: string) => email.trim().toLowerCase();
export const instant = (value: string) => InstantSchema.parse(value);
