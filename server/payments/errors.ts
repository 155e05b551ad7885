/**
 * Errors the BFF shows to browsers: the provider's envelope shape with a stable `error.code` the element can
 * switch on, and a message safe to display. Provider failures are translated here and nowhere else.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ProviderConfigError, ProviderError, ProviderNetworkError } from '../provider';

/** A refusal the browser may read. `cause` is for the operator's log only and never leaves the server. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function errorBody(name: string, code: string, message: string, details?: unknown) {
  return { statusCode: 'Error' as const, error: { name, message, code, ...(details === undefined ? {} : { details }) } };
}

export function sendError(c: Context, error: ApiError) {
  return c.json(errorBody(error.name, error.code, error.message, error.details), error.status);
}

/** Turns a provider failure into what the browser may know: a status, a stable code and a plain message. */
export function fromProviderError(error: unknown): ApiError {
  if (error instanceof ProviderNetworkError) {
    return error.timedOut
      ? new ApiError(504, 'provider_timeout', 'The payment provider did not answer in time. Please try again.')
      : new ApiError(502, 'provider_unavailable', 'The payment provider could not be reached. Please try again.');
  }
  if (error instanceof ProviderConfigError) {
    return new ApiError(503, 'provider_misconfigured', 'Payments are temporarily unavailable.');
  }
  if (error instanceof ProviderError) {
    if (error.reason === 'CounterpartyTaxNumberInvalid') {
      return new ApiError(422, 'payer_cpf_invalid', 'The CPF was refused. Check the number and try again.');
    }
    if (error.reason === 'CounterpartyServiceError') {
      return new ApiError(422, 'payer_refused', 'This CPF cannot be used for this payment. Try another payment method.');
    }
    if (error.status >= 500 || error.status === 429) {
      return new ApiError(502, 'provider_unavailable', 'The payment provider is unavailable. Please try again.');
    }
    return new ApiError(502, 'provider_rejected', 'The payment provider refused the request.');
  }
  return new ApiError(500, 'internal_error', 'Something went wrong on our side.');
}
