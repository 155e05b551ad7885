/** The element's only wire to the merchant's backend-for-frontend (BFF): create and read checkouts. */
import { METHODS, isMethod, type Method } from '../core/methods.js';
import { isCheckoutState, type CheckoutState } from '../core/states.js';

// The element's public names for core's types (re-exported by the package entry).
export type { Method as CheckoutMethod, CheckoutState };

/** A checkout as the BFF returns it. */
export interface Checkout {
  id: string;
  orderId: string;
  method: Method;
  state: CheckoutState;
  /** Decimal string, for example "10.50". */
  amount: string;
  currency: string;
  description?: string;
  transactionId: string;
  /** The PIX copy-and-paste code (BR Code). */
  qrCode?: string;
  qrCodeLocation?: string;
  /** Where OpenFinance payers authorize the payment. */
  checkoutUrl?: string;
  createdAt: string;
  updatedAt: string;
}

export interface CreateCheckoutInput {
  orderId: string;
  /** The merchant server's signed token for this order; without a valid one the BFF refuses (401/403). */
  orderToken: string;
  method: Method;
  payer?: { cpf: string; name?: string };
  returnUrl?: string;
}

/** The `methods` attribute ("pix", "openfinance", "pix openfinance") as a list; PIX when it names none. */
export function parseMethods(text: string): Method[] {
  const asked = text.toLowerCase().split(/[\s,]+/);
  const offered = METHODS.filter((method) => asked.includes(method));
  return offered.length ? offered : ['pix'];
}

/**
 * A failed call to the BFF. `status` 0 means the request never got an HTTP answer (offline, DNS, CORS);
 * `message` is the server's own text when it sent the error envelope.
 */
export class CheckoutApiError extends Error {
  override name = 'CheckoutApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The few fields the element relies on; anything else in the body is passed through untouched. A method or state
 * this element does not know (a newer backend) is refused here rather than half-rendered.
 */
export function isCheckout(value: unknown): value is Checkout {
  if (typeof value !== 'object' || value === null) return false;
  const c = value as Record<string, unknown>;
  return typeof c.id === 'string' && typeof c.amount === 'string' && isMethod(c.method) && isCheckoutState(c.state);
}

/**
 * The URL when it is an http(s) address, else undefined: a `javascript:` checkoutUrl from a compromised backend must
 * neither run through `location.assign` nor sit in a link of the shop's page.
 */
export function webUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return /^https?:$/.test(new URL(url, window.location.href).protocol) ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Joins the `endpoint` attribute ("/api", "/api/", "https://shop.example/api") with a path. */
export function apiUrl(endpoint: string, path: string): string {
  return `${endpoint.replace(/\/+$/, '')}${path}`;
}

async function request(url: string, init: RequestInit): Promise<Checkout> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, headers: { accept: 'application/json', ...init.headers } });
  } catch (cause) {
    throw new CheckoutApiError(0, 'network_error', cause instanceof Error ? cause.message : String(cause));
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
    throw new CheckoutApiError(
      response.status,
      typeof error?.code === 'string' ? error.code : 'http_error',
      typeof error?.message === 'string' ? error.message : `HTTP ${response.status}`,
    );
  }
  if (!isCheckout(body)) throw new CheckoutApiError(response.status, 'invalid_response', 'Unexpected response');
  return body;
}

/** `POST {endpoint}/checkouts`: a new checkout, or the live one this order already has. */
export function createCheckout(endpoint: string, input: CreateCheckoutInput): Promise<Checkout> {
  return request(apiUrl(endpoint, '/checkouts'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
}

/** `GET {endpoint}/checkouts/:id`: the current snapshot. */
export function getCheckout(endpoint: string, id: string, signal?: AbortSignal): Promise<Checkout> {
  return request(apiUrl(endpoint, `/checkouts/${encodeURIComponent(id)}`), { method: 'GET', signal: signal ?? null });
}
