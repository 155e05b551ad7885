/**
 * Writing a refusal out: an `ApiError` (a value of server/payments/errors.ts, whose code fixes its status in
 * core/contract.ts) as the contract's envelope with that status. The APIs' error handlers, the guards, the Node
 * listener and the demo answer through here; the payment lifecycle only throws.
 */
import type { Context, ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ErrorEnvelope } from '../../core/contract';
import { clientLeft, clientLeftAnswer } from '../lib/node-body';
import { isStoreUnavailable, STORE_RETRY_AFTER_SECONDS } from '../lib/store-unavailable';
import { ApiError, internalError, storeUnavailable } from '../payments/errors';

/** The envelope every refusal is sent in: `{ statusCode: "Error", error: { name, message, code, details? } }`. */
export function errorBody(name: string, code: string, message: string, details?: unknown): ErrorEnvelope {
  return { statusCode: 'Error' as const, error: { name, message, code, ...(details === undefined ? {} : { details }) } };
}

/** An `ApiError` as its envelope (its status is `error.status`). */
export const envelopeOf = (error: ApiError): ErrorEnvelope => errorBody(error.name, error.code, error.message, error.details);

/** The refusal as JSON, with the error's status. */
export function sendError(c: Context, error: ApiError) {
  return c.json(envelopeOf(error), error.status);
}

/**
 * A failure that is the database being away (../lib/store-unavailable.ts) as a 503 `store_unavailable` with
 * `Retry-After`, so a shopper (and a load balancer) waits and tries again; undefined for any other failure.
 */
export function storeUnavailableAnswer(error: unknown): { error: ApiError; retryAfter: string } | undefined {
  if (!isStoreUnavailable(error)) return undefined;
  return { error: storeUnavailable(error), retryAfter: String(STORE_RETRY_AFTER_SECONDS) };
}

/**
 * The error handler of an app whose answers are the envelope (the API's, the demo's): an `ApiError` as itself, a
 * Hono `HTTPException` as a 4xx `bad_request`, a client that left mid-body as a quiet 499 (the request log's line
 * only: nothing went wrong here), the database away as a 503 with `Retry-After` (one short line in the log, not a
 * stack per request), anything else logged under `where` and answered as a 500 envelope.
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
    const away = storeUnavailableAnswer(error);
    if (away) {
      logger.warn(`${where}: store_unavailable: ${error instanceof Error ? error.message : String(error)}`);
      c.header('retry-after', away.retryAfter);
      return sendError(c, away.error);
    }
    logger.error(`${where}:`, error);
    return sendError(c, internalError());
  };
}
