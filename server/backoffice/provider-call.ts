/**
 * How the back office calls the provider for the merchant: a failure becomes the merchant's refusal
 * (`merchantRefusal`: a refusal the merchant can act on passes through with the provider's status and reason).
 */
import { merchantRefusal } from '../payments/errors';

/** The back office's refusal for a failed provider call. */
export const backOfficeError = merchantRefusal;

/** `work`, its failure turned into the back office's refusal. */
export const callProvider = <T>(work: Promise<T>): Promise<T> => work.catch((error: unknown) => Promise.reject(backOfficeError(error)));
