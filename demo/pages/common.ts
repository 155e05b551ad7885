/**
 * Helpers shared by the demo pages (shop, checkout, sandbox panel): the shapes the demo server answers with, JSON
 * calls, and a tiny element builder. Money is core/money's: integer cents read with requireCents, shown with
 * formatMoney or formatMoneyCents, never a binary float.
 */
import type { Method } from '../../core/methods';
import type { CheckoutState } from '../../core/states';

/**
 * A product as `/demo/api/products` lists it; `price` is a decimal string such as "39.90", and `image` an SVG drawing
 * under /products (`demo/catalog.ts`).
 */
export interface ShopProduct {
  sku: string;
  name: string;
  description: string;
  price: string;
  image: string;
}

/** One of an order's checkouts as `/demo/api/orders/:id` lists them, oldest first. */
export interface OrderCheckout {
  id: string;
  state: CheckoutState;
  method: Method;
  transactionId: string | null;
}

/** An order's status as the shop knows it from the product's signed webhooks alone (demo/routes/merchant-webhooks.ts). */
export type OrderStatus = 'awaiting_payment' | 'paid' | 'expired' | 'failed';

/** How the shop names each status to the shopper. */
export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  awaiting_payment: 'Aguardando pagamento',
  paid: 'Pago',
  expired: 'Expirado',
  failed: 'Falhou',
};

/** An order as the demo server priced it; `amount` and `unitPrice` are decimal strings. */
export interface ShopOrder {
  orderId: string;
  amount: string;
  description: string;
  items: { sku: string; name: string; quantity: number; unitPrice: string }[];
  status: OrderStatus;
  checkouts: OrderCheckout[];
}

/** A checkout as the BFF's `GET /api/checkouts/:id` returns it (the fields the panel reads). */
export interface CheckoutInfo {
  id: string;
  state: CheckoutState;
  method: Method;
  transactionId: string;
  checkoutUrl?: string;
}

/** One webhook the BFF received, as `/demo/api/webhooks` lists them. */
export interface WebhookLogEntry {
  id: number;
  receivedAt: string;
  transactionId: string | null;
  checkoutId: string | null;
  state: string | null;
  outcome: string;
}

/** One signed webhook the shop received from the product, as `/demo/api/merchant-deliveries` lists them. */
export interface MerchantDelivery {
  id: number;
  webhookId: string;
  type: string;
  orderId: string | null;
  receivedAt: string;
  verified: boolean;
}

const ORDER_TOKEN_KEY = 'armazem-cerrado:order-token:';
const FRAGMENT_NAME = 'order-token';

/**
 * The checkout page of an order. Its order token (what lets this shopper, and only them, start the order's payment)
 * rides in the fragment: browsers send neither it to the server nor in a Referer, so it stays out of server logs.
 */
export function checkoutPageUrl(orderId: string, orderToken: string): string {
  return `checkout.html?order=${encodeURIComponent(orderId)}#${FRAGMENT_NAME}=${encodeURIComponent(orderToken)}`;
}

/**
 * The order token for `orderId`: taken from the address fragment (then kept for the tab in sessionStorage and wiped
 * from the address, so neither a reload, a bookmark, a shared link nor the OpenFinance return address carries it),
 * else the one this tab kept. Undefined when the page never had one.
 */
export function takeOrderToken(orderId: string): string | undefined {
  const fromFragment = new URLSearchParams(location.hash.slice(1)).get(FRAGMENT_NAME);
  if (fromFragment !== null) history.replaceState(history.state, '', location.pathname + location.search);
  try {
    if (fromFragment) sessionStorage.setItem(ORDER_TOKEN_KEY + orderId, fromFragment);
    return fromFragment || (sessionStorage.getItem(ORDER_TOKEN_KEY + orderId) ?? undefined);
  } catch {
    // Storage refused (private modes): the token lives as long as the page.
    return fromFragment || undefined;
  }
}

let timeFormat: Intl.DateTimeFormat | undefined;

/**
 * The clock time of an ISO 8601 instant, as the logs show it ("14:32:05"). Its formatter is made at the first use,
 * not when the page's script loads: a first `Intl.DateTimeFormat` loads the locale's data, tens of milliseconds on a
 * phone that the page would otherwise spend before the element's first screen, for a log that is empty until a
 * payment moves.
 */
export function clockTime(iso: string): string {
  timeFormat ??= new Intl.DateTimeFormat('pt-BR', { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return timeFormat.format(new Date(iso));
}

/** A failed request, with the HTTP status (0 when there was no answer) and the envelope's code, when it had one. */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** The message of anything caught, for a line of text on the page. */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

interface ErrorEnvelope {
  error?: { message?: string; code?: string };
  message?: string;
}

/** `init` with the headers of a JSON call: it accepts JSON, and says it sends JSON when it has a body. */
export function jsonRequest(init: RequestInit = {}): RequestInit {
  return {
    ...init,
    headers: {
      accept: 'application/json',
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...(init.headers as Record<string, string> | undefined),
    },
  };
}

/** The JSON of an answer; a non-2xx answer throws a RequestError with the server's own message from the error envelope when there is one. */
export async function readJson<T>(sent: Promise<Response>): Promise<T> {
  const response = await sent;
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const envelope = (body ?? {}) as ErrorEnvelope;
    throw new RequestError(envelope.error?.message ?? envelope.message ?? `HTTP ${response.status}`, response.status, envelope.error?.code);
  }
  return body as T;
}

/** Fetches JSON (see `readJson`). */
export function requestJson<T>(url: string, init: RequestInit = {}): Promise<T> {
  return readJson(fetch(url, jsonRequest(init)));
}

type AttributeValue = string | number | boolean | null | undefined | ((event: Event) => void);
type Child = Node | string | null | undefined | false;

/** Builds an element with attributes and children; strings become text nodes, so data is never parsed as HTML. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, AttributeValue> = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === undefined || value === null) continue;
    if (typeof value === 'function') {
      if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
      continue;
    }
    element.setAttribute(name, value === true ? '' : String(value));
  }
  const nodes = children.flat().filter((child): child is Node | string => child !== undefined && child !== null && child !== false);
  element.append(...nodes);
  return element;
}

/** The element with this id; throws when the page lacks it (a page and its script out of step). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`The page has no #${id}.`);
  return element as T;
}
