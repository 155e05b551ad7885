/**
 * Access tokens: HS256 JWTs, as the provider's are, signed with a key kept in the database so tokens survive a
 * restart. Expiry is read from the emulator clock, so tests move time instead of waiting an hour.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { safeEqual } from '../lib/secrets';
import type { MiddlewareHandler } from 'hono';
import type { Clock } from '../lib/clock';
import type { AccessKeys, LoginCheck } from './access-keys';
import { TOKEN_TTL_SECONDS } from './defaults';
import { tokenInvalid } from './errors';

const base64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

export interface TokenIssuer {
  /** Checks the key pair in constant time: `ok`, or why the login is refused. */
  accepts(accessKey: string, secret: string): LoginCheck;
  issue(accessKey: string): string;
  /**
   * True when the signature matches, the token has not expired at the emulator's current time, and its key is still
   * Active (a key set Pending or Expired, or deleted, takes its tokens with it).
   */
  verify(token: string): boolean;
}

export function createTokenIssuer(options: { signingKey: string; clock: Clock; keys: AccessKeys }): TokenIssuer {
  const key = Buffer.from(options.signingKey, 'base64url');
  const sign = (input: string) => createHmac('sha256', key).update(input).digest();
  return {
    accepts: (accessKey, secret) => options.keys.check(accessKey, secret),
    issue(accessKey) {
      const iat = Math.floor(options.clock.now().getTime() / 1000);
      const head = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
      const body = base64url(JSON.stringify({ sub: accessKey, iat, exp: iat + TOKEN_TTL_SECONDS, jti: randomUUID() }));
      return `${head}.${body}.${sign(`${head}.${body}`).toString('base64url')}`;
    },
    verify(token) {
      const [head, body, signature, ...rest] = token.split('.');
      if (!head || !body || !signature || rest.length > 0) return false;
      // Compared as text: decoding first would accept other spellings of the same bytes (a stray `~` or `=`, `+` for
      // `-`, another last character), so one token would have many valid forms.
      if (!safeEqual(signature, sign(`${head}.${body}`).toString('base64url'))) return false;
      try {
        const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { exp?: unknown; sub?: unknown };
        return (
          typeof claims.exp === 'number' &&
          options.clock.now().getTime() < claims.exp * 1000 &&
          typeof claims.sub === 'string' &&
          options.keys.active(claims.sub)
        );
      } catch {
        return false;
      }
    },
  };
}

export const newSigningKey = () => randomBytes(32).toString('base64url');

/** Requires `Authorization: Bearer <token>` with a valid, unexpired token. */
export const requireToken =
  (tokens: TokenIssuer): MiddlewareHandler =>
  async (_c, next) => {
    const header = _c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match?.[1] || !tokens.verify(match[1])) throw tokenInvalid();
    await next();
  };
