/**
 * The product as one process: the BFF under `/api` with the back office beside it under `/api/admin`, the built
 * element under `/widget`, and `/healthz`. No demo and no emulator: those are composed on top by `demo/`, which reuses
 * `listen` and `createProduct`.
 */
import { getRequestListener, RequestError, type HttpBindings } from '@hono/node-server';
import { Hono } from 'hono';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { SHOPPER_ERRORS } from '../core/contract';
import { backOfficeApi, isInvoiceUpload } from './backoffice';
import { createCheckoutApp, type CheckoutAppOptions } from './bff/app';
import { createDeliveryWorker } from './events/delivery';
import { errorBody } from './payments/errors';
import { sendRawStreams } from './bff/stream';
import { BASE_SECURITY_HEADERS, securityHeaders } from './bff/guards';
import { httpOrders, type OrderResolver } from './payments/orders';
import { defaultAllowedOrigins, keptSecret, type Config } from './config';
import { systemClock, type Clock } from './lib/clock';
import { createProviderClient, type ProviderClient } from './provider';
import { requestLog, webhookLine } from './request-log';
import { openStore } from './store';
import type { StatusHub, Store } from './store/types';
import { widgetFiles } from './widget';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export type Logger = Pick<Console, 'log' | 'warn' | 'error'>;

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
}

/** What the Node server itself answers when a request can't reach the app: the BFF's envelope, never plain text. */
function requestErrorResponse(log: Pick<Logger, 'error'>) {
  return (error: unknown): Response => {
    // A RequestError is a request @hono/node-server can't turn into a URL: a backslash in the path, a bad Host.
    const malformed = error instanceof RequestError;
    if (!malformed) log.error('server:', error);
    return Response.json(
      malformed
        ? errorBody('BadRequest', 'bad_request', 'Malformed request.')
        : errorBody('ApiError', 'internal_error', 'Something went wrong on our side.'),
      { status: malformed ? SHOPPER_ERRORS.bad_request : SHOPPER_ERRORS.internal_error, headers: BASE_SECURITY_HEADERS },
    );
  };
}

/** Node's parser errors that have a code of their own (core/contract.ts); any other is a 400 `bad_request`. */
const CLIENT_ERRORS: Record<string, [reason: string, code: keyof typeof SHOPPER_ERRORS, message: string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: ['Request Timeout', 'request_timeout', 'The request did not arrive in time.'],
  HPE_HEADER_OVERFLOW: ['Request Header Fields Too Large', 'headers_too_large', 'The request headers are too large.'],
};

/**
 * Node's answer to what its HTTP parser refuses (bad request line or header, headers or whole request too slow),
 * written on the socket as Node would, but as the envelope in JSON.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex) {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [reason, code, message] = CLIENT_ERRORS[error.code ?? ''] ?? ['Bad Request', 'bad_request', 'Malformed request.'];
  const status = SHOPPER_ERRORS[code];
  const body = JSON.stringify(errorBody('BadRequest', code, message));
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
    ...BASE_SECURITY_HEADERS,
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(`HTTP/1.1 ${status} ${reason}\r\n${head.join('')}\r\n${body}`, () => socket.destroy());
}

/** Why the port could not be bound, in one line that says what to do (`npm start` and `npm run serve` print it). */
function listenError(error: NodeJS.ErrnoException, config: Pick<Config, 'port' | 'host'>): Error {
  if (error.code === 'EADDRINUSE') return new Error(`Port ${config.port} is in use: set PORT to another port.`);
  if (error.code === 'EACCES') return new Error(`Port ${config.port} needs more privileges: set PORT to a port above 1023.`);
  if (error.code === 'EADDRNOTAVAIL') return new Error(`HOST ${config.host} is not an address of this machine: set HOST to one.`);
  return error;
}

/**
 * Binds the port first, so the public address is known even with PORT=0; requests that arrive before `handle` is
 * given a handler get a 503.
 *
 * Slow clients: headers must arrive within `BODY_TIMEOUT_MS` and the whole request within `REQUEST_TIMEOUT_MS`
 * (Node's `headersTimeout` and `requestTimeout`, 60 s and 300 s by default). Neither touches a response that takes
 * long, such as an event stream: they end once the request is in.
 */
export async function listen(config: Config, log: Pick<Logger, 'error'> = console) {
  let handler: ((request: Request, env: HttpBindings) => Response | Promise<Response>) | undefined;
  const fetch = (request: Request, env: HttpBindings) =>
    handler?.(request, env) ??
    Response.json(errorBody('Unavailable', 'starting', 'Starting up.'), {
      status: SHOPPER_ERRORS.starting,
      headers: BASE_SECURITY_HEADERS,
    });
  const respond = getRequestListener(fetch as Parameters<typeof getRequestListener>[0], {
    hostname: config.host,
    errorHandler: requestErrorResponse(log),
  });
  const requestTimeout = config.limits.requestTimeoutMs;
  const headersTimeout = Math.min(requestTimeout, config.limits.bodyTimeoutMs);
  const server = createServer(
    // Node checks both deadlines every `connectionsCheckingInterval` (30 s by default): often enough to keep them.
    { requestTimeout, headersTimeout, connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(headersTimeout / 4))) },
    (incoming, outgoing) => void respond(incoming, outgoing),
  );
  server.on('clientError', answerClientError);
  server.listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, config)));
  });
  const { port } = server.address() as AddressInfo;
  const publicBaseUrl = config.publicBaseUrl ?? `http://127.0.0.1:${port}`;
  return {
    port,
    /** Where this process listens (loopback). */
    url: `http://127.0.0.1:${port}`,
    /** Where browsers and the provider reach it. */
    publicBaseUrl,
    allowedOrigins: config.allowedOrigins ?? defaultAllowedOrigins(publicBaseUrl),
    handle(app: Hono) {
      // An event stream is written straight to Node's response once the app's middlewares are done with its headers.
      handler = (request, env) => {
        const response = app.fetch(request, env);
        return response instanceof Promise ? response.then((r) => sendRawStreams(r, env)) : sendRawStreams(response, env);
      };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Listener = Awaited<ReturnType<typeof listen>>;

export interface ProductOptions {
  config: Config;
  listener: Listener;
  provider: ProviderClient;
  orders: OrderResolver;
  store: Store;
  hub: StatusHub;
  clock: Clock;
  log: Logger;
  tuning?: Tuning | undefined;
  onWebhook?: CheckoutAppOptions['onWebhook'];
}

/**
 * The BFF wired from the configuration, with the back office mounted on its app under `/admin` (when an admin token is
 * set), so both APIs meet the same middleware and error envelope; `mount` adds `/healthz`, `/api` and `/widget` to a
 * root app.
 */
export function createProduct({ config, listener, provider, orders, store, hub, clock, log, tuning, onWebhook }: ProductOptions) {
  const checkout = createCheckoutApp({
    provider,
    store,
    hub,
    orders,
    clock,
    apiBaseUrl: `${listener.publicBaseUrl}/api`,
    webhookSecret: config.webhookSecret,
    webhookSigningKey: config.webhookSigningKey,
    // Order tokens are signed with the order-source secret: ORDERS_TOKEN, else (library use, the demo) DATA_DIR/orders-token.
    orderTokenSecret: config.orders?.token ?? keptSecret(config.dataDir, 'orders-token'),
    // The back office's invoice upload streams its PDF body: the BFF's JSON body guards leave it alone.
    streamedBody: isInvoiceUpload,
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
      log.log(webhookLine(receipt));
      return onWebhook?.(receipt);
    },
    logger: log,
    limits: {
      trustProxy: config.limits.trustProxy,
      sseMaxPerClient: config.limits.sseMaxPerClient,
      sseMaxTotal: config.limits.sseMaxTotal,
      checkoutRatePerMinute: config.limits.checkoutRatePerMinute,
      bodyTimeoutMs: config.limits.bodyTimeoutMs,
    },
  });
  // The merchant's backend hears of every payment: the environment's endpoint and the stored ones (the back office's),
  // delivered beside the payment path.
  const endpoints = config.merchantWebhook ? [{ id: 'env', ...config.merchantWebhook }] : [];
  const retryDelaysMs = tuning?.merchantWebhookRetryDelaysMs;
  const deliveries = createDeliveryWorker({ store, hub, endpoints, clock, logger: log, ...(retryDelaysMs && { retryDelaysMs }) });
  if (config.adminToken) {
    const { adminToken } = config;
    const backOffice = backOfficeApi({ provider, adminToken, clock, webhook: checkout.webhook, store, hub, webhooks: deliveries });
    checkout.app.route('/admin', backOffice);
  }

  /** Call it before anything else is added to `app`: its request log then sees every request, the demo's too. */
  function mount(app: Hono, { provider: providerName }: { provider: 'remote' | 'sandbox' }) {
    app.use(requestLog(log));
    app.get('/healthz', (c) => c.json({ status: 'ok', provider: providerName }));
    app.route('/api', checkout.app);
    const built = here('../dist/widget');
    if (!existsSync(`${built}/integrity.json`)) log.warn('dist/widget is missing: run `npm run build` to serve the element.');
    // Mounted either way: a build made while the server runs is served from then on.
    app.use('/widget/*', widgetFiles({ dir: built, allowedOrigins: listener.allowedOrigins }));
  }

  return { checkout, mount, deliveries };
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
  const listener = await listen(config, log);
  const { store, hub } = await openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl }).catch(async (error) => {
    await listener.close();
    throw error;
  });
  const client = createProviderClient({
    ...provider,
    ...(options.tuning?.providerTimeoutMs ? { timeoutMs: options.tuning.providerTimeoutMs } : {}),
  });
  const product = createProduct({ config, listener, provider: client, orders, store, hub, clock, log, tuning: options.tuning });

  const app = new Hono();
  app.use(securityHeaders({ https: listener.publicBaseUrl.startsWith('https:') }));
  product.mount(app, { provider: 'remote' });
  app.notFound((c) => c.json(errorBody('NotFound', 'not_found', 'No such route.'), SHOPPER_ERRORS.not_found));
  listener.handle(app);
  if (!options.manualReconcile) product.checkout.reconciler.start();
  product.deliveries.start();

  return {
    ...listener,
    app,
    store,
    hub,
    provider: client,
    checkout: product.checkout,
    deliveries: product.deliveries,
    async close() {
      product.checkout.reconciler.stop();
      await product.deliveries.stop();
      await listener.close();
      await hub.close();
      await store.close();
    },
  };
}

export type RunningServer = Awaited<ReturnType<typeof startServer>>;
