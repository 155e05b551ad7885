/**
 * Holds the access token: logs in once, reuses the token until shortly before it expires, and lets only one
 * login be in flight however many calls are waiting for it.
 */

/** Assumed lifetime when the token is not a JWT we can read (the provider's default is 60 minutes). */
const DEFAULT_LIFETIME_MS = 55 * 60_000;
/** Renew this long before `exp`, so a token never expires between our check and the provider's. */
const RENEW_MARGIN_MS = 60_000;

export class TokenCache {
  #token: string | undefined;
  #expiresAt = 0;
  #pending: Promise<string> | undefined;
  /** Logins performed, for observability and tests. */
  logins = 0;

  constructor(
    private readonly login: () => Promise<string>,
    private readonly now: () => number = Date.now,
  ) {}

  /** A valid token, logging in when there is none or it is about to expire. */
  get(): Promise<string> {
    if (this.#token && this.now() < this.#expiresAt - RENEW_MARGIN_MS) return Promise.resolve(this.#token);
    this.#pending ??= this.login()
      .then((token) => {
        this.logins++;
        this.#token = token;
        this.#expiresAt = readJwtExpiry(token) ?? this.now() + DEFAULT_LIFETIME_MS;
        return token;
      })
      .finally(() => {
        this.#pending = undefined;
      });
    return this.#pending;
  }

  /** Forgets `token` after the provider refused it; a newer token obtained meanwhile is kept. */
  invalidate(token: string): void {
    if (this.#token === token) {
      this.#token = undefined;
      this.#expiresAt = 0;
    }
  }
}

/** `exp` of a JWT in milliseconds, or undefined when the token is opaque. */
export function readJwtExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const exp = (claims as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}
