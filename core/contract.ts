/**
 * The contract between the BFF and what calls it, in one module both sides import: the JSON of a checkout, the error
 * envelope, and every error code with the HTTP status it is answered with. The BFF builds its answers against these
 * types and tables (server/bff/view.ts, server/payments/errors.ts), the element reads them (widget/api.ts,
 * widget/i18n.ts) and the element tests' fake BFF follows them (test/widget/fake-bff.ts), so a field or a code that
 * drifts on one side fails to compile on the other. Types and small constants only: it runs in the browser and in
 * Node, and the element imports nothing of it at run time but types.
 */
import type { Method } from './methods.js';
import type { CheckoutState } from './states.js';

/**
 * A QR symbol: `size` modules per side, and the dark modules row by row from the top left, one bit each (most
 * significant first, the last byte padded with zeros), in base64. Encoded by the BFF (server/lib/qr/matrix.ts).
 */
export interface QrMatrix {
  size: number;
  modules: string;
}

/**
 * A checkout as the BFF sends it: `POST /api/checkouts`, `GET /api/checkouts/:id`, the order lookup
 * (`/api/orders/:orderId/checkout`), and each `status` event of `GET /api/checkouts/:id/events` (without `qrMatrix`:
 * the code never changes, and the element keeps the symbol it was given). No payer data beyond what the browser sent,
 * no provider secrets.
 */
export interface CheckoutWire {
  id: string;
  orderId: string;
  method: Method;
  /** Never the BFF's internal `Creating`: a checkout still being created reads as not found. */
  state: CheckoutState;
  /** Decimal string, for example "10.50". */
  amount: string;
  currency: string;
  description: string | null;
  /** The provider's transaction; null only on a checkout whose provider call gave no answer yet. */
  transactionId: string | null;
  /** The PIX copy-and-paste code (BR Code). */
  qrCode?: string;
  /** The QR symbol of `qrCode` while it can still be paid; left out of event-stream snapshots. */
  qrMatrix?: QrMatrix;
  qrCodeLocation?: string;
  /** Where OpenFinance payers authorize the payment. */
  checkoutUrl?: string;
  /** End of the payment window (ISO 8601): past it, a checkout still waiting for the payer becomes `Expired`. */
  expiresAt: string;
  /** When the payment was confirmed (ISO 8601), once Completed. */
  paidAt?: string;
  /** The payer's bank's voucher (an address or an identifier), when the provider knows it; once Completed. */
  receiptVoucher?: string;
  /** The payer's bank, when the provider knows it; once Completed. */
  payerBank?: string;
  createdAt: string;
  updatedAt: string;
}

/** The method's own fields of a checkout (each method's adapter on the server fills its own). */
export type CheckoutMethodFields = Partial<Pick<CheckoutWire, 'qrCode' | 'qrCodeLocation' | 'checkoutUrl'>>;

/** The receipt fields, sent only once the checkout is Completed. */
export const RECEIPT_FIELDS = ['paidAt', 'receiptVoucher', 'payerBank'] as const satisfies readonly (keyof CheckoutWire)[];

/**
 * Every refusal, from any route: the provider's envelope, with a stable `code` to switch on. `message` is for logs
 * (the element shows its own words); `details` is there only for some codes (the fields of an `invalid_request`, the
 * refund of a `refund_exists`).
 */
export interface ErrorEnvelope {
  statusCode: 'Error';
  error: { name: string; message: string; code: string; details?: unknown };
}

/** The statuses the tables below use. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 408 | 409 | 411 | 413 | 415 | 422 | 429 | 431 | 500 | 502 | 503 | 504;

/**
 * What a shopper's page can get from the shopper API (`/api/checkouts…`, `/api/orders…`), with its status: the route
 * codes, and what any request may meet before a route (a malformed address or body, a slow body, the limits, a server
 * still starting). The element has its own words for each (widget/i18n.ts, a compile error when one is missing). The
 * back office answers these too; `bad_request` keeps the status of the framework's refusal it reports (400 as a
 * rule).
 */
export const SHOPPER_ERRORS = {
  bad_request: 400,
  invalid_json: 400,
  invalid_request: 400,
  payload_too_large: 413,
  unsupported_media_type: 415,
  headers_too_large: 431,
  body_timeout: 408,
  request_timeout: 408,
  not_found: 404,
  /** A browser's request from a page on an origin that `ALLOWED_ORIGINS` does not name (readable by that page). */
  origin_not_allowed: 403,
  order_not_found: 404,
  order_token_required: 401,
  order_token_invalid: 403,
  order_token_expired: 403,
  orders_unavailable: 502,
  orders_timeout: 504,
  payer_required: 422,
  payer_cpf_invalid: 422,
  payer_refused: 422,
  return_url_not_allowed: 400,
  checkout_not_found: 404,
  checkout_pending: 503,
  provider_unavailable: 502,
  provider_timeout: 504,
  provider_rejected: 502,
  provider_misconfigured: 503,
  rate_limited: 429,
  too_many_streams: 429,
  server_busy: 503,
  starting: 503,
  /** The database is away for a moment (stopped, restarting, its disk full): try again after `Retry-After`. */
  store_unavailable: 503,
  internal_error: 500,
} as const satisfies Record<string, ErrorStatus>;

/**
 * What only the back office (`/api/admin…`, bearer admin token) answers, besides the shopper codes above. A provider
 * refusal the merchant can act on is passed through as it came: the provider's 4xx status, and its `reason` (else its
 * code, else `provider_refused`) as the code, so a back-office code may be one of the provider's, outside this table.
 */
export const BACK_OFFICE_ERRORS = {
  admin_unauthorized: 401,
  /** Signed in, but the role lacks the right (server/backoffice/actor.ts). */
  admin_forbidden: 403,
  /** A write with the session cookie from another origin (or none). */
  cross_site_write: 403,
  /** Sign-in refused: unknown e-mail, wrong password or disabled user alike. */
  invalid_credentials: 401,
  sign_in_rate_limited: 429,
  /** MFA_REQUIRED names the user's role and it has no second factor yet: only the enrolment is open to it. */
  mfa_enrolment_required: 403,
  /** A guarded action (money above APPROVAL_ABOVE, users, keys, endpoints) and the last proof is over 5 minutes old. */
  step_up_required: 403,
  /** A wrong, spent or expired TOTP or recovery code, or a passkey assertion that does not verify. */
  mfa_code_invalid: 401,
  /** No sign-in waits for its second step (none began, it expired after 5 minutes, or too many wrong codes). */
  mfa_sign_in_expired: 401,
  /** The TOTP is already on (a reset by `npm run admin -- user reset-mfa` comes first), or no enrolment was begun. */
  mfa_totp_state: 409,
  /** The signed-in user has no passkey of that id (`DELETE /me/mfa/passkeys/:id`). */
  passkey_not_found: 404,
  user_not_found: 404,
  /** No session of the signed-in user has that id (`DELETE /me/sessions/:id`). */
  session_not_found: 404,
  user_exists: 409,
  password_too_short: 422,
  /** The change would leave no enabled owner. */
  last_owner: 409,
  api_key_not_found: 404,
  /** A key not revoked already has this name. */
  api_key_exists: 409,
  approval_not_found: 404,
  approval_not_pending: 409,
  /** The maker of a movement cannot approve it. */
  approval_by_maker: 403,
  /** The admin token (a script, no person) never approves a movement: a signed-in owner does. */
  approval_by_token: 403,
  /** A payment request for a receiver that is not approved, or an account that is not the receiver's. */
  receiver_not_payable: 409,
  /** The demo's portal approves only the payment requests the back office asked for (server/store/company-payments.ts). */
  payment_request_not_ours: 409,
  /** The refunds of a checkout would add up to more than was paid. */
  refund_exceeds_paid: 409,
  /** Another refund of the checkout is still being sent, its outcome unknown: a new one waits until it is settled. */
  refund_in_progress: 409,
  /** Only a Completed checkout can be refunded. */
  checkout_not_paid: 409,
  invalid_cursor: 400,
  idempotency_key_required: 400,
  idempotency_key_invalid: 400,
  idempotency_key_reused: 422,
  idempotency_key_in_progress: 409,
  refund_exists: 409,
  not_a_duplicate_payment: 409,
  order_not_paid_twice: 409,
  payer_not_refundable: 409,
  no_transaction: 409,
  invalid_file_name: 400,
  length_required: 411,
  file_too_large: 413,
  pdf_required: 415,
  method_not_allowed: 405,
  webhook_endpoint_not_found: 404,
  webhook_endpoint_from_environment: 409,
  webhook_endpoint_disabled: 409,
  webhook_endpoints_limit: 409,
  webhook_endpoint_url_not_allowed: 400,
  webhook_event_not_found: 404,
} as const satisfies Record<string, ErrorStatus>;

/** The code of a passed-through provider refusal that names neither a reason nor a code (see BACK_OFFICE_ERRORS). */
export const PROVIDER_REFUSED = 'provider_refused';

/**
 * What the provider's webhook calls (`POST /api/webhooks/provider`) may get besides the request codes: never a
 * shopper's. `provider_unavailable` is 503 here (the transaction could not be re-read): any 5xx makes the provider
 * retry the delivery. `store_unavailable` is the shoppers' code and status (the database away for a moment).
 */
export const WEBHOOK_ERRORS = {
  webhook_unauthorized: 401,
  webhook_signature_missing: 401,
  webhook_signature_invalid: 401,
  webhook_signature_expired: 401,
  webhook_replayed: 401,
  invalid_webhook: 400,
  provider_unavailable: 503,
  store_unavailable: 503,
} as const satisfies Record<string, ErrorStatus>;

/** Every code of the two browser-facing APIs, with its status: what the server's `ApiError` may carry. */
export const API_ERRORS = { ...SHOPPER_ERRORS, ...BACK_OFFICE_ERRORS } as const;

export type ShopperErrorCode = keyof typeof SHOPPER_ERRORS;
export type BackOfficeErrorCode = keyof typeof BACK_OFFICE_ERRORS;
export type WebhookErrorCode = keyof typeof WEBHOOK_ERRORS;
export type ApiErrorCode = keyof typeof API_ERRORS;
export type ApiErrorStatus = (typeof API_ERRORS)[ApiErrorCode];
