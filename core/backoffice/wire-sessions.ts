/**
 * A console user's own sessions and password (`/api/admin/me/…`), as declared types: server/accounts/session-list.ts
 * builds the views, the console's "Minha conta" page reads them. A session is named by its public id, never by its
 * token or the token's hash.
 */

/** One of the signed-in user's sessions, newest first (`GET /me/sessions`). */
export interface AccountSession {
  /** `ses_…`: what `DELETE /me/sessions/:id` takes. */
  id: string;
  /** The browser and system (`Firefox 128 · Linux`); null when unknown (a session opened before they were kept). */
  device: string | null;
  /** The address it was opened from; null when unknown. */
  address: string | null;
  createdAt: string;
  lastSeenAt: string;
  /** The session this request came with. */
  current: boolean;
}

export interface AccountSessions {
  sessions: AccountSession[];
}

/** `DELETE /me/sessions` (every other session): how many ended. */
export interface EndedSessions {
  ended: number;
}

/** `POST /me/password`: the current password proves it is the user; the other sessions end with the change. */
export interface PasswordChangeInput {
  currentPassword: string;
  newPassword: string;
}

/** What a password change answers: this session goes on under a new cookie, ending at `expiresAt`. */
export interface PasswordChanged {
  expiresAt: string;
  /** How many other sessions ended. */
  ended: number;
}
