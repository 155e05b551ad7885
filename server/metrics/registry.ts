/**
 * The Prometheus families of one product instance (prom-client), in a registry of its own rather than prom-client's
 * global one, so several instances in one process each expose their own. Their names are ./families.ts's. Counters
 * and histograms hear the product's parts through `Metrics` (./metrics.ts); the gauges are read when scraped: from the
 * store (shared by every instance on PostgreSQL, as their help says), the stream limiter and the pool.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { METHODS } from '../../core/methods';
import { CHECKOUT_STATES } from '../../core/states';
import type { Clock } from '../lib/clock';
import type { StoreGauges, StoreObserver } from '../store';
import { METRIC_FAMILIES as F } from './families';
import type { Metrics } from './metrics';

/** What the gauges read at each scrape, given once the product's parts exist (`watch`). */
export interface GaugeSources {
  store: StoreGauges;
  /** Event streams open on this instance. */
  openStreams: () => number;
  clock: Clock;
}

export interface MetricsRegistry {
  readonly metrics: Metrics;
  /** The store's observer that feeds the database and transition families (server/store/observer.ts). */
  readonly storeObserver: StoreObserver;
  watch(sources: GaugeSources): void;
  /** The text exposition format, and its content type. */
  expose(): Promise<string>;
  readonly contentType: string;
}

/** Seconds: from a fast SQLite read to a provider call at its timeout. */
const SECONDS_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** One read per scrape for the families that share it (prom-client collects every family of a scrape at once). */
function oncePerScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= read().finally(() => {
      pending = undefined;
    }));
}

export function createMetricsRegistry(): MetricsRegistry {
  const registers = [new Registry()];
  const [registry] = registers as [Registry];
  let sources: GaugeSources | undefined;
  const http = new Histogram({
    ...{ name: F.httpRequestDuration, registers, buckets: SECONDS_BUCKETS },
    help: 'Answered HTTP requests, by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
  });
  const transitions = new Counter({
    ...{ name: F.checkoutTransitions, registers },
    help: 'Checkout state changes this instance committed, by method and the state moved to (to), creations included.',
    labelNames: ['method', 'to'] as const,
  });
  const provider = new Histogram({
    ...{ name: F.providerRequestDuration, registers, buckets: SECONDS_BUCKETS },
    help: 'Calls to the provider through its typed client, retries included, by operation and outcome (ok, refused, failed, unreachable).',
    labelNames: ['operation', 'outcome'] as const,
  });
  const webhooks = new Counter({
    ...{ name: F.providerWebhooks, registers },
    help: "The provider's webhooks received, by outcome (applied, ignored, refused).",
    labelNames: ['outcome'] as const,
  });
  const refusals = new Counter({
    ...{ name: F.statusStreamRefusals, registers },
    help: "Status streams refused, by reason: the client's share (client) or the whole server's (total) is taken.",
    labelNames: ['reason'] as const,
  });
  const deliveries = new Counter({
    ...{ name: F.merchantDeliveries, registers },
    help: "Attempts to deliver the merchant's webhooks, by outcome (delivered, retrying, failed: given up).",
    labelNames: ['outcome'] as const,
  });
  const passes = new Counter({ name: F.reconcilerPasses, registers, help: 'Finished passes of the reconciler.' });
  const reads = new Counter({ name: F.reconcilerReads, registers, help: 'Checkouts the reconciler re-read from the provider.' });
  const db = new Histogram({
    ...{ name: F.dbQueryDuration, registers, buckets: SECONDS_BUCKETS },
    help: 'Units of work on the database (a whole transaction for a write), by store (sqlite, postgres) and kind (read, write).',
    labelNames: ['store', 'kind'] as const,
  });

  // Outcomes known in advance start at 0, so a rate over them is defined before the first one happens.
  for (const method of METHODS) for (const to of CHECKOUT_STATES) transitions.inc({ method, to }, 0);
  for (const outcome of ['applied', 'ignored', 'refused'] as const) webhooks.inc({ outcome }, 0);
  for (const reason of ['client', 'total'] as const) refusals.inc({ reason }, 0);
  for (const outcome of ['delivered', 'retrying', 'failed'] as const) deliveries.inc({ outcome }, 0);

  const readLive = oncePerScrape(() => sources?.store.liveCheckouts(sources.clock.now()) ?? Promise.resolve([]));
  const readBacklog = oncePerScrape(() => sources?.store.merchantBacklog() ?? Promise.resolve({ events: 0, oldestAt: undefined }));
  // A store that doesn't answer leaves its gauges empty for this scrape; the scrape itself still answers.
  const quietly = (read: () => Promise<void>) => read().catch(() => undefined);
  new Gauge({
    ...{ name: F.checkoutsLive, registers, labelNames: ['method'] as const },
    help: 'Checkouts waiting for their payer (Created, Registered), by method; read from the shared store at each scrape (every instance reports the same).',
    async collect() {
      this.reset();
      await quietly(async () => {
        // Every method is shown, 0 when none of its checkouts is live.
        for (const method of METHODS) this.set({ method }, 0);
        for (const { method, count } of await readLive()) this.set({ method }, count);
      });
    },
  });
  new Gauge({
    ...{ name: F.checkoutsPastWindow, registers, labelNames: ['method'] as const },
    help: 'Live checkouts (Created, Registered) whose payment window has ended, by method: the reconciler expires them within a pass, so one that stays is stuck; read from the shared store at each scrape.',
    async collect() {
      this.reset();
      await quietly(async () => {
        for (const method of METHODS) this.set({ method }, 0);
        for (const { method, pastWindow } of await readLive()) this.set({ method }, pastWindow);
      });
    },
  });
  new Gauge({
    ...{ name: F.statusStreams, registers },
    help: 'Status streams (server-sent events) open on this instance.',
    collect() {
      this.set(sources?.openStreams() ?? 0);
    },
  });
  new Gauge({
    ...{ name: F.merchantBacklogEvents, registers },
    help: "Deliveries of the merchant's events still owed to an endpoint; read from the shared store at each scrape.",
    async collect() {
      await quietly(async () => this.set((await readBacklog()).events));
    },
  });
  new Gauge({
    ...{ name: F.merchantBacklogOldest, registers },
    help: 'Age of the oldest merchant event still owed to an endpoint (0 when none is); read from the shared store at each scrape.',
    async collect() {
      await quietly(async () => {
        const { oldestAt } = await readBacklog();
        const now = sources?.clock.now().getTime() ?? Date.now();
        this.set(oldestAt ? Math.max(0, (now - oldestAt.getTime()) / 1000) : 0);
      });
    },
  });
  new Gauge({
    ...{ name: F.dbPoolWaiting, registers },
    help: "Clients waiting for one of the PostgreSQL pool's connections on this instance (0 with SQLite).",
    collect() {
      this.set(sources?.store.waitingClients() ?? 0);
    },
  });
  collectDefaultMetrics({ register: registry });
  // Gauges named like counters, which `promtool check metrics` refuses; nodejs_active_handles (and requests, resources)
  // without the suffix carry the same numbers.
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) {
    registry.removeSingleMetric(name);
  }

  const metrics: Metrics = {
    httpRequest: (route, method, status, seconds) => http.observe({ route, method, status: String(status) }, seconds),
    checkoutMoved: (method, to) => transitions.inc({ method, to }),
    providerRequest: (operation, outcome, seconds) => provider.observe({ operation, outcome }, seconds),
    providerWebhook: (outcome) => webhooks.inc({ outcome }),
    streamRefused: (reason) => refusals.inc({ reason }),
    merchantDelivery: (outcome, count = 1) => deliveries.inc({ outcome }, count),
    reconcilerPass: () => passes.inc(),
    reconcilerRead: () => reads.inc(),
    dbQuery: (store, kind, seconds) => db.observe({ store, kind }, seconds),
  };
  return {
    metrics,
    storeObserver: {
      query: (store, kind, seconds) => metrics.dbQuery(store, kind, seconds),
      committed: ({ checkout, event }) => metrics.checkoutMoved(checkout.method, event.state),
    },
    watch(given) {
      sources = given;
    },
    expose: () => registry.metrics(),
    contentType: registry.contentType,
  };
}
