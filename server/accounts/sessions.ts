/**
 * The console's sessions, kept in the store so every instance on PostgreSQL knows them: a random 32-byte token goes in
 * the cookie and only its SHA-256 is stored. A session ends 12 hours after sign-in, after 30 minutes without use, at
 * sign-out, and at once when its user is disabled or given a new password. A use moves `lastSeenAt` at most once a
 * minute per session, to spare the database a write per request.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../lib/clock';
import type { SessionStore, StoredUser } from '../store/accounts';
import { deviceLabel } from './device';

export const SESSION_MAX_MS = 12 * 3_600_000;
export const SESSION_IDLE_MS = 30 * 60_000;
/** A session's last use is written at most this often. */
export const TOUCH_EVERY_MS = 60_000;

/** What a token looks like: 32 bytes in base64url. Anything else is not looked up. */
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

/** The stored form of a session token. */
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export interface StartedSession {
  /** For the cookie only: never stored, never logged. */
  token: string;
  expiresAt: string;
}

export interface LiveSession {
  user: StoredUser;
  expiresAt: string;
  /** The stored form of its token (`tokenHash`): what names the session to what it opened (a live stream). */
  hash: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function createSessions({ store, clock }: { store: SessionStore; clock: Clock }) {
  /** The session of `hash` with its user while it is open (ended ones are deleted), and the time it was last seen. */
  async function open(hash: string) {
    const found = await store.findSession(hash);
    if (!found) return undefined;
    const { session, user } = found;
    const now = clock.now().getTime();
    const lastSeen = Date.parse(session.lastSeenAt);
    if (now >= Date.parse(session.expiresAt) || now - lastSeen >= SESSION_IDLE_MS) {
      await store.endSession(hash);
      return undefined;
    }
    return user.disabledAt === null ? { user, expiresAt: session.expiresAt, now, lastSeen } : undefined;
  }

  return {
    /**
     * Starts a session for `user` (noting its sign-in), after clearing the sessions that ended; `from` is what its
     * user is shown of it (./session-list.ts).
     */
    async start(user: StoredUser, from: { address?: string; userAgent?: string | undefined } = {}): Promise<StartedSession> {
      const now = clock.now().getTime();
      await store.pruneSessions(iso(now), iso(now - SESSION_IDLE_MS));
      const token = randomBytes(32).toString('base64url');
      const expiresAt = iso(now + SESSION_MAX_MS);
      await store.startSession({
        tokenHash: tokenHash(token),
        id: `ses_${randomBytes(12).toString('base64url')}`,
        device: deviceLabel(from.userAgent),
        address: from.address ?? null,
        userId: user.id,
        createdAt: iso(now),
        expiresAt,
        lastSeenAt: iso(now),
      });
      return { token, expiresAt };
    },

    /**
     * The live session of `token` with its user, noting this use; undefined when there is none, it ended (then it is
     * deleted), or its user is disabled.
     */
    async resolve(token: string | undefined): Promise<LiveSession | undefined> {
      if (!token || !TOKEN_FORMAT.test(token)) return undefined;
      const hash = tokenHash(token);
      const live = await open(hash);
      if (!live) return undefined;
      if (live.now - live.lastSeen >= TOUCH_EVERY_MS) await store.touchSession(hash, iso(live.now));
      return { user: live.user, expiresAt: live.expiresAt, hash };
    },

    /**
     * Whether the session of `hash` would still open a request, without noting a use: what keeps a live stream
     * going, which must not keep an idle session alive.
     */
    async stillOpen(hash: string): Promise<boolean> {
      return (await open(hash)) !== undefined;
    },

    /** Ends the session of `token`, if there is one. */
    async end(token: string | undefined): Promise<void> {
      if (token && TOKEN_FORMAT.test(token)) await store.endSession(tokenHash(token));
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
