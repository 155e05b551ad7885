/**
 * The back office's answers about its people (`/api/admin/session`, `/users`, `/audit`) and the bodies the console
 * sends there, as declared types: server/accounts/ and server/backoffice/ build them, the console reads them.
 */
import type { Role } from './roles';

/** Who is signed in: a user (by e-mail), or the bearer token of scripts. */
export interface SessionActor {
  kind: 'user' | 'token';
  name: string;
  role: Role;
}

/** `GET /session`. */
export interface Session {
  actor: SessionActor;
  /** When the session ends at the latest (it also ends after 30 minutes without a call); null for the token. */
  expiresAt: string | null;
}

/** A sign-in (`POST /session`), sent once. */
export interface SignInInput {
  email: string;
  password: string;
}

/** What a sign-in answers (`POST /session`); the cookie itself is out of the page's reach. */
export interface SignedIn {
  user: { email: string; role: Role };
  expiresAt: string;
}

/** A person who signs in to the console: never their password's hash. */
export interface AdminUser {
  id: string;
  email: string;
  role: Role;
  disabled: boolean;
  createdAt: string;
  lastSignInAt: string | null;
}

export interface NewUserInput {
  email: string;
  role: Role;
  password: string;
}

export interface UserChange {
  role?: Role;
  disabled?: boolean;
}

/** How an action of the audit trail ended: done, kept for approval, refused (a 4xx of ours), failed. */
export const AUDIT_OUTCOMES = ['ok', 'pending_approval', 'refused', 'failed'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** One line of the audit trail, newest first. */
export interface AuditEntry {
  seq: number;
  at: string;
  /** The user's e-mail, `api-token`, `cli`, or the e-mail tried on a refused sign-in. */
  actor: string;
  role: Role | null;
  ip: string | null;
  /** What was done, dotted: `refund.create`, `user.add`… */
  action: string;
  target: string | null;
  outcome: AuditOutcome;
  details: Record<string, unknown>;
}

export interface AuditPage {
  data: AuditEntry[];
  /** The `after` of the next (older) page; null on the last one. */
  next: number | null;
}

/** The audit trail's filters, as the back office takes them (`from`/`to` are instants). */
export interface AuditFilters {
  actor?: string;
  action?: string;
  outcome?: string;
  from?: string;
  to?: string;
}
