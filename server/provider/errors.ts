/**
 * One error class for everything the partner API can refuse, plus two subclasses for what callers handle
 * differently: a key pair the provider refuses (configuration) and a request that never got an answer (network).
 */
import type { ErrorEnvelope, ValidationDetail } from './schemas';

type Details = ErrorEnvelope['error']['details'];

export interface ProviderErrorInit {
  status: number;
  errorName?: string;
  code?: string;
  details?: Details;
  message: string;
  raw?: unknown;
  cause?: unknown;
}

export class ProviderError extends Error {
  override name = 'ProviderError';
  /** HTTP status of the provider's answer; 0 when none arrived. */
  readonly status: number;
  /** `error.name` of the provider's envelope, for example `OperationError`. */
  readonly errorName: string | undefined;
  /** `error.code` of the envelope, when present. */
  readonly code: string | undefined;
  /** `error.details.reason`, for example `CounterpartyTaxNumberInvalid`. */
  readonly reason: string | undefined;
  /** `error.details` as sent: an object with `reason`, or the list of validation items of a 400. */
  readonly details: Details;
  /** The parsed response body, for logs. */
  readonly raw: unknown;

  constructor(init: ProviderErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.errorName = init.errorName;
    this.code = init.code;
    this.details = init.details;
    this.reason = reasonOf(init.details);
    this.raw = init.raw;
  }

  /** The validation items of a 400 `InvalidRequestFormatError`, empty otherwise. */
  get validation(): ValidationDetail[] {
    return Array.isArray(this.details) ? this.details : [];
  }
}

/** The provider refused the access key pair (invalid, pending or expired): fix the configuration. */
export class ProviderConfigError extends ProviderError {
  override name = 'ProviderConfigError';
}

/** No answer: the connection failed or the timeout passed. A create may or may not have happened. */
export class ProviderNetworkError extends ProviderError {
  override name = 'ProviderNetworkError';
  readonly timedOut: boolean;
  constructor(message: string, timedOut: boolean, cause?: unknown) {
    super({ status: 0, message, cause });
    this.timedOut = timedOut;
  }
}

function reasonOf(details: Details): string | undefined {
  if (!details || Array.isArray(details)) return undefined;
  return typeof details.reason === 'string' ? details.reason : undefined;
}
