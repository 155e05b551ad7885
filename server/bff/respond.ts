/**
 * Writing a refusal out: an `ApiError` (server/payments/errors.ts) as the contract's envelope with its status. The
 * error handler of the API (app.ts) and the guards answer through it; the payment lifecycle only throws.
 */
import type { Context } from 'hono';
import { envelopeOf, type ApiError } from '../payments/errors';

/** The refusal as JSON: `{ statusCode: "Error", error: { name, message, code, details? } }` with the error's status. */
export function sendError(c: Context, error: ApiError) {
  return c.json(envelopeOf(error), error.status);
}
