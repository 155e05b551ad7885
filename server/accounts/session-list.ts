/**
 * A user's own sessions, as the console's "Minha conta" shows them: the ones still open (by the rules of
 * ./sessions.ts), newest first, each named by its public id, the caller's own marked; ending one, or all but the
 * caller's. Only the user's own are ever listed or ended (the store's calls name the user). The token hashes of the
 * sessions ended go back to the caller, to end the live streams they opened, and nowhere else.
 */
import type { AccountSession } from '../../core/backoffice';
import type { Clock } from '../lib/clock';
import type { StoredSession } from '../store/accounts';
import type { SessionListStore } from '../store/session-list';
import { sessionNotFound } from './errors';
import { SESSION_IDLE_MS } from './sessions';

export interface SessionList {
  /** The open sessions of `userId`, newest first; `current` is the caller's session's token hash. */
  list(userId: string, current: string | undefined): Promise<AccountSession[]>;
  /** Ends the session `id` of `userId`; resolves with its token hash, or throws 404 `session_not_found`. */
  end(userId: string, id: string): Promise<string>;
  /** Ends every session of `userId` but `current` (a token hash); resolves with the hashes ended. */
  endOthers(userId: string, current: string): Promise<string[]>;
}

export function createSessionList({ store, clock }: { store: SessionListStore; clock: Clock }): SessionList {
  const open = (session: StoredSession, now: number) =>
    now < Date.parse(session.expiresAt) && now - Date.parse(session.lastSeenAt) < SESSION_IDLE_MS;

  return {
    async list(userId, current) {
      const now = clock.now().getTime();
      return (await store.listUserSessions(userId))
        .filter((session) => open(session, now))
        .map(({ id, device, address, createdAt, lastSeenAt, tokenHash }) => ({
          id,
          device,
          address,
          createdAt,
          lastSeenAt,
          current: tokenHash === current,
        }));
    },
    async end(userId, id) {
      const hash = await store.endUserSession(userId, id);
      if (hash === undefined) throw sessionNotFound();
      return hash;
    },
    endOthers: (userId, current) => store.endOtherSessions(userId, current),
  };
}
