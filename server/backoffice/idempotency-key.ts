/** The `Idempotency-Key` of a back-office request that moves money (a cash-out, a refund, a payment request): one key, one movement. */
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { IDEMPOTENCY_KEY } from '../payments/cashouts';
import { idempotencyKeyInvalid, idempotencyKeyRequired } from '../payments/errors';

/** The request's key; 400 when missing or malformed. */
export function idempotencyKey(c: Context): string {
  const key = c.req.header('idempotency-key');
  if (!key) throw idempotencyKeyRequired();
  if (!IDEMPOTENCY_KEY.test(key)) throw idempotencyKeyInvalid();
  return key;
}

/**
 * The request's key where a route took none before (a payment request): a malformed one is a 400, and without one a
 * new key is chosen, so the request is still kept and decided under a key, only not recognised when sent again.
 */
export const keyOrNew = (c: Context): string => (c.req.header('idempotency-key') === undefined ? randomUUID() : idempotencyKey(c));
