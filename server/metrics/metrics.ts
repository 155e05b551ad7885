/**
 * What the product's parts tell the metrics (./registry.ts writes them out as Prometheus families): plain calls with
 * labels of bounded values (a route pattern, a method, an outcome), never an id. A part takes a `Metrics` and
 * defaults to `NO_METRICS`, so a test that doesn't look at them builds the real thing without one.
 */
import type { Method } from '../../core/methods';

/** What became of a provider's webhook: it moved a checkout (or adopted a transaction), changed nothing, or was refused. */
export type WebhookOutcome = 'applied' | 'ignored' | 'refused';

/** What became of one call to the provider: a 2xx, a refusal (4xx), its failure (5xx, a bad answer), or no answer. */
export type ProviderOutcome = 'ok' | 'refused' | 'failed' | 'unreachable';

/** What became of one attempt to deliver a merchant webhook. */
export type DeliveryAttemptOutcome = 'delivered' | 'retrying' | 'failed';

export interface Metrics {
  /** One answered HTTP request: its Hono route pattern (never the raw path), method and status. */
  httpRequest(route: string, method: string, status: number, seconds: number): void;
  /** A checkout change this instance committed: its method and the state it moved to. */
  checkoutMoved(method: Method, to: string): void;
  /** One call of the typed provider client (`pix.createCashIn`, `transactions.retrieve`, …), retries included. */
  providerRequest(operation: string, outcome: ProviderOutcome, seconds: number): void;
  providerWebhook(outcome: WebhookOutcome): void;
  /** An event stream refused by the per-client (`client`) or the whole-server (`total`) limit. */
  streamRefused(reason: 'client' | 'total'): void;
  /** `count` attempts (default 1) to deliver a merchant webhook with this outcome. */
  merchantDelivery(outcome: DeliveryAttemptOutcome, count?: number): void;
  /** One finished pass of the reconciler. */
  reconcilerPass(): void;
  /** One re-read of a checkout by the reconciler. */
  reconcilerRead(): void;
  /** One unit of work on the database (a transaction for a write). */
  dbQuery(store: 'sqlite' | 'postgres', kind: 'read' | 'write', seconds: number): void;
}

const nothing = () => undefined;

/** The metrics of a part nobody scrapes. */
export const NO_METRICS: Metrics = {
  httpRequest: nothing,
  checkoutMoved: nothing,
  providerRequest: nothing,
  providerWebhook: nothing,
  streamRefused: nothing,
  merchantDelivery: nothing,
  reconcilerPass: nothing,
  reconcilerRead: nothing,
  dbQuery: nothing,
};
