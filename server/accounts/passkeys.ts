/**
 * Passkeys (WebAuthn, `@simplewebauthn/server`) as a console user's second factor: registered from a signed-in
 * session, asserted at the sign-in's second step and at a step-up. Each ceremony's challenge is a pending record
 * (server/store/mfa.ts) named by the challenge's hash, for one user and one purpose, 5 minutes, taken once: the
 * browser's answer names its challenge (clientDataJSON), so no other state travels. The relying party is the
 * console's origin as the browser sent it (`Origin`, already one of the console's own): its host name is the RP ID.
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { AuthenticatorTransport } from '@simplewebauthn/server';
import type { Clock } from '../lib/clock';
import type { MfaStore, PendingPurpose } from '../store/mfa';
import { mfaCodeInvalid } from './errors';
import { PENDING_MS, secretHash } from './mfa';

/** The console's origin as the browser sent it, and its host name (the RP ID). */
export interface RelyingParty {
  origin: string;
  id: string;
}

export const relyingPartyOf = (origin: string): RelyingParty => ({ origin, id: new URL(origin).hostname });

const RP_NAME = 'PIX Checkout';
const iso = (ms: number) => new Date(ms).toISOString();
const transportsOf = (values: readonly string[]) => values as AuthenticatorTransport[];

/** The challenge the browser's answer names, or undefined when it names none. */
function challengeOf(response: { response?: { clientDataJSON?: unknown } }): string | undefined {
  try {
    const data = JSON.parse(Buffer.from(String(response.response?.clientDataJSON), 'base64url').toString('utf8')) as {
      challenge?: unknown;
    };
    return typeof data.challenge === 'string' ? data.challenge : undefined;
  } catch {
    return undefined;
  }
}

export function createPasskeys({ store, clock }: { store: MfaStore; clock: Clock }) {
  const now = () => clock.now().getTime();

  async function keepChallenge(userId: string, purpose: PendingPurpose, challenge: string) {
    const expiresAt = iso(now() + PENDING_MS);
    await store.putPending({ tokenHash: secretHash(challenge), userId, purpose, challenge, expiresAt }, iso(now()));
  }

  /** The challenge of `response` if `userId` was given it for `purpose` and it lasts; spent by this call. */
  async function takeChallenge(userId: string, purpose: PendingPurpose, response: object): Promise<string> {
    const challenge = challengeOf(response);
    const pending = challenge ? await store.findPending(secretHash(challenge), purpose, iso(now())) : undefined;
    if (!pending || pending.userId !== userId) throw mfaCodeInvalid();
    await store.endPending(pending.tokenHash);
    return challenge!;
  }

  return {
    /** Options to create a passkey for `user`, its existing ones excluded. */
    async registrationOptions(user: { id: string; email: string }, rp: RelyingParty) {
      const existing = await store.listPasskeys(user.id);
      const options = await generateRegistrationOptions({
        rpName: RP_NAME,
        rpID: rp.id,
        userName: user.email,
        userID: new TextEncoder().encode(user.id),
        attestationType: 'none',
        excludeCredentials: existing.map((p) => ({ id: p.id, transports: transportsOf(p.transports) })),
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      });
      await keepChallenge(user.id, 'passkey_add', options.challenge);
      return options;
    },

    /** Verifies and keeps the new passkey; a 401 `mfa_code_invalid` when it does not verify. */
    async register(userId: string, rp: RelyingParty, response: RegistrationResponseJSON): Promise<{ id: string }> {
      const expectedChallenge = await takeChallenge(userId, 'passkey_add', response);
      const verification = await verifyRegistrationResponse({
        response,
        expectedChallenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification: false,
      }).catch(() => undefined);
      if (!verification?.verified) throw mfaCodeInvalid();
      const { credential } = verification.registrationInfo;
      await store.addPasskey({
        id: credential.id,
        userId,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports ?? [],
        createdAt: iso(now()),
      });
      return { id: credential.id };
    },

    /** Options to assert one of `userId`'s passkeys, for the sign-in's second step or a step-up. */
    async authenticationOptions(userId: string, purpose: 'passkey_sign_in' | 'passkey_step_up', rp: RelyingParty) {
      const passkeys = await store.listPasskeys(userId);
      const options = await generateAuthenticationOptions({
        rpID: rp.id,
        allowCredentials: passkeys.map((p) => ({ id: p.id, transports: transportsOf(p.transports) })),
        userVerification: 'preferred',
      });
      await keepChallenge(userId, purpose, options.challenge);
      return options;
    },

    /** Whether `response` is a valid assertion of one of `userId`'s passkeys to the challenge it was given. */
    async authenticate(
      userId: string,
      purpose: 'passkey_sign_in' | 'passkey_step_up',
      rp: RelyingParty,
      response: AuthenticationResponseJSON,
    ): Promise<boolean> {
      const expectedChallenge = await takeChallenge(userId, purpose, response).catch(() => undefined);
      const passkey = typeof response.id === 'string' ? await store.getPasskey(response.id) : undefined;
      if (!expectedChallenge || !passkey || passkey.userId !== userId) return false;
      const verification = await verifyAuthenticationResponse({
        response,
        expectedChallenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification: false,
        credential: {
          id: passkey.id,
          publicKey: Buffer.from(passkey.publicKey, 'base64url'),
          counter: passkey.counter,
          transports: transportsOf(passkey.transports),
        },
      }).catch(() => undefined);
      if (!verification?.verified) return false;
      await store.usePasskey(passkey.id, verification.authenticationInfo.newCounter, iso(now()));
      return true;
    },
  };
}

export type Passkeys = ReturnType<typeof createPasskeys>;
