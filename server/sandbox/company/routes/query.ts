/** Query strings and the caller's identity, as the company routes read them. */
import type { Context } from 'hono';
import { MERCHANT } from '../../defaults';
import type { Decider } from '../requests';

/**
 * Query values are text while the shared schemas want numbers for page fields: whole numbers (signed, so a
 * negative offset is a `minimum` error rather than a `type` one) become numbers, anything else stays text and
 * fails as a `type` error.
 */
export function queryInput(query: Record<string, string>, numeric: readonly string[]): Record<string, unknown> {
  const input: Record<string, unknown> = { ...query };
  for (const key of numeric) if (query[key] !== undefined && /^-?\d{1,9}$/.test(query[key])) input[key] = Number(query[key]);
  return input;
}

/**
 * The approval step of a partner action names the key's user; the sandbox keys have no person behind them, so the
 * merchant and the key (the token's `sub`, already verified by `requireToken`) stand in.
 */
export function partnerUser(c: Context): Decider {
  const token = /^Bearer\s+(\S+)/i.exec(c.req.header('authorization') ?? '')?.[1] ?? '';
  let key = 'API';
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub?: unknown };
    if (typeof claims.sub === 'string') key = claims.sub;
  } catch {
    // requireToken accepted the token, so its body is JSON; this only guards against a future token format.
  }
  return { userFullName: `${MERCHANT.name} (${key})`, userRealm: 'Partner', comment: null };
}
