/**
 * The request a line of the log belongs to: its id, and the payment ids the request came to know (the checkout, the
 * order, the provider's transaction). The Node listener opens one scope per request (`inRequest`); the log reads the
 * current one for every line it writes (./log.ts), so a line told deep in a webhook's handling carries them without
 * being handed them. An AsyncLocalStorage is the one piece of module state here: a scope follows the request's own
 * async work and no other's, which is what a per-request context is (Node's own diagnostics use it the same way).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** The payment ids a line may carry, so `grep` on one follows a payment from its create to the merchant's webhook. */
export interface PaymentIds {
  checkoutId?: string | undefined;
  orderId?: string | undefined;
  transactionId?: string | undefined;
}

/** A request's scope has its `reqId`; background work's (a reconciler pass, the delivery worker), which no request started, its `job`. */
export type RequestScope = PaymentIds & ({ reqId: string; job?: never } | { job: string; reqId?: never });

const scopes = new AsyncLocalStorage<RequestScope>();

/** A proxy's `X-Request-Id` is kept only when it is short and plain: never a line breaker, a quote or a secret's length. */
const REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** The request's id: the proxy's `X-Request-Id` when it is one we keep and a proxy is trusted, else a fresh one. */
export function requestIdOf(header: string | string[] | undefined, trustProxy: boolean): string {
  const sent = Array.isArray(header) ? undefined : header?.trim();
  return trustProxy && sent && REQUEST_ID.test(sent) ? sent : randomUUID();
}

/** Runs `fn` in a new request scope: the lines it (and everything it starts) tells carry `reqId`. */
export function inRequest<T>(reqId: string, fn: () => T): T {
  return scopes.run({ reqId }, fn);
}

/**
 * Runs `fn` as background work named `job` (for example `reconcile:12`): its lines carry `job` instead of a request's
 * id. Its payment ids are not kept in the scope (a pass touches many payments): its lines name them as fields.
 */
export function inJob<T>(job: string, fn: () => T): T {
  return scopes.run({ job }, fn);
}

/** The current request's scope, if a request is being served. */
export const currentRequest = (): RequestScope | undefined => scopes.getStore();

/** `{ 'x-request-id': id }` for an answer of the current request; empty outside one (background work has no answer). */
export function requestIdHeader(): { 'x-request-id'?: string } {
  const reqId = scopes.getStore()?.reqId;
  return reqId === undefined ? {} : { 'x-request-id': reqId };
}

/** Adds the payment ids the request now knows to its scope (nothing outside a request); an undefined id is left as is. */
export function annotateRequest(ids: PaymentIds): void {
  const scope = scopes.getStore();
  if (!scope || scope.job) return;
  if (ids.checkoutId) scope.checkoutId = ids.checkoutId;
  if (ids.orderId) scope.orderId = ids.orderId;
  if (ids.transactionId) scope.transactionId = ids.transactionId;
}
