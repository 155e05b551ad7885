/**
 * Which text the shopper reads for each error code. In the lazy chunk (views/screens.ts hands the table to i18n.ts's
 * `errorMessage`): the first QR needs none of it.
 */
import type { ShopperErrorCode } from '../core/contract.js';
import type { Strings } from './i18n.js';

/**
 * The element's own codes, for a request that got no usable answer (status 0, or a body it cannot use) and for a
 * page it cannot start (`CheckoutApiError`, `pix-checkout-error`).
 */
export type ElementErrorCode = 'offline' | 'network_error' | 'invalid_response' | 'invalid_configuration' | 'unexpected';

/**
 * The element's words (keys of `Strings`) for every `error.code` a shopper can get from the BFF (core/contract.ts, `SHOPPER_ERRORS`) and
 * for its own: a code of the contract without a text here is a compile error. Several codes share a text; those of a
 * malformed request or a server still starting read as the generic texts of their status class.
 */
export const ERROR_TEXT = {
  bad_request: 'errClient',
  invalid_json: 'errRequest',
  invalid_request: 'errRequest',
  payload_too_large: 'errRequest',
  unsupported_media_type: 'errRequest',
  headers_too_large: 'errClient',
  order_not_found: 'errOrderNotFound',
  order_token_required: 'orderTokenRequired',
  order_token_invalid: 'orderTokenInvalid',
  order_token_expired: 'orderTokenExpired',
  payer_required: 'cpfRequired',
  payer_cpf_invalid: 'refusedInvalid',
  payer_refused: 'refusedPayer',
  return_url_not_allowed: 'errReturnUrl',
  checkout_not_found: 'errCheckoutNotFound',
  checkout_pending: 'errCheckoutPending',
  provider_unavailable: 'errProviderUnavailable',
  provider_timeout: 'errProviderTimeout',
  provider_rejected: 'errProviderRejected',
  provider_misconfigured: 'errUnavailable',
  orders_unavailable: 'errOrdersUnavailable',
  orders_timeout: 'errOrdersUnavailable',
  rate_limited: 'errRateLimited',
  too_many_streams: 'errTooManyStreams',
  server_busy: 'errServerBusy',
  starting: 'errServer',
  store_unavailable: 'errServer',
  body_timeout: 'errTimeout',
  request_timeout: 'errTimeout',
  internal_error: 'errInternal',
  not_found: 'errNotFound',
  origin_not_allowed: 'errOrigin',
  // The element's own codes (status 0, or an answer it cannot use).
  offline: 'errOffline',
  network_error: 'errNetwork',
  invalid_response: 'errInvalidResponse',
  invalid_configuration: 'missingConfiguration',
  unexpected: 'errInternal',
} as const satisfies Record<ShopperErrorCode | ElementErrorCode, keyof Strings>;

export type ErrorCode = keyof typeof ERROR_TEXT;
