/**
 * Composes one process: the sandbox emulator (unless a real provider is configured), the BFF under `/api`,
 * the built element under `/widget`, and the demo. Listens first, so the public address is known even with
 * PORT=0, then builds the app; requests arriving in between get a 503.
 */
import { serve, type ServerType } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoApi, demoOrders } from '../demo/server';
import { createCheckoutApp, WEBHOOK_HEADER } from './checkout/app';
import { errorBody } from './checkout/errors';
import type { OrderResolver } from './checkout/orders';
import type { Config } from './config';
import { systemClock, type Clock } from './lib/clock';
import { createProviderClient } from './provider';
import { createSandbox } from './sandbox';
import { SANDBOX_ACCESS_KEY, SANDBOX_SECRET } from './sandbox/defaults';
import { openStore } from './store';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** A strict policy for our pages: the element must work without inline scripts or eval. */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";

export interface StartOptions {
  clock?: Clock;
  /** Replaces the demo shop's order resolver (a merchant's own pricing). */
  orders?: OrderResolver;
  /** Timing knobs for tests. */
  tuning?: { providerTimeoutMs?: number; heartbeatMs?: number; reconcileIntervalMs?: number; staleAfterMs?: number; webhookRetryDelaysMs?: number[] };
  /** Don't start the reconciliation loop (tests drive it with `runOnce`). */
  manualReconcile?: boolean;
  log?: Pick<Console, 'log' | 'warn' | 'error'>;
}

export async function startServer(config: Config, options: StartOptions = {}) {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? console;
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
  const allowedOrigins = config.allowedOrigins ?? [new URL(publicBaseUrl).origin];

  const { store, hub } = await openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const sandbox = config.provider
    ? undefined
    : createSandbox({
        dataDir: config.dataDir,
        publicBaseUrl,
        clock,
        ...(config.sandboxKeys.accessKey ? { accessKey: config.sandboxKeys.accessKey } : {}),
        ...(config.sandboxKeys.secret ? { secret: config.sandboxKeys.secret } : {}),
        ...(options.tuning?.webhookRetryDelaysMs ? { webhookRetry: { delaysMs: options.tuning.webhookRetryDelaysMs } } : {}),
        // Company-payment executions notify the same receiver, so the demo's webhook log shows them too.
        companyWebhook: { url: `${publicBaseUrl}/api/webhooks/provider`, customHeaderName: WEBHOOK_HEADER, customHeaderValue: config.webhookSecret },
      });
  const provider = createProviderClient({
    ...(config.provider ?? {
      baseUrl: `http://127.0.0.1:${port}/sandbox/v1`,
      accessKey: config.sandboxKeys.accessKey ?? SANDBOX_ACCESS_KEY,
      secret: config.sandboxKeys.secret ?? SANDBOX_SECRET,
    }),
    ...(options.tuning?.providerTimeoutMs ? { timeoutMs: options.tuning.providerTimeoutMs } : {}),
  });
  const checkout = createCheckoutApp({
    provider,
    store,
    hub,
    orders: options.orders ?? demoOrders(store),
    clock,
    apiBaseUrl: `${publicBaseUrl}/api`,
    webhookSecret: config.webhookSecret,
    adminToken: config.adminToken,
    allowedOrigins,
    ...(options.tuning?.heartbeatMs ? { heartbeatMs: options.tuning.heartbeatMs } : {}),
    reconcile: {
      ...(options.tuning?.staleAfterMs ? { staleAfterMs: options.tuning.staleAfterMs } : {}),
      ...(options.tuning?.reconcileIntervalMs ? { intervalMs: options.tuning.reconcileIntervalMs } : {}),
    },
    logger: log,
  });

  const app = new Hono();
  app.get('/healthz', (c) => c.json({ status: 'ok', provider: sandbox ? 'sandbox' : 'remote' }));
  if (sandbox) app.route('/sandbox', sandbox.app);
  app.route('/api', checkout.app);
  // The built element, and the demo's built scripts (the back-office's Lit elements) under dist/demo/assets.
  const built = here('../dist');
  if (existsSync(built)) {
    app.use('/widget/*', serveStatic({ root: built }));
    app.use('/assets/*', serveStatic({ root: join(built, 'demo') }));
  } else {
    log.warn('dist/ is missing: run `npm run build` to serve the element and the back-office scripts.');
  }
  app.route('/demo/api', demoApi({ store, provider, clock }));
  app.use('*', async (c, next) => {
    await next();
    if (c.res.headers.get('content-type')?.startsWith('text/html')) c.res.headers.set('content-security-policy', CSP);
  });
  app.use('/*', serveStatic({ root: here('../demo/public') }));
  app.notFound((c) => c.json(errorBody('NotFound', 'not_found', 'No such route.'), 404));

  handler = app.fetch;
  if (!options.manualReconcile) checkout.reconciler.start();

  return {
    /** Where this process listens (loopback). */
    url: `http://127.0.0.1:${port}`,
    /** Where browsers and the provider reach it. */
    publicBaseUrl,
    port,
    app,
    store,
    hub,
    provider,
    sandbox,
    checkout,
    async close() {
      checkout.reconciler.stop();
      (server as Server).closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      sandbox?.close();
      await hub.close();
      await store.close();
    },
  };
}

export type RunningServer = Awaited<ReturnType<typeof startServer>>;
