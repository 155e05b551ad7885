/** The `Idempotency-Key` of a back-office request that moves money (a cash-out, a refund): one key, one transfer. */
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
