/**
 * The product as one process: the BFF under `/api` with the back office beside it under `/api/admin`, the built
 * element under `/widget`, and `/healthz`. No demo and no emulator: those are composed on top by `demo/`, which reuses
 * `listen` and `createProduct`.
 */
import { Hono } from 'hono';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHOPPER_ERRORS } from '../core/contract';
import { noUserHint } from './accounts/users';
import { backOfficeApi, type BackOfficeApiStore } from './backoffice';
import { createCheckoutApp, type CheckoutAppOptions, type CheckoutAppStore } from './bff/app';
import { PUBLIC_ENDPOINTS, type EndpointAddressPolicy } from './merchant-webhooks/endpoint-address';
import type { DeliveryWorkerStore } from './merchant-webhooks/delivery';
import { deliveryWorkerFor } from './merchant-webhooks/thread';
import { JSON_BODY_MAX_BYTES } from './http/body-guards';
import { errorBody } from './http/error-envelope';
import { defaultAllowedOrigins } from './http/origins';
import { requestLog } from './http/request-log';
import { securityHeaders } from './http/security-headers';
import { listen, type Listener, type Logger } from './node/listen';
import { payerRetention } from './payments/payer-retention';
import { nodeWebhookRoute } from './node/webhook-route';
import { httpOrders, type OrderResolver } from './payments/orders';
import { keptSecret, type Config } from './config';
import { DEFAULT_MFA_POLICY } from './accounts/mfa';
import { systemClock, type Clock } from './lib/clock';
import { createSealer } from './lib/sealer';
import { sealAtStart } from './sealed-start';
import { createProviderClient, type ProviderClient } from './provider';
import { openStore, type StatusHub, type StoreGauges } from './store';
import { widgetFiles } from './widget';
import { consoleApp } from './console';
import { payPage } from './pay-page';
import { readiness } from './readiness';
import type { ReadinessStore } from './store/readiness';
import { webhookFields, webhookLine } from './bff/webhook-receiver';
import { httpMetrics, metricsRoute } from './metrics/http';
import { timedProvider } from './metrics/provider';
import { createMetricsRegistry, type MetricsRegistry } from './metrics/registry';

export { listen, type Listener, type Logger } from './node/listen';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Timing knobs, for tests. */
export interface Tuning {
  providerTimeoutMs?: number;
  heartbeatMs?: number;
  reconcileIntervalMs?: number;
  staleAfterMs?: number;
  settleAfterMs?: number;
  /** The longest a create keeps the shopper waiting (default 15 s). */
  createDeadlineMs?: number;
  /** The waits between attempts of a merchant webhook (tests use short ones). */
  merchantWebhookRetryDelaysMs?: number[];
  webhookRetryDelaysMs?: number[];
  /** The payment window in milliseconds, overriding CHECKOUT_TTL_SECONDS (tests use a tiny one). */
  checkoutTtlMs?: number;
}

export interface StartOptions {
  clock?: Clock;
  /** The merchant's pricing in library use; without it the order source of the configuration (`ORDERS_URL`). */
  orders?: OrderResolver;
  tuning?: Tuning;
  /** Don't start the reconciliation loop (tests drive it with `runOnce`). */
  manualReconcile?: boolean;
  log?: Logger;
  /**
   * Where the merchant's stored webhook endpoints may point. Unless told: https to public addresses with a real
   * provider (`npm run serve`), and the loopback address too on the emulator (the demo); tests of the standalone BFF
   * with a receiver on the loopback address say so here.
   */
  endpointAddresses?: EndpointAddressPolicy;
}

/** What the product's parts store through: the shoppers' API, the merchant webhooks' delivery and the back office. */
export type ProductStore = CheckoutAppStore & DeliveryWorkerStore & BackOfficeApiStore & ReadinessStore & StoreGauges;

export interface ProductOptions {
  config: Config;
  listener: Listener;
  provider: ProviderClient;
  orders: OrderResolver;
  store: ProductStore;
  hub: StatusHub;
  clock: Clock;
  log: Logger;
  tuning?: Tuning | undefined;
  onWebhook?: CheckoutAppOptions['onWebhook'];
  /** Where the merchant's stored webhook endpoints may point (../events/endpoint-address.ts). */
  endpointAddresses: EndpointAddressPolicy;
  /**
   * This instance's metrics (`GET /metrics`), made before the store and the provider client so that they feed it too
   * (`openStore`'s observer, `timedProvider`); without it, a registry that hears the product's own parts only.
   */
  metrics?: MetricsRegistry | undefined;
}

/**
 * The BFF wired from the configuration, with the back office mounted on its app under `/admin` (when an admin token is
 * set), so both APIs meet the same middleware and error envelope; `mount` adds `/healthz`, `/api` and `/widget` to a
 * root app.
 */
/** Where `mount` puts the BFF's API. */
const API_PREFIX = '/api';

export function createProduct(options: ProductOptions) {
  const { config, listener, provider, orders, store, hub, clock, log, tuning, onWebhook, endpointAddresses } = options;
  const registry = options.metrics ?? createMetricsRegistry();
  const { metrics } = registry;
  // Order tokens are signed with the order-source secret: ORDERS_TOKEN, else (library use, the demo) DATA_DIR/orders-token.
  const orderTokenSecret = config.orders?.token ?? keptSecret(config.dataDir, 'orders-token');
  const checkout = createCheckoutApp({
    provider,
    store,
    hub,
    orders,
    clock,
    apiBaseUrl: `${listener.publicBaseUrl}/api`,
    webhookSecret: config.webhookSecret,
    webhookSigningKey: config.webhookSigningKey,
    orderTokenSecret,
    allowedOrigins: listener.allowedOrigins,
    ...(tuning?.heartbeatMs ? { heartbeatMs: tuning.heartbeatMs } : {}),
    ...(tuning?.settleAfterMs ? { settleAfterMs: tuning.settleAfterMs } : {}),
    ...(tuning?.createDeadlineMs ? { createDeadlineMs: tuning.createDeadlineMs } : {}),
    checkoutTtlMs: tuning?.checkoutTtlMs ?? config.checkoutTtlSeconds * 1000,
    reconcile: {
      ...(tuning?.staleAfterMs ? { staleAfterMs: tuning.staleAfterMs } : {}),
      ...(tuning?.reconcileIntervalMs ? { intervalMs: tuning.reconcileIntervalMs } : {}),
    },
    // One log line per webhook, then the composer's own observer (the demo's webhook log).
    onWebhook: (receipt) => {
      log.log(webhookFields(receipt), webhookLine(receipt));
      return onWebhook?.(receipt);
    },
    logger: log,
    metrics,
    limits: {
      trustProxy: config.limits.trustProxy,
      sseMaxPerClient: config.limits.sseMaxPerClient,
      sseMaxTotal: config.limits.sseMaxTotal,
      checkoutRatePerMinute: config.limits.checkoutRatePerMinute,
      bodyTimeoutMs: config.limits.bodyTimeoutMs,
    },
  });
  // The provider's webhook, the first step of every payment's status, answered before the app (node/webhook-route.ts).
  const nodeRoutes = [
    nodeWebhookRoute({
      receive: checkout.receiveWebhook,
      path: `${API_PREFIX}/webhooks/provider`,
      maxBytes: JSON_BODY_MAX_BYTES,
      bodyTimeoutMs: config.limits.bodyTimeoutMs,
      https: listener.publicBaseUrl.startsWith('https:'),
      log,
    }),
  ];
  // The merchant's backend hears of every payment: the environment's endpoint and the stored ones (the back office's),
  // delivered beside the payment path.
  const endpoints = config.merchantWebhook ? [{ id: 'env', ...config.merchantWebhook }] : [];
  const retryDelaysMs = tuning?.merchantWebhookRetryDelaysMs;
  // In a thread of its own with its own store connection when the store is on disk or in PostgreSQL (the file is
  // the one `openStore` opens): a backlog then drains without holding up the shoppers' status.
  const where = config.databaseUrl ? { databaseUrl: config.databaseUrl } : { file: join(config.dataDir, 'checkout.sqlite') };
  // Endpoint secrets (and the other values of server/store/sealed-columns.ts) are sealed at rest under SECRETS_KEY.
  const sealer = createSealer(config.secretsKey, config.secretsKeysPrevious);
  const secretsKeys = [config.secretsKey, ...config.secretsKeysPrevious].map((key) => key.toString('base64url'));
  const deliveries = deliveryWorkerFor({
    ...{ store, hub, endpoints, clock, logger: log, addresses: endpointAddresses, secretsKeys, ...where },
    ...(retryDelaysMs && { retryDelaysMs }),
    onAttempts: (outcome, count) => metrics.merchantDelivery(outcome, count),
  });
  registry.watch({ store, openStreams: () => checkout.streams.total, clock });
  if (config.adminToken) {
    const { adminToken } = config;
    const backOffice = backOfficeApi({
      ...{ provider, adminToken, clock, webhook: checkout.webhook, store, hub, webhooks: deliveries, sealer, log },
      // The console's session cookie: Secure on https, and its writes only from the console's own origin.
      trustProxy: config.limits.trustProxy,
      secureCookies: listener.publicBaseUrl.startsWith('https:'),
      consoleOrigins: defaultAllowedOrigins(listener.publicBaseUrl),
      // Cash-outs, refunds and payment requests above APPROVAL_ABOVE wait for an owner's approval.
      approvalAboveCents: config.approvalAboveCents,
      mfaRequired: config.mfaRequired ?? DEFAULT_MFA_POLICY,
      // A repeated key settles its cash-out after the same window as the reconciler does.
      ...(tuning?.settleAfterMs ? { tuning: { cashOutStaleMs: tuning.settleAfterMs } } : {}),
      bodyTimeoutMs: config.limits.bodyTimeoutMs,
      paymentLinks: { orders, orderTokenSecret, publicBaseUrl: listener.publicBaseUrl },
      ...(tuning?.heartbeatMs ? { tuning: { heartbeatMs: tuning.heartbeatMs } } : {}),
    });
    checkout.app.route('/admin', backOffice);
  }

  /** Call it before anything else is added to `app`: its request log then sees every request, the demo's too. */
  function mount(app: Hono, { provider: providerName }: { provider: 'remote' | 'sandbox' }) {
    app.use(requestLog(log), httpMetrics(metrics));
    // Scraped with METRICS_TOKEN; without one, only from this machine in the demo, and not at all in production.
    const { metricsToken } = config;
    const access = metricsToken
      ? { token: metricsToken }
      : providerName === 'sandbox'
        ? { loopbackOnly: true as const }
        : { closed: true as const };
    app.get('/metrics', metricsRoute(registry, access));
    app.get('/healthz', (c) => c.json({ status: 'ok', provider: providerName }));
    app.get('/readyz', readiness({ store, draining: listener.draining }));
    app.route(API_PREFIX, checkout.app);
    const built = here('../dist/widget');
    if (!existsSync(`${built}/integrity.json`)) log.warn('dist/widget is missing: run `npm run build` to serve the element.');
    // Mounted either way: a build made while the server runs is served from then on.
    app.use('/widget/*', widgetFiles({ dir: built }));
    // The payment link's page, /pay/<orderId>#t=<order token> (server/pay-page.ts).
    app.route('/pay', payPage({ widgetDir: built, orders, orderTokenSecret, clock, warn: (line) => log.warn(line) }));
    // The merchant console under /admin (its own CSP; a 503 saying to build it until dist/console exists).
    app.route('/', consoleApp({ dir: here('../dist/console'), warn: (line) => log.warn(line) }));
  }

  return { checkout, mount, deliveries, nodeRoutes, sealer };
}

/** The standalone BFF (`npm run serve`): a real provider and the merchant's order source, nothing else. */
export async function startServer(config: Config, options: StartOptions = {}) {
  const provider = config.provider;
  const orders = options.orders ?? (config.orders ? httpOrders(config.orders) : undefined);
  if (!provider || !orders) {
    throw new Error(
      'The BFF alone needs a provider and an order source: set PROVIDER_BASE_URL, PROVIDER_ACCESS_KEY, PROVIDER_SECRET ' +
        'and ORDERS_URL, ORDERS_TOKEN (`npm start` runs the demo on the embedded emulator instead).',
    );
  }
  const clock = options.clock ?? systemClock;
  const log = options.log ?? console;
  const metrics = createMetricsRegistry();
  const listener = await listen(config, log);
  const where = { dataDir: config.dataDir, databaseUrl: config.databaseUrl };
  const { store, hub } = await openStore({ ...where, observer: metrics.storeObserver }).catch(async (error) => {
    await listener.close();
    throw error;
  });
  const client = timedProvider(
    createProviderClient({ ...provider, ...(options.tuning?.providerTimeoutMs ? { timeoutMs: options.tuning.providerTimeoutMs } : {}) }),
    metrics.metrics,
  );
  const product = createProduct({
    ...{ config, listener, provider: client, orders, store, hub, clock, log, tuning: options.tuning, metrics },
    endpointAddresses: options.endpointAddresses ?? PUBLIC_ENDPOINTS,
  });
  await sealAtStart(store, product.sealer, log);
  // A first start with no console user says how to add one.
  const hint = await noUserHint(store).catch(() => undefined);
  if (hint) log.log(hint);

  const app = new Hono();
  app.use(securityHeaders({ https: listener.publicBaseUrl.startsWith('https:') }));
  product.mount(app, { provider: 'remote' });
  app.notFound((c) => c.json(errorBody('NotFound', 'not_found', 'No such route.'), SHOPPER_ERRORS.not_found));
  listener.handle(app, product.nodeRoutes);
  if (!options.manualReconcile) product.checkout.reconciler.start();
  product.deliveries.start();
  const retention = payerRetention({ store, clock, retentionDays: config.payerDataRetentionDays, log });
  if (!options.manualReconcile) retention.start();

  return {
    ...listener,
    app,
    store,
    hub,
    provider: client,
    checkout: product.checkout,
    deliveries: product.deliveries,
    sealer: product.sealer,
    /** Stops accepting, finishes the requests in flight, tells the streams to retry elsewhere (server/shutdown.ts). */
    drain: (cutAfterMs: number) => listener.drain(cutAfterMs),
    async close() {
      product.checkout.reconciler.stop();
      retention.stop();
      await product.deliveries.stop();
      await listener.close();
      await hub.close();
      await store.close();
    },
  };
}

export type RunningServer = Awaited<ReturnType<typeof startServer>>;
