/**
 * The backend-for-frontend: what a merchant deploys. It holds the provider credentials, prices orders itself,
 * and is the only thing the browser talks to. Mount the returned app at `/api`.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { jsonBodyGuards } from '../http/body-guards';
import { errorAnswers, sendError } from '../http/error-envelope';
import { refuseForeignOrigins, storefrontCors } from '../http/origins';
import { rateLimit } from '../http/rate-limit';
import { safeAddress } from '../http/safe-address';
import { securityHeaders } from '../http/security-headers';
import { streamLimit } from '../http/stream-limit';
import { systemClock, type Clock } from '../lib/clock';
import { createRateLimiter, createStreamLimiter, type StreamLimiter } from '../lib/limits';
import { NO_METRICS, type Metrics } from '../metrics/metrics';
import { notFound } from '../payments/errors';
import type { OrderResolver } from '../payments/orders';
import { createReconciler } from '../payments/reconciler';
import { createCheckoutService, type CheckoutServiceStore, type WebhookTarget } from '../payments/service';
import type { ProviderClient } from '../provider';
import type { StatusHub } from '../store/types';
import { checkoutRoutes } from './routes/checkouts';
import { orderRoutes } from './routes/orders';
import { webhookRoutes } from './routes/webhooks';
import { loggingTransitions } from './transition-log';
import { webhookReceiver, type WebhookReceiverStore, type WebhookRoutesOptions } from './webhook-receiver';

/** What the shoppers' API stores through: the checkout service's ports (the reconciler's among them) and the webhook receiver's. */
export type CheckoutAppStore = CheckoutServiceStore & WebhookReceiverStore;

export interface CheckoutAppOptions {
  provider: ProviderClient;
  store: CheckoutAppStore;
  hub: StatusHub;
  orders: OrderResolver;
  clock?: Clock;
  /** Absolute address of this app's mount point, for example `https://shop.example/api`. */
  apiBaseUrl: string;
  /** Per-deployment secret the provider sends back in the webhook header (at least 192 bits). */
  webhookSecret: string;
  /** The provider portal's webhook signing key (`WEBHOOK_SIGNING_KEY`); when set, unsigned webhooks are refused. */
  webhookSigningKey?: string | undefined;
  /**
   * Key of the order tokens the merchant's server gives the page (HMAC-SHA256, see `order-token.ts`): the order-source
   * secret it already shares with the BFF (`ORDERS_TOKEN`). Creating a checkout needs a valid token for its order.
   */
  orderTokenSecret: string;
  /** Storefront origins allowed to call the API from a browser and to be OpenFinance return addresses. */
  allowedOrigins: readonly string[];
  heartbeatMs?: number;
  retryMs?: number;
  creationWaitMs?: number;
  /** A reservation older than this is settled with the provider; see `CheckoutServiceOptions.settleAfterMs`. */
  settleAfterMs?: number;
  /** The longest a create keeps the shopper waiting; see `CheckoutServiceOptions.createDeadlineMs`. Default 15 s. */
  createDeadlineMs?: number;
  /** The payment window of a new checkout (`CHECKOUT_TTL_SECONDS`), unless the provider gives one. Default 30 min. */
  checkoutTtlMs?: number;
  reconcile?: { staleAfterMs?: number; intervalMs?: number; followExpiredMs?: number };
  /** Told of every authenticated webhook once it is handled (for a log); it never delays the provider's answer. */
  onWebhook?: WebhookRoutesOptions['onWebhook'];
  /** Where the app's lines go: one per committed move of a checkout (`log`, ./transition-log.ts), and its errors. */
  logger?: Pick<Console, 'log' | 'error' | 'warn'>;
  /** Per-client limits; each unset one takes the default of the matching setting (README, Configuration). */
  limits?: Partial<CheckoutLimits>;
  /** What the webhooks, the stream limits and the reconciler tell (server/metrics). */
  metrics?: Metrics;
}

export interface CheckoutLimits {
  /** Proxies in front whose `X-Forwarded-For` is believed (`TRUST_PROXY`); 0 counts the socket's peer. */
  trustProxy: number;
  /** Open event streams per client address (`SSE_MAX_PER_CLIENT`) and in all (`SSE_MAX_TOTAL`). */
  sseMaxPerClient: number;
  sseMaxTotal: number;
  /** `POST /checkouts` per client address and minute, in a burst of as many (`CHECKOUT_RATE_PER_MINUTE`); 0: off. */
  checkoutRatePerMinute: number;
  /** A JSON body must arrive within this (`BODY_TIMEOUT_MS`). */
  bodyTimeoutMs: number;
}

export const DEFAULT_LIMITS: CheckoutLimits = {
  trustProxy: 0,
  sseMaxPerClient: 256,
  sseMaxTotal: 4096,
  checkoutRatePerMinute: 30,
  bodyTimeoutMs: 10_000,
};

export const WEBHOOK_HEADER = 'X-Checkout-Webhook-Secret';

/** `limiter`, whose refusals are counted. */
function countingRefusals(limiter: StreamLimiter, metrics: Metrics): StreamLimiter {
  return {
    ...limiter,
    acquire(key) {
      const slot = limiter.acquire(key);
      if ('refused' in slot) metrics.streamRefused(slot.refused);
      return slot;
    },
    get total() {
      return limiter.total;
    },
  };
}

/** A sub-app behind the guards it needs, to mount at its own path. */
const guarded = (guards: MiddlewareHandler[], routes: Hono) => new Hono().use(...guards).route('/', routes);

/**
 * The shoppers' API: security headers and the address guard on every route, and on each sub-app the guards it needs
 * (CORS and the origin check for the storefronts' routes, the JSON body's guards, the per-client limits), and its
 * error envelope (`notFound`, `onError`). Routes mounted on the returned `app` afterwards meet the same headers,
 * address guard and envelope: server/server.ts mounts the back office, which has its own body guards, under `/admin`.
 */
export function createCheckoutApp(options: CheckoutAppOptions) {
  if (!options.orderTokenSecret) throw new Error('createCheckoutApp needs orderTokenSecret (the key of the order tokens).');
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? console;
  const metrics = options.metrics ?? NO_METRICS;
  // Every move the service or the receiver commits is logged with the payment's ids.
  const store = loggingTransitions(options.store, logger);
  const webhook: WebhookTarget = {
    url: `${options.apiBaseUrl.replace(/\/+$/, '')}/webhooks/provider`,
    headerName: WEBHOOK_HEADER,
    secret: options.webhookSecret,
  };
  const service = createCheckoutService({
    ...options,
    store,
    clock,
    webhook,
    defaultReturnUrl: options.allowedOrigins[0] ?? options.apiBaseUrl,
    ...(options.creationWaitMs ? { creationWaitMs: options.creationWaitMs } : {}),
  });
  const reconciler = createReconciler({
    store,
    service,
    clock,
    ...options.reconcile,
    metrics,
    onError: (error) => logger.warn('reconcile:', error instanceof Error ? error.message : error),
  });

  const receiveWebhook = webhookReceiver({
    service,
    store,
    clock,
    webhook,
    signingKey: options.webhookSigningKey,
    onWebhook: options.onWebhook,
    logger,
    metrics,
  });
  const app = new Hono();
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const origins = options.allowedOrigins;
  app.use(securityHeaders({ https: options.apiBaseUrl.startsWith('https:') }));
  // A page on an origin the storefront list does not name gets a refusal it can read (not a CORS-hidden answer).
  app.use('/checkouts/*', refuseForeignOrigins(origins), storefrontCors(origins, ['content-type', 'last-event-id']));
  app.use('/orders/*', refuseForeignOrigins(origins), storefrontCors(origins, ['content-type', 'x-order-token']));
  app.use(safeAddress());
  // The create and the order lookup may come as text/plain from a storefront origin, which spares the shopper's
  // browser a preflight.
  const storefrontJson = jsonBodyGuards({ timeoutMs: limits.bodyTimeoutMs, plainTextFrom: origins });
  const streams = countingRefusals(createStreamLimiter({ perClient: limits.sseMaxPerClient, total: limits.sseMaxTotal }), metrics);
  const checkouts = new Hono().use(...storefrontJson);
  if (limits.checkoutRatePerMinute > 0) {
    checkouts.use('/', rateLimit(createRateLimiter({ perMinute: limits.checkoutRatePerMinute }), limits.trustProxy));
  }
  checkouts.use('/:id/events', streamLimit(streams, limits.trustProxy));
  checkouts.route(
    '/',
    checkoutRoutes({
      service,
      store,
      hub: options.hub,
      returnOrigins: origins,
      heartbeatMs: options.heartbeatMs ?? 15_000,
      retryMs: options.retryMs ?? 3_000,
      orderTokenSecret: options.orderTokenSecret,
      clock,
    }),
  );
  app.route('/checkouts', checkouts);
  const orders = orderRoutes({
    service,
    store,
    orders: options.orders,
    orderTokenSecret: options.orderTokenSecret,
    clock,
    allowedOrigins: origins,
  });
  app.route('/orders', guarded(storefrontJson, orders));
  // The provider's contract names no content type for webhooks, and their secret header already proves the sender
  // (a foreign page cannot add it), so their body is read as JSON whatever its declared type.
  const providerJson = jsonBodyGuards({ timeoutMs: limits.bodyTimeoutMs, anyContentType: true });
  app.route('/webhooks', guarded(providerJson, webhookRoutes(receiveWebhook)));

  app.notFound((c) => sendError(c, notFound()));
  app.onError(errorAnswers(logger, 'checkout api'));

  return { app, service, reconciler, webhook, streams, receiveWebhook };
}
