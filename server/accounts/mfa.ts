/**
 * The console users' second factor: TOTP (RFC 6238, `otpauth`; the seed sealed at rest under the user's id), ten
 * one-use recovery codes (only their SHA-256 kept), the pending first step of a two-step sign-in (a server-side
 * record named by a random token's hash, 5 minutes, 5 wrong codes at most) and the proof a session last gave (the
 * step-up's 5 minutes). Passkeys are ./passkeys.ts's. Who must have a factor is `MFA_REQUIRED` (`mfaRequiredFor`).
 */
import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Clock } from '../lib/clock';
import type { Sealer } from '../lib/sealer';
import type { UserRole } from '../store/accounts';
import type { MfaStore, PendingPurpose } from '../store/mfa';
import { mfaCodeInvalid, mfaTotpState } from './errors';

/** `MFA_REQUIRED`: whose role must have a second factor; `operator` means operators and owners. */
export const MFA_POLICIES = ['off', 'owner', 'operator', 'all'] as const;
export type MfaPolicy = (typeof MFA_POLICIES)[number];
export const DEFAULT_MFA_POLICY: MfaPolicy = 'operator';

const REQUIRED: Record<MfaPolicy, readonly UserRole[]> = {
  off: [],
  owner: ['owner'],
  operator: ['operator', 'owner'],
  all: ['viewer', 'operator', 'owner'],
};
export const mfaRequiredFor = (policy: MfaPolicy, role: UserRole) => REQUIRED[policy].includes(role);

/** How a second factor is proven: a TOTP code, a recovery code, or a passkey. */
export type MfaMethod = 'totp' | 'recovery_code' | 'passkey';

/** A sign-in's second step, and a step-up, wait this long at most. */
export const PENDING_MS = 5 * 60_000;
/** A session's proof is fresh this long: past it, a guarded action asks again. */
export const STEP_UP_MS = 5 * 60_000;
const MAX_ATTEMPTS = 5;
const RECOVERY_CODES = 10;
const ISSUER = 'PIX Checkout';

export const secretHash = (value: string) => createHash('sha256').update(value).digest('hex');
const iso = (ms: number) => new Date(ms).toISOString();

/** A recovery code as typed: case, spaces and dashes do not matter. */
const normalCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');
const TOTP_FORMAT = /^\d{6}$/;
const RECOVERY_FORMAT = /^[a-z2-7]{10}$/;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** Ten characters of base32 (50 bits), shown as `xxxxx-xxxxx`. */
function recoveryCode(): string {
  const chars = [...randomBytes(10)].map((byte) => ALPHABET[byte % 32]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

export interface MfaOptions {
  store: MfaStore;
  sealer: Sealer;
  clock: Clock;
}

export function createMfa({ store, sealer, clock }: MfaOptions) {
  const totpOf = (seed: string, label: string) =>
    new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(seed) });
  const now = () => clock.now().getTime();

  /** The time step `code` is valid for (one step either side), or undefined. */
  function stepOf(seed: string, code: string): number | undefined {
    if (!TOTP_FORMAT.test(code)) return undefined;
    const totp = totpOf(seed, 'check');
    const timestamp = now();
    const delta = totp.validate({ token: code, timestamp, window: 1 });
    return delta === null ? undefined : totp.counter({ timestamp }) + delta;
  }

  const openSeed = (sealed: string, userId: string) => sealer.open(sealed, `totp:${userId}`);

  return {
    /** The methods that prove `userId`'s second factor; empty: it has none. */
    async methods(userId: string): Promise<MfaMethod[]> {
      const [totp, passkeys] = await Promise.all([store.getTotp(userId), store.listPasskeys(userId)]);
      const on = totp?.enabledAt ? (['totp', 'recovery_code'] as const) : [];
      return [...on, ...(passkeys.length > 0 ? (['passkey'] as const) : [])];
    },

    /** Begins a TOTP enrolment (a new seed, sealed); refused when the TOTP is already on. */
    async startTotp(user: { id: string; email: string }): Promise<{ secret: string; otpauthUrl: string }> {
      if ((await store.getTotp(user.id))?.enabledAt) throw mfaTotpState('The authenticator app is already set up.');
      const secret = new Secret({ size: 20 }).base32;
      await store.putPendingTotp(user.id, sealer.seal(secret, `totp:${user.id}`));
      return { secret, otpauthUrl: totpOf(secret, user.email).toString() };
    },

    /** Turns the TOTP on with its first code; resolves with the ten recovery codes, shown this once. */
    async confirmTotp(userId: string, code: string): Promise<string[]> {
      const totp = await store.getTotp(userId);
      if (!totp || totp.enabledAt) throw mfaTotpState(totp ? 'The authenticator app is already set up.' : 'Begin the set-up first.');
      const step = stepOf(openSeed(totp.seed, userId), code.trim());
      if (step === undefined) throw mfaCodeInvalid();
      const codes = Array.from({ length: RECOVERY_CODES }, recoveryCode);
      await store.enableTotp(
        userId,
        iso(now()),
        step,
        codes.map((c) => secretHash(normalCode(c))),
      );
      return codes;
    },

    /** Whether `code` (a TOTP code, or a recovery code, then spent) proves `userId`'s factor; each opens once. */
    async verifyCode(userId: string, code: string): Promise<boolean> {
      const typed = normalCode(code);
      if (TOTP_FORMAT.test(typed)) {
        const totp = await store.getTotp(userId);
        if (!totp?.enabledAt) return false;
        const step = stepOf(openSeed(totp.seed, userId), typed);
        return step !== undefined && store.spendTotpStep(userId, step);
      }
      return RECOVERY_FORMAT.test(typed) && store.spendRecoveryCode(userId, secretHash(typed), iso(now()));
    },

    unusedRecoveryCodes: (userId: string) => store.unusedRecoveryCodes(userId),

    /** Keeps a pending record for `userId` (5 minutes); resolves with the token naming it (only its hash is kept). */
    async startPending(userId: string, purpose: PendingPurpose, challenge: string | null = null): Promise<string> {
      const token = randomBytes(32).toString('base64url');
      await store.putPending({ tokenHash: secretHash(token), userId, purpose, challenge, expiresAt: iso(now() + PENDING_MS) }, iso(now()));
      return token;
    },

    /** The pending record of `token` while it lasts. */
    pendingOf: (token: string | undefined, purpose: PendingPurpose) =>
      token ? store.findPending(secretHash(token), purpose, iso(now())) : Promise.resolve(undefined),

    /** Counts a wrong code on a pending record, ending it at the fifth. */
    async failPending(token: string): Promise<void> {
      if ((await store.failPending(secretHash(token))) >= MAX_ATTEMPTS) await store.endPending(secretHash(token));
    },

    endPending: (token: string) => store.endPending(secretHash(token)),

    /** Notes that the session (its token's hash) proved the second factor now. */
    noteProof: (sessionHash: string) => store.noteProof(sessionHash, iso(now())),

    /** Whether the session proved the second factor within the last 5 minutes. */
    async proofFresh(sessionHash: string): Promise<boolean> {
      const at = await store.proofOf(sessionHash);
      return at !== undefined && now() - Date.parse(at) < STEP_UP_MS;
    },

    /** Deletes every factor of `userId` (a lost device): true when it had one. */
    reset: (userId: string) => store.resetMfa(userId),
  };
}

export type Mfa = ReturnType<typeof createMfa>;
