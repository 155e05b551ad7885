// Intent-named helpers shared by the widget tests; the backend is the fake BFF (fake-bff.ts) on the runner's server.
import { fixture, html, waitUntil } from '@open-wc/testing';
import '../../widget/index.js';
import type { CheckoutState } from '../../widget/api.js';
import type { PixCheckout } from '../../widget/index.js';

let counter = 0;

/** A fresh order id for each test; the prefix picks the fake BFF scenario (see fake-bff.ts). */
export function newOrderId(scenario = 'order'): string {
  counter += 1;
  return `${scenario}-${Date.now().toString(36)}-${counter}`;
}

/** The order token the fake BFF accepts for an order (a real merchant server signs it; see fake-bff.ts). */
export function orderTokenFor(orderId: string): string {
  return `token:${orderId}`;
}

export interface FakeLog {
  requests: { method: string; path: string; body?: any; lastEventId?: string; token?: string }[];
  gets: number;
  maxInFlight: number;
  posts: number;
  /** GET /orders/:orderId/checkout requests. */
  lookups: number;
}

/** What the fake BFF saw for an order. */
export async function backendLog(orderId: string): Promise<FakeLog> {
  const response = await fetch(`/__fake/log?orderId=${encodeURIComponent(orderId)}`);
  return response.json();
}

/** What a test may change of a checkout on the fake BFF besides its state. */
export interface BackendFields {
  expiresAt?: string;
  paidAt?: string;
  payerBank?: string;
  receiptVoucher?: string;
}

/** The bodies of the checkouts the element asked the fake BFF to create for an order, in order. */
export async function createRequests(orderId: string): Promise<any[]> {
  return (await backendLog(orderId)).requests
    .filter((request) => request.method === 'POST' && request.path === '/api/checkouts')
    .map((request) => request.body);
}

/** Moves a checkout to a new state (and fields) on the fake BFF, which pushes it to open event streams. */
export async function setBackendState(checkoutId: string, state: CheckoutState, fields: BackendFields = {}): Promise<void> {
  const response = await fetch(`/__fake/checkouts/${checkoutId}/state`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ state, ...fields }),
  });
  if (!response.ok) throw new Error(`set state failed: ${response.status}`);
}

/** Creates a checkout directly on the fake BFF, as an earlier page load would have. */
export async function createOnBackend(orderId: string, method: 'pix' | 'openfinance' = 'pix'): Promise<{ id: string }> {
  const response = await fetch('/api/checkouts', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      orderId,
      orderToken: orderTokenFor(orderId),
      method,
      payer: method === 'openfinance' ? { cpf: '52998224725' } : undefined,
    }),
  });
  return response.json();
}

export const EVENT_NAMES = [
  'pix-checkout-created',
  'pix-checkout-status',
  'pix-checkout-completed',
  'pix-checkout-failed',
  'pix-checkout-error',
  'pix-checkout-redirect',
  'pix-checkout-continue',
];

/**
 * Puts a `<pix-checkout>` with these attributes on the page, with an event recorder attached before it connects
 * (so the first events are not missed). `true` sets a boolean attribute. The page gets the order's valid token
 * unless `order-token` is given (`false` leaves it out).
 */
export async function mountCheckout(attributes: Record<string, string | boolean>): Promise<{ el: PixCheckout; events: CustomEvent[] }> {
  const el = document.createElement('pix-checkout');
  const orderId = attributes['order-id'];
  const withToken = typeof orderId === 'string' && !('order-token' in attributes) ? { 'order-token': orderTokenFor(orderId) } : {};
  for (const [name, value] of Object.entries({ ...attributes, ...withToken })) {
    if (value === true) el.setAttribute(name, '');
    else if (value !== false) el.setAttribute(name, value);
  }
  const events = recordEvents(el, EVENT_NAMES);
  el.addEventListener('pix-checkout-redirect', (event) => event.preventDefault());
  const container = await fixture<HTMLDivElement>(html`<div></div>`);
  container.append(el);
  await el.updateComplete;
  return { el, events };
}

/** The names of the recorded events, in order, optionally only those of one kind. */
export function eventNames(events: CustomEvent[]): string[] {
  return events.map((event) => event.type);
}

export function shadow(el: PixCheckout): ShadowRoot {
  return el.shadowRoot!;
}

export function $(el: PixCheckout, selector: string): HTMLElement | null {
  return shadow(el).querySelector<HTMLElement>(selector);
}

/** The text a user sees (whitespace collapsed). */
export function visibleText(el: PixCheckout): string {
  return (shadow(el).querySelector('.base') as HTMLElement).innerText.replace(/\s+/g, ' ').trim();
}

export function liveRegion(el: PixCheckout): HTMLElement {
  return shadow(el).querySelector('[role="status"]') as HTMLElement;
}

export async function waitForSelector(el: PixCheckout, selector: string, message?: string): Promise<HTMLElement> {
  await waitUntil(() => $(el, selector), message ?? `waiting for ${selector}`, { timeout: 8000 });
  return $(el, selector)!;
}

export async function waitForText(el: PixCheckout, text: string, timeout = 8000): Promise<void> {
  await waitUntil(() => visibleText(el).includes(text), `waiting for text "${text}"; saw "${visibleText(el)}"`, {
    timeout,
  });
}

/** Records every event of the given names fired by the element. */
export function recordEvents(el: EventTarget, names: string[]): CustomEvent[] {
  const seen: CustomEvent[] = [];
  for (const name of names) el.addEventListener(name, (event) => seen.push(event as CustomEvent));
  return seen;
}

/** The element's focused node inside its shadow root, or null. */
export function focused(el: PixCheckout): Element | null {
  return shadow(el).activeElement;
}

/** The heading of the screen on display (none while loading). */
export function screenHeading(el: PixCheckout): HTMLElement {
  return $(el, '#screen-title')!;
}

/** Waits until focus sits on the heading of a screen titled `title`. */
export async function waitForFocusedHeading(el: PixCheckout, title: string): Promise<void> {
  await waitUntil(
    () => Boolean(screenHeading(el)) && focused(el) === screenHeading(el) && screenHeading(el).textContent.trim() === title,
    `focus on heading "${title}"; focus is on ${focused(el)?.outerHTML.slice(0, 80)}`,
    { timeout: 8000 },
  );
}

/** Pretends to be a touch device (`pointer: coarse`) while `body` runs. */
export async function asTouchDevice<T>(body: () => Promise<T>): Promise<T> {
  const original = window.matchMedia;
  window.matchMedia = ((query: string) => ({ matches: query === '(pointer: coarse)' })) as typeof matchMedia;
  try {
    return await body();
  } finally {
    window.matchMedia = original;
  }
}

/** Types into an input the way a user does: one input event per character. */
export async function typeInto(input: HTMLInputElement, text: string): Promise<void> {
  for (const char of text) {
    input.value += char;
    input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, data: char }));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
