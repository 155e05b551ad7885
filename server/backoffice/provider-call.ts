/**
 * How the back office calls the provider for the merchant: a refusal the merchant can act on (a 4xx other than 401)
 * is passed through with the provider's status and reason, anything else is translated as for the shoppers (a 502,
 * a 504, a 503 for a refused key pair).
 */
import { ProviderError } from '../provider';
import { fromProviderError, providerRefusal, type ApiError } from '../payments/errors';

/** The back office's refusal for a failed provider call. */
export function backOfficeError(error: unknown): ApiError {
  if (error instanceof ProviderError && error.status >= 400 && error.status < 500 && error.status !== 401) {
    return providerRefusal(error);
  }
  return fromProviderError(error);
}

/** `work`, its failure turned into the back office's refusal. */
export const callProvider = <T>(work: Promise<T>): Promise<T> => work.catch((error: unknown) => Promise.reject(backOfficeError(error)));
