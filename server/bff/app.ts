/**
 * The backend-for-frontend: what a merchant deploys. It holds the provider credentials, prices orders itself,
 * and is the only thing the browser talks to. Mount the returned app at `/api`.
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { systemClock, type Clock } from '../lib/clock';
import { createRateLimiter, createStreamLimiter } from '../lib/limits';
import type { ProviderClient } from '../provider';
import type { StatusHub, Store } from '../store/types';
import { checkoutRoutes } from './checkouts';
import { orderRoutes } from './orders-routes';
import { notFound, payloadTooLarge } from '../payments/errors';
import { errorAnswers, sendError } from './respond';
import { bodyDeadline, jsonOnly } from './body-guards';
import { rateLimit, refuseForeignOrigins, safeAddress, securityHeaders, streamLimit } from './guards';
import type { OrderResolver } from '../payments/orders';
import { createReconciler } from '../payments/reconciler';
import { createCheckoutService, type WebhookTarget } from '../payments/service';
import { webhookReceiver, webhookRoutes, type WebhookRoutesOptions } from './webhooks';

export interface CheckoutAppOptions {
  provider: ProviderClient;
  store: Store;
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
  /**
   * Requests whose body their route streams itself (the back office's invoice upload, mounted beside the BFF by
   * server/server.ts): the JSON-only guard, the body deadline and the JSON size limit leave them alone.
   */
  streamedBody?: (c: Context) => boolean;
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
  logger?: Pick<Console, 'error' | 'warn'>;
  /** Per-client limits; each unset one takes the default of the matching setting (README, Configuration). */
  limits?: Partial<CheckoutLimits>;
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

/** The largest JSON body any route takes. */
export const JSON_BODY_MAX_BYTES = 64 * 1024;

/** No body, or one the deadline guard has read already (it is then Hono's cached text). */
const bodyRead = (c: Context) =>
  c.req.method === 'GET' || c.req.method === 'HEAD' || (c.req.bodyCache as { text?: unknown }).text !== undefined;

export const WEBHOOK_HEADER = 'X-Checkout-Webhook-Secret';

/**
 * The shoppers' API with the middleware every API route meets (security headers, CORS for the storefronts, address and
 * body guards, JSON size limit, per-client limits) and its error envelope (`notFound`, `onError`). Routes mounted on
 * the returned `app` afterwards meet the same: server/server.ts mounts the back office under `/admin` that way.
 */
export function createCheckoutApp(options: CheckoutAppOptions) {
  if (!options.orderTokenSecret) throw new Error('createCheckoutApp needs orderTokenSecret (the key of the order tokens).');
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? console;
  const webhook: WebhookTarget = {
    url: `${options.apiBaseUrl.replace(/\/+$/, '')}/webhooks/provider`,
    headerName: WEBHOOK_HEADER,
    secret: options.webhookSecret,
  };
  const service = createCheckoutService({
    ...options,
    clock,
    webhook,
    defaultReturnUrl: options.allowedOrigins[0] ?? options.apiBaseUrl,
    ...(options.creationWaitMs ? { creationWaitMs: options.creationWaitMs } : {}),
  });
  const reconciler = createReconciler({
    store: options.store,
    service,
    clock,
    ...options.reconcile,
    onError: (error) => logger.warn('reconcile:', error instanceof Error ? error.message : error),
  });

  const receiveWebhook = webhookReceiver({
    service,
    store: options.store,
    clock,
    webhook,
    signingKey: options.webhookSigningKey,
    onWebhook: options.onWebhook,
    logger,
  });
  const app = new Hono();
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const jsonLimit = bodyLimit({
    maxSize: JSON_BODY_MAX_BYTES,
    onError: (c) => sendError(c, payloadTooLarge()),
  });
  // A streamed body (an invoice) has its own size limit, within Node's request timeout; every other body is small JSON.
  const streamedBody = options.streamedBody ?? (() => false);
  // The provider's contract names no content type for webhooks, and their secret header already proves the sender
  // (a foreign page cannot add it), so their body is read as JSON whatever its declared type.
  const providerWebhook = (c: Context) => c.req.method === 'POST' && c.req.path.endsWith('/webhooks/provider');
  app.use(securityHeaders({ https: options.apiBaseUrl.startsWith('https:') }));
  // A page on an origin the storefront list does not name gets a refusal it can read (not a CORS-hidden answer).
  for (const path of ['/checkouts/*', '/orders/*']) app.use(path, refuseForeignOrigins(options.allowedOrigins));
  app.use(
    '/checkouts/*',
    cors({
      origin: (origin) => (options.allowedOrigins.includes(origin) ? origin : null),
      allowMethods: ['GET', 'POST'],
      allowHeaders: ['content-type', 'last-event-id'],
      // The element sets its countdown by the server's clock, from the Date header, which CORS hides unless exposed.
      exposeHeaders: ['date'],
      maxAge: 600,
    }),
  );
  app.use(
    '/orders/*',
    cors({
      origin: (origin) => (options.allowedOrigins.includes(origin) ? origin : null),
      allowMethods: ['GET', 'POST'],
      allowHeaders: ['content-type', 'x-order-token'],
      exposeHeaders: ['date'],
      maxAge: 600,
    }),
  );
  app.use(safeAddress());
  // The create and the order lookup alone may come as text/plain from a storefront origin, which spares the
  // shopper's browser a preflight.
  const simpleFromStorefront = (c: Context) =>
    c.req.method === 'POST' && (/\/checkouts\/?$/.test(c.req.path) || /\/orders\/[^/]+\/checkout$/.test(c.req.path));
  app.use(
    jsonOnly({
      except: (c) => streamedBody(c) || providerWebhook(c),
      plainTextFrom: (c) => (simpleFromStorefront(c) ? options.allowedOrigins : []),
    }),
  );
  app.use(bodyDeadline(limits.bodyTimeoutMs, { except: streamedBody, maxBytes: JSON_BODY_MAX_BYTES }));
  // A request without a body, or one whose body the deadline guard already read (its length within the limit), has
  // nothing for the size limit to look at; touching `c.req.raw.body` would only build a Web stream for it.
  app.use((c, next) => (streamedBody(c) || bodyRead(c) ? next() : jsonLimit(c, next)));
  if (limits.checkoutRatePerMinute > 0) {
    app.use('/checkouts', rateLimit(createRateLimiter({ perMinute: limits.checkoutRatePerMinute }), limits.trustProxy));
  }
  const streams = createStreamLimiter({ perClient: limits.sseMaxPerClient, total: limits.sseMaxTotal });
  app.use('/checkouts/:id/events', streamLimit(streams, limits.trustProxy));
  app.route(
    '/checkouts',
    checkoutRoutes({
      service,
      store: options.store,
      hub: options.hub,
      returnOrigins: options.allowedOrigins,
      heartbeatMs: options.heartbeatMs ?? 15_000,
      retryMs: options.retryMs ?? 3_000,
      orderTokenSecret: options.orderTokenSecret,
      clock,
    }),
  );
  app.route(
    '/orders',
    orderRoutes({
      service,
      store: options.store,
      orders: options.orders,
      orderTokenSecret: options.orderTokenSecret,
      clock,
      allowedOrigins: options.allowedOrigins,
    }),
  );
  app.route('/webhooks', webhookRoutes(receiveWebhook));

  app.notFound((c) => sendError(c, notFound()));
  app.onError(errorAnswers(logger, 'checkout api'));

  return { app, service, reconciler, webhook, streams, receiveWebhook };
}
