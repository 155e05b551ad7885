/** The element's only wire to the merchant's backend-for-frontend (BFF): create, read and look up checkouts. */
import type { CheckoutWire, ErrorEnvelope, QrMatrix } from '../core/contract.js';
import { METHODS, isMethod, type Method } from '../core/methods.js';
import { isCheckoutState, type CheckoutState } from '../core/states.js';

// The element's public names for core's types (re-exported by the package entry).
export type { Method as CheckoutMethod, CheckoutState, QrMatrix };

/** A checkout as the BFF returns it: the contract's wire shape (core/contract.ts), the one the BFF builds. */
export type Checkout = CheckoutWire;

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
 * A failed call to the BFF. `status` 0 means the request never got an HTTP answer, and `code` says why as far as the
 * browser can tell: `offline` or `network_error`. A page the BFF does not allow gets its readable `403
 * origin_not_allowed`.
 * `message` is the server's own text, for the host's logs: the element shows its own words (i18n).
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

/** Whether `url` (absolute, or relative to the page) is on another origin than the page. */
export function isCrossOrigin(url: string): boolean {
  try {
    return new URL(url, window.location.href).origin !== window.location.origin;
  } catch {
    return false;
  }
}

/** Joins the `endpoint` attribute ("/api", "/api/", "https://shop.example/api") with a path. */
export function apiUrl(endpoint: string, path: string): string {
  return `${endpoint.replace(/\/+$/, '')}${path}`;
}

/**
 * Why a fetch rejected: `offline` when the browser knows it is, else `network_error`, which is true whether the network
 * or the service failed. A page the BFF does not allow is not a rejection: the BFF answers it `403
 * origin_not_allowed` in a way the page can read (server/bff/guards.ts), so it comes as an answer with its code.
 */
export function fetchFailure(cause: unknown): CheckoutApiError {
  const detail = cause instanceof Error ? cause.message : String(cause);
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return new CheckoutApiError(0, 'offline', detail);
  return new CheckoutApiError(0, 'network_error', detail);
}

/** A JSON POST: as `text/plain` to another origin, which keeps it a CORS "simple" request. */
function jsonPost(endpoint: string, body: unknown): RequestInit {
  const type = isCrossOrigin(endpoint) ? 'text/plain;charset=UTF-8' : 'application/json';
  return { method: 'POST', headers: { accept: 'application/json', 'content-type': type }, body: JSON.stringify(body) };
}

/**
 * `POST {endpoint}/orders/:orderId/checkout` with the token in the body (a header would cost a preflight across
 * origins): the element's first question about an order. A page may send it itself before the element's script
 * arrives and hand the answer over (`orderLookup`), as the demo's checkout page does.
 */
export function sendOrderLookup(endpoint: string, orderId: string, orderToken: string): Promise<Response> {
  return fetch(apiUrl(endpoint, `/orders/${encodeURIComponent(orderId)}/checkout`), jsonPost(endpoint, { orderToken }));
}

/** One BFF for one element: the requests, and the server's clock as its answers tell it. */
export class CheckoutClient {
  /**
   * Server time minus this browser's, in ms, from the `Date` header of the last answer (the BFF exposes it to the
   * storefront origins it allows), so the countdown follows the server's clock and not a phone's wrong one.
   */
  skewMs = 0;

  constructor(readonly endpoint: string) {}

  /**
   * `POST {endpoint}/checkouts`: a new checkout, or the live or completed one this order already has. To a BFF on
   * another origin the JSON goes as `text/plain`, which makes it a CORS "simple" request: no preflight, so one round
   * trip less before the QR. The BFF reads such a body only from the storefront origins it allows.
   */
  create(input: CreateCheckoutInput): Promise<Checkout> {
    return this.request('/checkouts', jsonPost(this.endpoint, input));
  }

  /** `GET {endpoint}/checkouts/:id`: the current snapshot. */
  get(id: string, signal?: AbortSignal): Promise<Checkout> {
    return this.request(`/checkouts/${encodeURIComponent(id)}`, { method: 'GET', signal: signal ?? null });
  }

  /** The order's live or paid checkout wherever it was made (`sendOrderLookup`); undefined when it has none to resume (204). */
  forOrder(orderId: string, orderToken: string): Promise<Checkout | undefined> {
    return this.fromLookup(sendOrderLookup(this.endpoint, orderId, orderToken));
  }

  /** The answer to an order lookup, sent by the element or by the page before the element's script came (`orderLookup`). */
  async fromLookup(sent: Promise<Response>): Promise<Checkout | undefined> {
    let response: Response;
    try {
      response = await sent;
    } catch (cause) {
      throw fetchFailure(cause);
    }
    return this.read(response, true);
  }

  eventsUrl(id: string): string {
    return apiUrl(this.endpoint, `/checkouts/${encodeURIComponent(id)}/events`);
  }

  /** Milliseconds since the epoch by the server's clock. */
  now(): number {
    return Date.now() + this.skewMs;
  }

  private async request(path: string, init: RequestInit): Promise<Checkout> {
    const url = apiUrl(this.endpoint, path);
    let response: Response;
    try {
      response = await fetch(url, { ...init, headers: { accept: 'application/json', ...init.headers } });
    } catch (cause) {
      if (init.signal?.aborted) throw cause;
      throw fetchFailure(cause);
    }
    return this.read(response, false);
  }

  /** The checkout of an answer; with `empty`, undefined for a 204 (a lookup that found nothing). */
  private read(response: Response, empty: false): Promise<Checkout>;
  private read(response: Response, empty: boolean): Promise<Checkout | undefined>;
  private async read(response: Response, empty: boolean): Promise<Checkout | undefined> {
    const date = Date.parse(response.headers.get('date') ?? '');
    // The header has whole seconds (half a second is the expected truncation) and the answer took its time: a clock
    // within 2 s of the server's is taken as right.
    if (Number.isFinite(date)) {
      const skew = date + 500 - Date.now();
      this.skewMs = Math.abs(skew) > 2000 ? skew : 0;
    }
    if (empty && response.status === 204) return undefined;
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      // The contract's envelope, read as untrusted: a proxy's error page or an older server may answer instead.
      const error = (body as { error?: Partial<Record<keyof ErrorEnvelope['error'], unknown>> } | undefined)?.error;
      throw new CheckoutApiError(
        response.status,
        typeof error?.code === 'string' ? error.code : 'http_error',
        typeof error?.message === 'string' ? error.message : `HTTP ${response.status}`,
      );
    }
    if (!isCheckout(body)) throw new CheckoutApiError(response.status, 'invalid_response', 'Unexpected response');
    return body;
  }
}
