/**
 * The demo as one process (`npm start`): the product (BFF, element, the console at /admin) on the embedded sandbox
 * emulator, plus the shop, the checkout page's sandbox panel, the sandbox portal (the provider's portal stand-in) and
 * the demo's console users. With PROVIDER_BASE_URL set nothing of the demo or the emulator is mounted: this starts the
 * standalone BFF instead, exactly as `npm run serve` does.
 */
import { Hono } from 'hono';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WEBHOOK_HEADER } from '../server/bff/app';
import { keptSecret, type Config } from '../server/config';
import { bodyDeadline } from '../server/http/body-deadline';
import { errorAnswers, errorBody } from '../server/http/error-envelope';
import { defaultAllowedOrigins } from '../server/http/origins';
import { securityHeaders } from '../server/http/security-headers';
import { systemClock } from '../server/lib/clock';
import { timedProvider } from '../server/metrics/provider';
import { createMetricsRegistry } from '../server/metrics/registry';
import { createProviderClient } from '../server/provider';
import { createSandbox } from '../server/sandbox';
import { SANDBOX_ACCESS_KEY, SANDBOX_SECRET } from '../server/sandbox/defaults';
import { createProduct, listen, startServer, type StartOptions } from '../server/server';
import { openStore } from '../server/store';
import { demoApi, demoOrders } from './routes/api';
import { checkoutPage } from './checkout-page';
import { sameOriginWrites } from './cross-site';
import { ensureDemoUsers } from './demo-users';
import { merchantEndpoint, merchantWebhookRoutes } from './routes/merchant-webhooks';
import { demoPagePolicy } from './page-policy';
import { sandboxAdminProxy } from './routes/sandbox-admin';
import { staticFiles } from './static-files';
import { openDemoStore } from './store';
import { sealAtStart } from '../server/sealed-start';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The largest JSON body the demo API reads (the BFF's limit): one of a known length up to it is read in one go. */
const DEMO_JSON_MAX_BYTES = 64 * 1024;

export async function startDemo(config: Config, options: StartOptions = {}) {
  const log = options.log ?? console;
  if (config.provider) {
    log.warn('PROVIDER_BASE_URL is set: the demo and the emulator stay off; starting the BFF alone (as `npm run serve`).');
    const server = await startServer(config, options);
    return { ...server, sandbox: undefined, demo: undefined, ordersToken: undefined, merchantWebhook: undefined, demoUsers: undefined };
  }
  const clock = options.clock ?? systemClock;
  const tuning = options.tuning;
  const listener = await listen(config);
  // The product's metrics hear the store and the provider client too (server/metrics).
  const metrics = createMetricsRegistry();
  const { store, hub } = await openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, observer: metrics.storeObserver });
  const sandbox = createSandbox({
    dataDir: config.dataDir,
    publicBaseUrl: listener.publicBaseUrl,
    clock,
    ...(config.sandboxKeys.accessKey ? { accessKey: config.sandboxKeys.accessKey } : {}),
    ...(config.sandboxKeys.secret ? { secret: config.sandboxKeys.secret } : {}),
    // Kept in DATA_DIR so a restart keeps it; only the server side holds it (the sandbox portal goes through /demo/api).
    adminKey: keptSecret(config.dataDir, 'sandbox-admin-key'),
    // A body must arrive within BODY_TIMEOUT_MS, as for the BFF (else only REQUEST_TIMEOUT_MS would bound it).
    bodyTimeoutMs: config.limits.bodyTimeoutMs,
    // WEBHOOK_SIGNING_KEY makes the BFF require signed webhooks; the embedded emulator then signs with it.
    ...(config.webhookSigningKey ? { webhookSigningKey: config.webhookSigningKey } : {}),
    ...(tuning?.webhookRetryDelaysMs ? { webhookRetry: { delaysMs: tuning.webhookRetryDelaysMs } } : {}),
    // Company-payment executions notify the same receiver, so the webhook log shows them too.
    companyWebhook: {
      url: `${listener.publicBaseUrl}/api/webhooks/provider`,
      customHeaderName: WEBHOOK_HEADER,
      customHeaderValue: config.webhookSecret,
    },
  });
  const provider = timedProvider(
    createProviderClient({
      baseUrl: `${listener.url}/sandbox/v1`,
      accessKey: config.sandboxKeys.accessKey ?? SANDBOX_ACCESS_KEY,
      secret: config.sandboxKeys.secret ?? SANDBOX_SECRET,
      ...(tuning?.providerTimeoutMs ? { timeoutMs: tuning.providerTimeoutMs } : {}),
    }),
    metrics.metrics,
  );
  const demo = openDemoStore(join(config.dataDir, 'demo.sqlite'));
  const orders = options.orders ?? demoOrders(demo);
  const ordersToken = config.orders?.token ?? keptSecret(config.dataDir, 'orders-token');
  // The shop is the merchant's backend too: without MERCHANT_WEBHOOK_URL, the product's signed webhooks come to its
  // own receiver (demo/routes/merchant-webhooks.ts), on the loopback address, with a secret kept in DATA_DIR.
  const { own, ...merchantWebhook } = merchantEndpoint(config, listener.url);
  const product = createProduct({
    // The demo's users sign in with a password alone unless MFA_REQUIRED says otherwise: a demo is tried, not guarded.
    config: { ...config, merchantWebhook, mfaRequired: config.mfaRequired ?? 'off' },
    listener,
    provider,
    orders,
    store,
    hub,
    clock,
    log,
    tuning,
    onWebhook: (receipt) => demo.logWebhook(receipt),
    // On the emulator a receiver may be on this machine (the shop's own is): http and https to loopback too.
    endpointAddresses: options.endpointAddresses ?? { loopback: true },
    metrics,
  });
  await sealAtStart(store, product.sealer, log);
  // The console's users of the demo: added at the first start, their passwords in DATA_DIR/demo-users.txt.
  const demoUsers = await ensureDemoUsers({ store, clock, dataDir: config.dataDir, consoleUrl: `${listener.publicBaseUrl}/admin` });

  const app = new Hono();
  // Security headers on every answer (nosniff, referrer, framing), and the strict policy on every page.
  app.use(securityHeaders({ pageCsp: demoPagePolicy(), https: listener.publicBaseUrl.startsWith('https:') }));
  product.mount(app, { provider: 'sandbox' });
  // Anyone who reaches a demo can drive its sandbox; a page on another site must not, through a visitor's browser:
  // requests must name the demo's own host, and writes are taken from its own pages only (and from scripts, which
  // send no Origin). Its own: the public address and the listening one (the BFF calls the emulator there).
  const allowedOrigins = defaultAllowedOrigins(listener.publicBaseUrl);
  const ownWrites = sameOriginWrites([...new Set([...allowedOrigins, ...defaultAllowedOrigins(listener.url)])]);
  app.use('/sandbox/*', ownWrites);
  app.route('/sandbox', sandbox.app);
  // The demo API's bodies get the BFF's deadline (BODY_TIMEOUT_MS, then 408 body_timeout in its envelope).
  app.use('/demo/api/*', ownWrites, bodyDeadline(config.limits.bodyTimeoutMs, { maxBytes: DEMO_JSON_MAX_BYTES }));
  app.route('/demo/api', merchantWebhookRoutes({ demo, secrets: merchantWebhook.secrets, clock }));
  app.route('/demo/api', demoApi({ store, demo, orders, ordersToken, provider, clock }));
  // The sandbox portal's way to the emulator's admin routes: the console's session (operator, owner) or ADMIN_TOKEN.
  app.route(
    '/demo/api',
    sandboxAdminProxy({ adminToken: config.adminToken, store, clock, allowedOrigins, sandbox, trustProxy: config.limits.trustProxy }),
  );
  // The back office's page moved into the product: the console at /admin.
  app.on(['GET', 'HEAD'], '/backoffice.html', (c) => c.redirect('/admin', 301));
  // The demo pages' built scripts (shop, checkout, sandbox panel, sandbox portal) under dist/demo/assets, and the
  // pages themselves, compressed (demo/static-files.ts); the checkout page written with its order (demo/checkout-page.ts).
  const assets = here('../dist/demo');
  // Files answer GET and HEAD only: any other method falls through to the 404 envelope (an OPTIONS once got the
  // file's length and no body, and hung until the idle timeout).
  if (existsSync(assets)) app.on(['GET', 'HEAD'], '/assets/*', staticFiles({ root: assets }));
  else log.warn("dist/demo is missing: run `npm run build` to serve the demo pages' scripts.");
  app.on(
    ['GET', 'HEAD'],
    '/checkout.html',
    checkoutPage({ publicDir: here('public'), assetsDir: join(assets, 'assets'), widgetDir: here('../dist/widget'), demo }),
  );
  app.on(['GET', 'HEAD'], '/*', staticFiles({ root: here('public') }));
  app.notFound((c) => c.json(errorBody('NotFound', 'not_found', 'No such route.'), 404));
  // The demo's routes answer in the BFF's envelope too: a refusal thrown by any of them (the body deadline's 408 among
  // them) as itself, anything else as a 500 envelope, never Hono's plain-text 500.
  app.onError(errorAnswers(log, 'demo'));
  listener.handle(app, product.nodeRoutes);
  if (!options.manualReconcile) product.checkout.reconciler.start();
  product.deliveries.start();

  return {
    ...listener,
    app,
    store,
    hub,
    provider,
    sandbox,
    demo,
    /** Bearer token of the demo's order contract route (`/demo/api/priced-orders`). */
    ordersToken,
    /** Where the product's signed webhooks go: the demo's own receiver (`own`) unless MERCHANT_WEBHOOK_URL is set. */
    merchantWebhook: { url: merchantWebhook.url, own },
    /** The demo's console users: the file with their passwords (undefined when the store had other users). */
    demoUsers,
    checkout: product.checkout,
    deliveries: product.deliveries,
    async close() {
      product.checkout.reconciler.stop();
      await product.deliveries.stop();
      await listener.close();
      sandbox.close();
      await hub.close();
      await store.close();
      demo.close();
    },
  };
}

export type RunningDemo = Awaited<ReturnType<typeof startDemo>>;
