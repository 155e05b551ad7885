/**
 * Signing in to the console: the e-mail and password checked, a session started. A wrong e-mail, a wrong password and
 * a disabled user get the same refusal, after the same work (an unknown e-mail is checked against a dummy hash), so
 * neither the answer nor its time tells which. Attempts are braked per e-mail-and-address pair and per address (./sign-in-limiter),
 * counted before the password is checked, so a burst sent at once checks no more passwords than the brake allows,
 * and every attempt is recorded in the audit trail as `session.sign_in`, as the e-mail tried, never the password.
 */
import type { Clock } from '../lib/clock';
import type { AccountStore, StoredUser } from '../store/accounts';
import type { SignInBrakeStore } from '../store/sign-in-brakes';
import { auditRecorder, type AuditRecorder } from './audit';
import { invalidCredentials, signInRateLimited } from './errors';
import { prepareDummyHash, verifyNothing, verifyPassword } from './passwords';
import type { Sessions, StartedSession } from './sessions';
import { createSignInLimiter, type SignInLimiter, type SignInLimits } from './sign-in-limiter';
import { EmailSchema } from './users';

export interface SignInOptions {
  store: AccountStore & SignInBrakeStore;
  clock: Clock;
  sessions: Sessions;
  limits?: Partial<SignInLimits>;
  /** Checks a password against a stored hash: `verifyPassword` of ./passwords (tests count the checks through it). */
  verify?: (password: string, stored: string) => Promise<boolean>;
  log?: { error(...args: unknown[]): void };
  /** The second factor's methods of a user (./mfa.ts); any: the password opens no session, a second step does. */
  secondFactor?: (user: StoredUser) => Promise<readonly string[]>;
}

/** One sign-in: what was typed, and from where. */
export interface SignInInput {
  email: string;
  password: string;
  address: string;
  userAgent?: string | undefined;
}

export type SignInResult =
  | { ok: true; user: StoredUser; session: StartedSession }
  | { ok: true; user: StoredUser; methods: readonly string[] }
  | { ok: false; error: Error; retryAfterSeconds?: number };

/** What the audit trail shows as who tried: the e-mail tried, lower-cased and cut to a sane length, or `anonymous`. */
const triedAs = (email: string) => email.trim().toLowerCase().slice(0, 254) || 'anonymous';

export function createSignIn({ store, clock, sessions, limits, log, secondFactor, verify = verifyPassword }: SignInOptions) {
  const limiter: SignInLimiter = createSignInLimiter({ store, clock, ...(log ? { log } : {}) }, limits);
  prepareDummyHash();

  /** The user the password opens, or undefined; as long whether the e-mail has a user or not. */
  async function checked(email: string, password: string): Promise<StoredUser | undefined> {
    const valid = EmailSchema.safeParse(email);
    const user = valid.success ? await store.findUserByEmail(valid.data) : undefined;
    if (!user) return verifyNothing(password).then(() => undefined);
    const matches = await verify(password, user.passwordHash);
    return matches && user.disabledAt === null ? user : undefined;
  }

  return {
    /**
     * Checks the credentials from `address` and starts a session (noting the browser's `userAgent`); refusals are
     * `invalid_credentials` or `sign_in_rate_limited`.
     */
    async signIn({ email, password, address, userAgent }: SignInInput): Promise<SignInResult> {
      const actor = triedAs(email);
      const audit: AuditRecorder = auditRecorder({ store, clock, who: { actor, role: null, ip: address }, ...(log ? { log } : {}) });
      const attempt = await limiter.begin(address, actor);
      if (!('succeeded' in attempt)) {
        if (attempt.report)
          await audit({ action: 'session.sign_in', target: actor, outcome: 'refused', details: { code: 'sign_in_rate_limited' } });
        return { ok: false, error: signInRateLimited(), retryAfterSeconds: Math.ceil(attempt.retryAfterMs / 1000) };
      }
      const user = await checked(email, password);
      if (!user) {
        await audit({ action: 'session.sign_in', target: actor, outcome: 'refused', details: { code: 'invalid_credentials' } });
        return { ok: false, error: invalidCredentials() };
      }
      await attempt.succeeded();
      // The password passed; with a second factor on, the session waits for it (server/backoffice/routes/mfa-sign-in.ts).
      const asUser = auditRecorder({ store, clock, who: { actor: user.email, role: user.role, ip: address }, ...(log ? { log } : {}) });
      const methods = (await secondFactor?.(user)) ?? [];
      if (methods.length > 0) {
        await asUser({ action: 'session.password_ok', target: user.email, outcome: 'ok', details: { awaiting: 'second_factor' } });
        return { ok: true, user, methods };
      }
      const session = await sessions.start(user, { address, userAgent });
      await asUser({ action: 'session.sign_in', target: user.email, outcome: 'ok' });
      return { ok: true, user, session };
    },
  };
}

export type SignIn = ReturnType<typeof createSignIn>;
