/**
 * The server's refusals as values, for the browser and the back office: a stable `error.code` from the contract
 * (core/contract.ts), whose table also fixes the status it is answered with, and a message safe to display. Each
 * refusal has a named factory, so no call site picks a status for a code. Provider failures are translated here
 * and nowhere else (`fromProviderError`, `merchantRefusal`). No HTTP here: the HTTP layers write these out in the
 * contract's envelope (server/http/error-envelope.ts).
 */
import { API_ERRORS, PROVIDER_REFUSED, type ApiErrorCode, type ApiErrorStatus } from '../../core/contract';
import { ProviderConfigError, ProviderError, ProviderNetworkError } from '../provider';

/** A refusal the browser may read. `cause` is for the operator's log only and never leaves the server. */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: ApiErrorStatus;
  readonly code: string;
  readonly details: unknown;

  constructor(code: ApiErrorCode, message: string, details?: unknown, options?: { cause?: unknown }) {
    super(message, options);
    this.status = API_ERRORS[code];
    this.code = code;
    this.details = details;
  }
}

/**
 * Turns a provider failure into what the browser may know: a status, a stable code and a plain message. A failure on
 * the provider's side keeps its cause, which the error handler logs as a warning for the operator (never sent).
 */
export function fromProviderError(error: unknown): ApiError {
  if (error instanceof ProviderNetworkError) {
    return error.timedOut
      ? new ApiError('provider_timeout', 'The payment provider did not answer in time. Please try again.', undefined, { cause: error })
      : new ApiError('provider_unavailable', 'The payment provider could not be reached. Please try again.', undefined, { cause: error });
  }
  if (error instanceof ProviderConfigError) {
    return new ApiError('provider_misconfigured', 'Payments are temporarily unavailable.', undefined, { cause: error });
  }
  if (error instanceof ProviderError) {
    if (error.reason === 'CounterpartyTaxNumberInvalid') {
      return new ApiError('payer_cpf_invalid', 'The CPF was refused. Check the number and try again.');
    }
    if (error.reason === 'CounterpartyServiceError') {
      return new ApiError('payer_refused', 'This CPF cannot be used for this payment. Try another payment method.');
    }
    if (error.status >= 500 || error.status === 429) {
      return new ApiError('provider_unavailable', 'The payment provider is unavailable. Please try again.', undefined, { cause: error });
    }
    return new ApiError('provider_rejected', 'The payment provider refused the request.');
  }
  return internalError();
}

/** A provider's refusal in the back office, passed through as it came: its own status and reason (core/contract.ts). */
class ProviderRefusal extends ApiError {
  override readonly status: ApiErrorStatus;
  override readonly code: string;
  constructor(error: ProviderError) {
    super('provider_rejected', error.message, error.details);
    // Not the contract's 502 `provider_rejected`: the provider's own 4xx and reason, outside the table by design.
    this.status = error.status as ApiErrorStatus;
    this.code = error.reason ?? error.code ?? PROVIDER_REFUSED;
  }
}

/** A provider refusal the merchant can act on (a 4xx): its status, its reason as the code, its message and details. */
export const providerRefusal = (error: ProviderError): ApiError => new ProviderRefusal(error);

/**
 * The merchant's refusal for a failed provider call of the back office (a cash-out, a refund, a receiver, a payment
 * request): a refusal the merchant can act on (a 4xx other than 401, the key pair, and 429, a pause) is passed
 * through with the provider's status and reason; anything else is translated as for the shoppers.
 */
export function merchantRefusal(error: unknown): ApiError {
  const actionable = error instanceof ProviderError && error.status >= 400 && error.status < 500 && ![401, 429].includes(error.status);
  return actionable ? providerRefusal(error) : fromProviderError(error);
}

// The request.

/** A state change whose body is not JSON (nor allowed `text/plain`). */
export const unsupportedMediaType = () => new ApiError('unsupported_media_type', 'Send the body as application/json.');
/** A body that cannot be read or parsed; `message` says which. */
export const invalidJson = (message: string) => new ApiError('invalid_json', message);
/** A body, query or address that breaks the route's rules; `details` lists the fields when there are some. */
export const invalidRequest = (message: string, details?: unknown) => new ApiError('invalid_request', message, details);
/** A JSON body over the size limit. */
export const payloadTooLarge = () => new ApiError('payload_too_large', 'Request body too large.');
/** A body slower than the deadline. */
export const bodyTimeout = () => new ApiError('body_timeout', 'The request body did not arrive in time.');
/** A streamed body (an invoice) that stopped arriving before the upload could end: the client's, not the provider's. */
export const requestTimeout = () => new ApiError('request_timeout', 'The request did not arrive in time.');
/** No route at this address. */
export const notFound = () => new ApiError('not_found', 'No such route.');
/** Anything unexpected: the details go to the log, never to the browser. */
export const internalError = () => new ApiError('internal_error', 'Something went wrong on our side.');

// The order and its token.

/** The merchant's order source does not know the order (or it may not be paid). */
export const orderNotFound = (orderId: string) => new ApiError('order_not_found', `Order ${orderId} was not found.`);
export const orderTokenRequired = () => new ApiError('order_token_required', 'This order needs the order token from the shop.');
export const orderTokenExpired = () => new ApiError('order_token_expired', 'The order token has expired. Reload the order page.');
export const orderTokenInvalid = () => new ApiError('order_token_invalid', 'The order token is not valid for this order.');
/** The order source failed or answered off its contract; `why` is for the log only. */
export const ordersUnavailable = (why: string) =>
  new ApiError('orders_unavailable', 'The shop could not confirm this order right now. Please try again.', undefined, { cause: why });
export const ordersTimeout = () => new ApiError('orders_timeout', 'The shop took too long to confirm this order. Please try again.');

/** A page on an origin that `ALLOWED_ORIGINS` does not name: the page reads this, its shopper the element's words. */
export const originNotAllowed = () =>
  new ApiError('origin_not_allowed', "This page's origin is not in the BFF's ALLOWED_ORIGINS: it may not take payments.");

// The payer.

/** A CPF whose check digits are wrong, refused before the provider is asked. */
export const payerCpfInvalid = () => new ApiError('payer_cpf_invalid', 'This CPF is not valid. Check the digits.');
/** A method that needs the payer's CPF (Open Finance) was asked without one; `method` is its label (core/method-labels.ts). */
export const payerRequired = (method: string) => new ApiError('payer_required', `${method} needs the payer CPF.`);
export const returnUrlNotAllowed = () => new ApiError('return_url_not_allowed', 'returnUrl must point to the storefront.');

// The checkout.

/** No such checkout, or one still being created; the back office says it in its own words. */
export const checkoutNotFound = (message = 'Checkout not found.') => new ApiError('checkout_not_found', message);
/** The order's checkout is still being created elsewhere (another request, another instance). */
export const checkoutPending = () => new ApiError('checkout_pending', 'The payment is still being prepared. Please try again.');
/** The provider could not be read for the back office; `cause` is for the log. */
export const providerReadFailed = (cause: unknown) =>
  new ApiError('provider_unavailable', 'Could not read the payment at the provider.', undefined, { cause });

// The limits.

export const rateLimited = () => new ApiError('rate_limited', 'Too many checkouts from this address. Try again in a moment.');
/** Over one client's share of the status streams. */
export const tooManyStreams = () => new ApiError('too_many_streams', 'Too many open status streams from this address.');
/** Over the back office's live streams. */
export const tooManyBackOfficeStreams = () => new ApiError('too_many_streams', 'Too many back-office live streams are open.');
/** The whole server's status streams are taken. */
export const serverBusy = () => new ApiError('server_busy', 'Too many open status streams. Try again shortly.');
/** The database is away for a moment (../lib/store-unavailable.ts); `cause` is for the log. */
export const storeUnavailable = (cause: unknown) =>
  new ApiError('store_unavailable', 'Payments are briefly unavailable. Try again in a few seconds.', undefined, { cause });

// The back office: cash-outs, refunds, invoices.

export const invalidCursor = () => new ApiError('invalid_cursor', 'The cursor is not one this list gave.');
export const idempotencyKeyRequired = () =>
  new ApiError('idempotency_key_required', 'Send an Idempotency-Key header (a new UUID per cash-out).');
export const idempotencyKeyInvalid = () =>
  new ApiError('idempotency_key_invalid', 'The Idempotency-Key must be 8 to 128 letters, digits, or . _ : -');
/** The key was used for another request (another fingerprint). */
export const idempotencyKeyReused = () =>
  new ApiError('idempotency_key_reused', 'This Idempotency-Key was used for another request; use a new key.');
/** The key's request is still being sent: nothing to answer yet. */
export const idempotencyKeyInProgress = () =>
  new ApiError('idempotency_key_in_progress', 'A request with this Idempotency-Key is still being sent. Try again shortly.');
/** The payment has a refund under way or done; `refund` is its view, sent as `details.refund`. */
export const refundExists = (refund: unknown) =>
  new ApiError('refund_exists', 'This payment already has a refund under way or done.', { refund });
export const notADuplicatePayment = () =>
  new ApiError('not_a_duplicate_payment', 'Only a completed duplicate payment of an order can be refunded here.');
export const orderNotPaidTwice = () =>
  new ApiError('order_not_paid_twice', 'The order has no other completed payment: this one is the one that pays it.');
export const payerNotRefundable = () =>
  new ApiError('payer_not_refundable', 'The provider names no payer with a CPF for this payment; refund it by hand.');
/** Only a Completed checkout can be refunded (`state`: the checkout's). */
export const checkoutNotPaid = (state?: string) =>
  new ApiError('checkout_not_paid', 'Only a completed payment can be refunded.', state === undefined ? undefined : { state });
/** The refund would take the checkout's refunds past what was paid; `refundable` is what is left (a decimal string). */
export const refundExceedsPaid = (refundable: string) =>
  new ApiError('refund_exceeds_paid', `At most ${refundable} of this payment can still be refunded.`, { refundable });
/**
 * Another refund of the checkout is still being sent and its outcome is not known yet (a lost answer, a crash): the
 * reconciler settles it with the provider shortly. A new refund meanwhile could pay the same intent twice.
 */
export const refundInProgress = () =>
  new ApiError(
    'refund_in_progress',
    'Another refund of this payment is still being sent and its outcome is not known yet; try again once it is settled.',
  );
export const approvalNotFound = () =>
  new ApiError('approval_not_found', 'No cash-out, refund or payment request waits for a decision under this key.');
/** Decided already (by another owner, or a moment ago); `state` is where it is now. */
export const approvalNotPending = (state: string) =>
  new ApiError('approval_not_pending', 'This cash-out, refund or payment request was already decided.', { state });
/** Maker-checker: whoever asked for a movement cannot decide it. */
export const approvalByMaker = () =>
  new ApiError('approval_by_maker', 'Who asked for a cash-out, refund or payment request cannot approve or reject it: another owner must.');
/** Maker-checker: the admin token is no person, so it is never the second one who approves a movement. */
export const approvalByToken = () =>
  new ApiError('approval_by_token', 'The admin token cannot approve a movement: a signed-in owner who did not ask for it must.');
/** A payment request kept for approval must be payable: an approved receiver, and one of its accounts. */
export const receiverNotPayable = (details: { receiverStatus: string | null } | { accountId: string }) =>
  new ApiError('receiver_not_payable', 'Only an approved receiver can be paid, and only into one of its accounts.', details);
/** The demo's portal approves only what the back office asked for, through its approvals. */
export const paymentRequestNotOurs = () =>
  new ApiError('payment_request_not_ours', 'This payment request was not asked for through the back office: it cannot be approved here.');
export const noTransaction = () => new ApiError('no_transaction', 'This checkout has no provider transaction.');
export const invalidFileName = () => new ApiError('invalid_file_name', 'X-File-Name must be percent-encoded (encodeURIComponent).');
export const lengthRequired = () => new ApiError('length_required', 'Send the file with its Content-Length.');
/** An invoice over `maxBytes`. */
export const fileTooLarge = (maxBytes: number) =>
  new ApiError('file_too_large', `The invoice must be at most ${maxBytes / 1024 / 1024} MiB.`);
export const pdfRequired = () => new ApiError('pdf_required', 'The invoice must be a PDF.');
/** A method the route cannot carry (the demo's proxy to the emulator forwards only those the emulator serves). */
export const methodNotAllowed = () => new ApiError('method_not_allowed', 'This route does not take that HTTP method.');

// The back office: the merchant's webhook endpoints and events.

export const webhookEndpointNotFound = () => new ApiError('webhook_endpoint_not_found', 'No such webhook endpoint.');
/** The endpoint of MERCHANT_WEBHOOK_URL: changed in the environment, not through the API. */
export const webhookEndpointFromEnvironment = () =>
  new ApiError('webhook_endpoint_from_environment', 'This endpoint is set by MERCHANT_WEBHOOK_URL; change it in the environment.');
export const webhookEndpointDisabled = () =>
  new ApiError('webhook_endpoint_disabled', 'This webhook endpoint is disabled; enable it first.');
/** More endpoints than `max`. */
export const webhookEndpointsLimit = (max: number) =>
  new ApiError('webhook_endpoints_limit', `At most ${max} webhook endpoints; delete one first.`);
/** An endpoint URL that is not https to a public address (server/merchant-webhooks/endpoint-address.ts). */
export const webhookEndpointUrlNotAllowed = () =>
  new ApiError(
    'webhook_endpoint_url_not_allowed',
    'A webhook endpoint must be an https address on the public internet (not loopback, private, link-local or reserved).',
  );
export const webhookEventNotFound = () => new ApiError('webhook_event_not_found', 'No such event.');
