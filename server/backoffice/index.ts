/**
 * The merchant's back-office API, mounted under `/api/admin` by server/server.ts on the BFF's app (so it meets the
 * same security headers, body guards, size limits and error envelope). Only a bearer admin token opens it (no
 * cookies, no CORS), so a storefront page can never reach it. This module checks the token and assembles the
 * resources, one module each: the account (account.ts), the payments received (checkouts.ts, checkouts-export.ts,
 * refunds.ts), the transactions of our orders not provably ours (foreign.ts), the merchant's events
 * (webhook-events.ts) and webhook endpoints (webhook-endpoints.ts), cash-outs (cashouts.ts), receivers (receivers.ts),
 * payment requests and their invoices (payment-requests.ts, invoices.ts), and the live updates (events.ts, stream.ts).
 */
import { Hono } from 'hono';
import { BACK_OFFICE_ERRORS } from '../../core/contract';
import type { Clock } from '../lib/clock';
import { safeEqual } from '../lib/secrets';
import { requestClient } from '../bff/guards';
import type { ProviderClient } from '../provider';
import type { StatusHub, Store } from '../store/types';
import { createCashOutDesk } from '../payments/cashouts';
import { errorBody } from '../payments/errors';
import type { WebhookTarget } from '../payments/service';
import { accountRoutes } from './account';
import { hasRole, roleFor, type AdminEnv } from './actor';
import { cashOutRoutes } from './cashouts';
import { checkoutExportRoutes } from './checkouts-export';
import { checkoutRoutes, viewsWithRefunds } from './checkouts';
import { eventRoutes } from './events';
import { foreignTransactionRoutes } from './foreign';
import { webhookEndpointRoutes, type WebhookWiring } from './webhook-endpoints';
import { webhookEventRoutes } from './webhook-events';
import { invoiceRoutes } from './invoices';
import { paymentRequestRoutes } from './payment-requests';
import { receiverRoutes } from './receivers';
import { refundRoutes } from './refunds';
import { createAdminStreams } from './stream';

export { isInvoiceUpload } from './invoices';

export interface BackOfficeOptions {
  provider: ProviderClient;
  adminToken: string;
  clock: Clock;
  /** Where the provider sends the webhooks of cash-outs (the BFF's receiver). */
  webhook: WebhookTarget;
  store: Store;
  hub: StatusHub;
  /** The delivery worker's endpoints of the environment, and its wake-up after a change of the stored ones. */
  webhooks: WebhookWiring;
  /** How many proxies in front of the BFF add X-Forwarded-For (the BFF's `trustProxy`); the audit's address. */
  trustProxy?: number;
  /** Tuning of the live stream and of a repeated cash-out key (tests). */
  tuning?: { cashOutWaitMs?: number; cashOutStaleMs?: number; followMs?: number; heartbeatMs?: number };
}

/** The back office's routes, behind the admin token; mount it at `/admin` of the API. */
export function backOfficeApi({
  provider,
  adminToken,
  clock,
  webhook,
  store,
  hub,
  webhooks,
  trustProxy = 0,
  tuning = {},
}: BackOfficeOptions) {
  const desk = createCashOutDesk({
    provider,
    store,
    clock,
    webhook,
    ...(tuning.cashOutWaitMs !== undefined ? { waitMs: tuning.cashOutWaitMs } : {}),
    ...(tuning.cashOutStaleMs !== undefined ? { staleMs: tuning.cashOutStaleMs } : {}),
  });
  const streams = createAdminStreams({
    hub,
    desk,
    ...(tuning.followMs !== undefined ? { followMs: tuning.followMs } : {}),
    ...(tuning.heartbeatMs !== undefined ? { heartbeatMs: tuning.heartbeatMs } : {}),
  });

  return (
    new Hono<AdminEnv>()
      .use(async (c, next) => {
        c.header('cache-control', 'no-store');
        const header = c.req.header('authorization') ?? '';
        const token = header.startsWith('Bearer ') ? header.slice(7) : undefined;
        if (!safeEqual(token, adminToken)) {
          return c.json(
            errorBody('AuthenticationError', 'admin_unauthorized', 'A valid admin token is required.'),
            BACK_OFFICE_ERRORS.admin_unauthorized,
          );
        }
        c.set('actor', { kind: 'token', id: 'api-token', name: 'api-token', role: 'owner', ip: requestClient(c, trustProxy) });
        c.set('audit', async () => {});
        await next();
      })
      // Every route's least role (./actor.ts), checked here for all of them.
      .use(async (c, next) => {
        const needed = roleFor(c.req.method, c.req.path.replace(/^.*?\/admin(?=\/|$)/, ''));
        if (!hasRole(c.get('actor').role, needed)) {
          return c.json(
            errorBody('PermissionError', 'admin_forbidden', `This needs the ${needed} role.`),
            BACK_OFFICE_ERRORS.admin_forbidden,
          );
        }
        await next();
      })
      .route('/', accountRoutes({ provider, clock }))
      .route('/', cashOutRoutes({ desk }))
      .route('/', eventRoutes({ streams }))
      // The export before the detail: `/checkouts/export.csv` would otherwise read as the checkout `export.csv`.
      .route('/', checkoutExportRoutes({ store, clock, withRefunds: viewsWithRefunds(store) }))
      .route('/', checkoutRoutes({ provider, store, clock }))
      .route('/', refundRoutes({ provider, store, desk }))
      .route('/', foreignTransactionRoutes({ store }))
      .route('/', webhookEventRoutes({ store, clock, webhooks }))
      .route('/', webhookEndpointRoutes({ store, clock, webhooks }))
      .route('/', receiverRoutes({ provider }))
      .route('/', paymentRequestRoutes({ provider, clock }))
      .route('/', invoiceRoutes({ provider }))
  );
}
