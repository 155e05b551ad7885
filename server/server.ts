/**
 * The product as one process: the BFF under `/api`, the built element under `/widget`, and `/healthz`. No demo and
 * no emulator: those are composed on top by `demo/`, which reuses `listen` and `createProduct`.
 */
import { serve, type ServerType } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createCheckoutApp, type CheckoutAppOptions } from './checkout/app';
import { errorBody } from './checkout/errors';
import { httpOrders, type OrderResolver } from './checkout/orders';
import { keptSecret, type Config } from './config';
import { systemClock, type Clock } from './lib/clock';
import { createProviderClient, type ProviderClient } from './provider';
import { openStore } from './store';
import type { StatusHub, Store } from './store/types';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export type Logger = Pick<Console, 'log' | 'warn' | 'error'>;

/** Timing knobs, for tests. */
export interface Tuning {
  providerTimeoutMs?: number;
  heartbeatMs?: number;
  reconcileIntervalMs?: number;
  staleAfterMs?: number;
  webhookRetryDelaysMs?: number[];
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

/**
 * Binds the port first, so the public address is known even with PORT=0; requests that arrive before `handle` is
 * given a handler get a 503.
 */
export async function listen(config: Config) {
  let handler: ((request: Request) => Response | Promise<Response>) | undefined;
  const server: ServerType = serve({
    fetch: (request) => handler?.(request) ?? Response.json(errorBody('Unavailable', 'starting', 'Starting up.'), { status: 503 }),
    port: config.port,
    hostname: config.host,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const publicBaseUrl = config.publicBaseUrl ?? `http://127.0.0.1:${port}`;
  return {
    port,
    /** Where this process listens (loopback). */
    url: `http://127.0.0.1:${port}`,
    /** Where browsers and the provider reach it. */
    publicBaseUrl,
    allowedOrigins: config.allowedOrigins ?? [new URL(publicBaseUrl).origin],
    handle(app: Hono) {
      handler = app.fetch;
    },
    async close() {
      (server as Server).closeAllConnections();
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

/** The BFF wired from the configuration; `mount` adds `/healthz`, `/api` and `/widget` to a root app. */
export function createProduct({ config, listener, provider, orders, store, hub, clock, log, tuning, onWebhook }: ProductOptions) {
  const checkout = createCheckoutApp({
    provider,
    store,
    hub,
    orders,
    clock,
    apiBaseUrl: `${listener.publicBaseUrl}/api`,
    webhookSecret: config.webhookSecret,
    // Order tokens are signed with the order-source secret: ORDERS_TOKEN, else (library use, the demo) DATA_DIR/orders-token.
    orderTokenSecret: config.orders?.token ?? keptSecret(config.dataDir, 'orders-token'),
    adminToken: config.adminToken,
    allowedOrigins: listener.allowedOrigins,
    ...(tuning?.heartbeatMs ? { heartbeatMs: tuning.heartbeatMs } : {}),
    reconcile: {
      ...(tuning?.staleAfterMs ? { staleAfterMs: tuning.staleAfterMs } : {}),
      ...(tuning?.reconcileIntervalMs ? { intervalMs: tuning.reconcileIntervalMs } : {}),
    },
    ...(onWebhook ? { onWebhook } : {}),
    logger: log,
  });

  function mount(app: Hono, { provider: providerName }: { provider: 'remote' | 'sandbox' }) {
    app.get('/healthz', (c) => c.json({ status: 'ok', provider: providerName }));
    app.route('/api', checkout.app);
    const built = here('../dist');
    if (existsSync(`${built}/widget`)) app.use('/widget/*', serveStatic({ root: built }));
    else log.warn('dist/widget is missing: run `npm run build` to serve the element.');
  }

  return { checkout, mount };
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
  const listener = await listen(config);
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
  product.mount(app, { provider: 'remote' });
  app.notFound((c) => c.json(errorBody('NotFound', 'not_found', 'No such route.'), 404));
  listener.handle(app);
  if (!options.manualReconcile) product.checkout.reconciler.start();

  return {
    ...listener,
    app,
    store,
    hub,
    provider: client,
    checkout: product.checkout,
    async close() {
      product.checkout.reconciler.stop();
      await listener.close();
      await hub.close();
      await store.close();
    },
  };
}

export type RunningServer = Awaited<ReturnType<typeof startServer>>;
