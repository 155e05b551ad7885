/**
 * A user changing their own password (`POST /api/admin/me/password`): the current password proves it is them (a
 * stolen session alone cannot take the account over), checked under the sign-in brake of their e-mail and address
 * (./sign-in-limiter), so a session cannot be used to guess it either. The change ends every session of the user in
 * the store's transaction (server/store/accounts.ts); the caller's goes on under a new token, a new cookie, so a token
 * seen before the change opens nothing after it. Recorded as `user.change_password`.
 */
import type { Clock } from '../lib/clock';
import type { AccountStore } from '../store/accounts';
import type { SessionListStore } from '../store/session-list';
import type { SignInBrakeStore } from '../store/sign-in-brakes';
import { recorded, type AuditRecorder } from './audit';
import { invalidCredentials, signInRateLimited, userNotFound } from './errors';
import { verifyPassword } from './passwords';
import type { Sessions, StartedSession } from './sessions';
import { createSignInLimiter, type SignInLimits } from './sign-in-limiter';
import { checkedHash } from './users';

export interface OwnPasswordChange {
  userId: string;
  /** The caller's session's token hash: it is not counted among the others ended. */
  session: string | undefined;
  address: string;
  userAgent?: string | undefined;
  currentPassword: string;
  newPassword: string;
}

export type OwnPasswordResult =
  { ok: true; session: StartedSession; ended: number } | { ok: false; error: Error; retryAfterSeconds?: number };

export interface OwnPassword {
  change(input: OwnPasswordChange, audit: AuditRecorder): Promise<OwnPasswordResult>;
}

export interface OwnPasswordOptions {
  store: AccountStore & SignInBrakeStore & SessionListStore;
  clock: Clock;
  sessions: Sessions;
  limits?: Partial<SignInLimits>;
  verify?: (password: string, stored: string) => Promise<boolean>;
  log?: { error(...args: unknown[]): void };
}

export function createOwnPassword({ store, clock, sessions, limits, log, verify = verifyPassword }: OwnPasswordOptions): OwnPassword {
  const limiter = createSignInLimiter({ store, clock, ...(log ? { log } : {}) }, limits);
  return {
    async change({ userId, session, address, userAgent, currentPassword, newPassword }, audit) {
      const user = await store.getUser(userId);
      let retryAfterSeconds: number | undefined;
      try {
        return await recorded(audit, 'user.change_password', user?.email ?? userId, async () => {
          if (!user) throw userNotFound();
          // The new password's rules first: a too-short one costs no attempt of the brake.
          const passwordHash = await checkedHash(newPassword);
          const attempt = await limiter.begin(address, user.email);
          if (!('succeeded' in attempt)) {
            retryAfterSeconds = Math.ceil(attempt.retryAfterMs / 1000);
            throw signInRateLimited();
          }
          if (!(await verify(currentPassword, user.passwordHash))) throw invalidCredentials();
          await attempt.succeeded();
          const others = (await store.listUserSessions(user.id)).filter((s) => s.tokenHash !== session).length;
          const result = await store.changeUser(user.id, { passwordHash });
          if (!result || 'refused' in result) throw userNotFound();
          const started = await sessions.start(result.user, { address, userAgent });
          return { result: { ok: true as const, session: started, ended: others }, details: { endedSessions: others } };
        });
      } catch (error) {
        if (retryAfterSeconds === undefined) throw error;
        return { ok: false, error: error as Error, retryAfterSeconds };
      }
    },
  };
}
