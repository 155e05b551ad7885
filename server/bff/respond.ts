/**
 * Writing a refusal out: an `ApiError` (server/payments/errors.ts) as the contract's envelope with its status. The
 * error handler of the API (app.ts) and the guards answer through it; the payment lifecycle only throws.
 */
import type { Context, ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { clientLeft, clientLeftAnswer } from '../lib/node-body';
import { ApiError, envelopeOf, errorBody, internalError } from '../payments/errors';

/** The refusal as JSON: `{ statusCode: "Error", error: { name, message, code, details? } }` with the error's status. */
export function sendError(c: Context, error: ApiError) {
  return c.json(envelopeOf(error), error.status);
}

/**
 * The error handler of an app whose answers are the envelope (the API's, the demo's): an `ApiError` as itself, a
 * Hono `HTTPException` as a 4xx `bad_request`, a client that left mid-body as a quiet 499 (the request log's line
 * only: nothing went wrong here), anything else logged under `where` and answered as a 500 envelope.
 */
export function errorAnswers(logger: Pick<Console, 'warn' | 'error'>, where: string): ErrorHandler {
  return (error, c) => {
    if (clientLeft(c, error)) return clientLeftAnswer(c);
    if (error instanceof ApiError) {
      if (error.status >= 500 && error.cause !== undefined) logger.warn(`${where}: ${error.code}:`, error.cause);
      return sendError(c, error);
    }
    if (error instanceof HTTPException) {
      return c.json(errorBody('ApiError', 'bad_request', error.message || 'Bad request.'), error.status);
    }
    logger.error(`${where}:`, error);
    return sendError(c, internalError());
  };
}
