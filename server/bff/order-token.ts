/**
 * Order tokens: the merchant's server signs one for the page that shows an order, and only a request carrying it may
 * create or steer that order's checkout. Knowing an order id is not enough.
 *
 * Format: `<expiresAtUnixSeconds>.<base64url(HMAC-SHA256(key, "<orderId>.<expiresAtUnixSeconds>"))>`, where the key is
 * the order-source secret the merchant already shares with the BFF (`ORDERS_TOKEN`). Pure functions: no clock, no I/O.
 */
import { createHmac } from 'node:crypto';
import { safeEqual } from '../lib/secrets';

export type OrderTokenCheck = { ok: true } | { ok: false; reason: 'missing' | 'invalid' | 'expired' };

/** Seconds since the epoch as the token writes them: digits only, so the last `.` of the signed text is unambiguous. */
const EXPIRY = /^[1-9]\d{0,11}$/;
/** An HMAC-SHA256 in base64url without padding: 32 bytes are 43 characters. */
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

const signature = (key: string, orderId: string, expires: string) =>
  createHmac('sha256', key).update(`${orderId}.${expires}`).digest('base64url');

/** The token for `orderId`, valid until `expiresAt` (rounded down to the second). */
export function signOrderToken(key: string, orderId: string, expiresAt: Date): string {
  if (!key) throw new Error('signOrderToken needs a key');
  const seconds = Math.floor(expiresAt.getTime() / 1000);
  if (!Number.isSafeInteger(seconds) || !EXPIRY.test(String(seconds))) throw new Error('signOrderToken needs a valid expiry date');
  const expires = String(seconds);
  return `${expires}.${signature(key, orderId, expires)}`;
}

/**
 * Whether `token` was signed with `key` for this very `orderId` and is still valid at `now`. Never throws: anything
 * that is not a well-formed token is `invalid`, an absent or empty one `missing`. The signature is checked before the
 * expiry, so `expired` is only ever said of a token the merchant really issued.
 */
export function verifyOrderToken(key: string, orderId: string, token: unknown, now: Date): OrderTokenCheck {
  if (token === undefined || token === null || token === '') return { ok: false, reason: 'missing' };
  if (!key || typeof token !== 'string' || typeof orderId !== 'string' || token.length > 64) return { ok: false, reason: 'invalid' };
  const dot = token.indexOf('.');
  const expires = token.slice(0, dot);
  const given = token.slice(dot + 1);
  if (dot < 0 || !EXPIRY.test(expires) || !SIGNATURE.test(given)) return { ok: false, reason: 'invalid' };
  if (!safeEqual(given, signature(key, orderId, expires))) return { ok: false, reason: 'invalid' };
  // Written as "not after", so an invalid `now` (NaN) fails closed.
  if (!(Number(expires) * 1000 > now.getTime())) return { ok: false, reason: 'expired' };
  return { ok: true };
}
