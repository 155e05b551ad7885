/**
 * The merchant's back-office API, mounted under `/api/admin` by server/server.ts on the BFF's app (so it meets the
 * same security headers, address guard and error envelope), behind the JSON body guards of server/http/ like the
 * shoppers' routes; the invoice upload, whose body is a streamed PDF, answers ahead of them. It is opened by the bearer admin token or by
 * a console user's session cookie (auth.ts: SameSite=Strict, and a cookie-borne write must come from the console's
 * own Origin), never by CORS, so a storefront page can never reach it. The sign-in (session.ts) is the one route open
 * without them. Each route's least role is checked here (actor.ts). This module assembles the resources, one module
 * each: the console's session, users, API keys and audit trail (session.ts, users.ts, api-keys.ts, audit.ts), the account (account.ts), the
 * payments received (checkouts.ts, checkouts-export.ts, refunds.ts), the approvals of cash-outs, refunds and payment
 * requests (approvals.ts), the transactions of our orders not provably ours (foreign.ts), the merchant's events
 * (webhook-events.ts) and webhook endpoints (webhook-endpoints.ts), payment links (payment-links.ts), cash-outs (cashouts.ts), receivers (receivers.ts),
 * payment requests and their invoices (payment-requests.ts, invoices.ts), and the live updates (events.ts, stream.ts).
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { jsonBodyGuards } from '../http/body-guards';
import type { Clock } from '../lib/clock';
import type { Sealer } from '../lib/sealer';
import type { ProviderClient } from '../provider';
import type { AccountStore } from '../store/accounts';
import type { SessionListStore } from '../store/session-list';
import type { SignInBrakeStore } from '../store/sign-in-brakes';
import type { ApiKeyStore } from '../store/api-keys';
import type { BackOfficeStore } from '../store/back-office';
import type { CheckoutReadStore, MerchantEventStore } from '../store/checkout-store';
import type { CompanyPaymentStore } from '../store/company-payments';
import type { DeliveryLogStore, EndpointStore } from '../store/endpoints';
import type { StatusHub } from '../store/types';
import { createApprovals } from '../payments/approvals';
import { createCashOutDesk, DEFAULT_APPROVAL_ABOVE_CENTS } from '../payments/cashouts';
import { createCompanyPaymentDesk } from '../payments/company-payments';
import { createRefunds } from '../payments/refunds';
import { adminForbidden } from '../accounts/errors';
import { createOwnPassword } from '../accounts/own-password';
import { createSessionList } from '../accounts/session-list';
import { createSessions } from '../accounts/sessions';
import { createSignIn } from '../accounts/sign-in';
import { createMfa, DEFAULT_MFA_POLICY, type MfaPolicy } from '../accounts/mfa';
import { createPasskeys } from '../accounts/passkeys';
import type { MfaStore } from '../store/mfa';
import { mfaGate, stepUpGuard } from './mfa-guards';
import { mfaRoutes } from './routes/mfa';
import { secondStepRoutes } from './routes/mfa-sign-in';
import type { WebhookTarget } from '../payments/service';
import { accountRoutes } from './routes/account';
import { apiKeyRoutes } from './routes/api-keys';
import { payerRoutes } from './routes/payer';
import { approvalRoutes } from './routes/approvals';
import { hasRole, roleFor, type BackOfficeEnv } from './actor';
import { auditRoutes } from './routes/audit';
import { authenticate } from './auth';
import { cashOutRoutes } from './routes/cashouts';
import { checkoutExportRoutes } from './routes/checkouts-export';
import { checkoutRoutes } from './routes/checkouts';
import { viewsWithRefunds } from './checkout-view';
import { eventRoutes } from './routes/events';
import { foreignTransactionRoutes } from './routes/foreign';
import { webhookEndpointRoutes, type WebhookWiring } from './routes/webhook-endpoints';
import { webhookEventRoutes } from './routes/webhook-events';
import { invoiceRoutes, invoiceUploadRoutes } from './routes/invoices';
import { paymentLinkRoutes, type PaymentLinkWiring } from './routes/payment-links';
import { paymentRequestRoutes } from './routes/payment-requests';
import { receiverRoutes } from './routes/receivers';
import { refundRoutes } from './routes/refunds';
import { myAccountRoutes } from './routes/my-account';
import { sessionRoutes, signInRoutes } from './routes/session';
import { createBackOfficeStreams } from './stream';
import { userRoutes } from './routes/users';

/**
 * The ports the back office's resources use: the checkouts read, the back office's part (lists, cash-outs, refunds,
 * foreign transactions), payment requests to companies, the console's accounts, the merchant's feed and its endpoints.
 */
export type BackOfficeApiStore = CheckoutReadStore &
  BackOfficeStore &
  CompanyPaymentStore &
  AccountStore &
  SignInBrakeStore &
  SessionListStore &
  ApiKeyStore &
  MerchantEventStore &
  EndpointStore &
  DeliveryLogStore &
  MfaStore;

export interface BackOfficeOptions {
  provider: ProviderClient;
  adminToken: string;
  clock: Clock;
  /** Where the provider sends the webhooks of cash-outs (the BFF's receiver). */
  webhook: WebhookTarget;
  store: BackOfficeApiStore;
  hub: StatusHub;
  /** The delivery worker's endpoints of the environment, and its wake-up after a change of the stored ones. */
  webhooks: WebhookWiring;
  /** Seals the secrets the back office stores (endpoint secrets, TOTP seeds), opens them where they are used (server/lib/sealer.ts). */
  sealer: Sealer;
  /** Cash-outs, refunds and payment requests of more cents than this wait for an owner's approval; 0: all do (APPROVAL_ABOVE; default R$ 1000). */
  approvalAboveCents?: number;
  /** A JSON body must arrive within this (`BODY_TIMEOUT_MS`, as for the shoppers' routes). Default 10 s. */
  bodyTimeoutMs?: number;
  /** How many proxies in front of the BFF add X-Forwarded-For (the BFF's `trustProxy`); the audit's address. */
  trustProxy?: number;
  /** Mark the session cookie `Secure`: the console is served over https (the public base URL is https). */
  secureCookies?: boolean;
  /** The origins a cookie-opened write may come from: the console's own (the public base URL's). None: no such write passes. */
  consoleOrigins?: readonly string[];
  /** What the console's payment links need (the order source, the order tokens' key, the public base URL). */
  paymentLinks?: PaymentLinkWiring;
  /** Whose role must have a second factor (MFA_REQUIRED); default `operator` (operators and owners). */
  mfaRequired?: MfaPolicy;
  /** Where a failure to record in the audit trail is told. */
  log?: { error(...args: unknown[]): void };
  /** Tuning of the live stream and of a repeated cash-out key (tests). */
  tuning?: { cashOutWaitMs?: number; cashOutStaleMs?: number; followMs?: number; heartbeatMs?: number };
}

/** Every route's least role (./actor.ts), checked for all of them; a write refused for the role is kept in the audit trail. */
const leastRole: MiddlewareHandler<BackOfficeEnv> = async (c, next) => {
  const path = c.req.path.replace(/^.*?\/admin(?=\/|$)/, '');
  const needed = roleFor(c.req.method, path);
  if (!hasRole(c.get('actor').role, needed)) {
    // A read is not audited: it moves nothing.
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const details = { code: 'admin_forbidden', needed, method: c.req.method };
      await c.get('audit')({ action: 'access.denied', target: path, outcome: 'refused', details });
    }
    throw adminForbidden(needed);
  }
  await next();
};

/** The back office's routes, behind the admin token; mount it at `/admin` of the API. */
export function backOfficeApi({
  provider,
  adminToken,
  clock,
  webhook,
  store,
  hub,
  webhooks,
  sealer,
  approvalAboveCents = DEFAULT_APPROVAL_ABOVE_CENTS,
  bodyTimeoutMs = 10_000,
  trustProxy = 0,
  secureCookies = false,
  consoleOrigins = [],
  log = console,
  tuning = {},
  paymentLinks,
  mfaRequired = DEFAULT_MFA_POLICY,
}: BackOfficeOptions) {
  const desk = createCashOutDesk({
    provider,
    store,
    clock,
    webhook,
    approvalAboveCents,
    ...(tuning.cashOutWaitMs !== undefined ? { waitMs: tuning.cashOutWaitMs } : {}),
    ...(tuning.cashOutStaleMs !== undefined ? { staleMs: tuning.cashOutStaleMs } : {}),
  });
  const refunds = createRefunds({ provider, store, desk });
  const companyPayments = createCompanyPaymentDesk({
    provider,
    store,
    clock,
    approvalAboveCents,
    ...(tuning.cashOutWaitMs !== undefined ? { waitMs: tuning.cashOutWaitMs } : {}),
    ...(tuning.cashOutStaleMs !== undefined ? { staleMs: tuning.cashOutStaleMs } : {}),
  });
  const approvals = createApprovals({ store, desk, companyPayments, clock });
  const streams = createBackOfficeStreams({
    hub,
    desk,
    ...(tuning.followMs !== undefined ? { followMs: tuning.followMs } : {}),
    ...(tuning.heartbeatMs !== undefined ? { heartbeatMs: tuning.heartbeatMs } : {}),
  });

  const sessions = createSessions({ store, clock });
  const mfa = createMfa({ store, sealer, clock });
  const passkeys = createPasskeys({ store, clock });
  const signIn = createSignIn({ store, clock, sessions, log, secondFactor: (user) => mfa.methods(user.id) });
  const sessionList = createSessionList({ store, clock });
  const ownPassword = createOwnPassword({ store, clock, sessions, log });
  const allowedOrigins = consoleOrigins;

  const signedIn = authenticate({ adminToken, store, clock, sessions, trustProxy, allowedOrigins, log, secureCookies });
  return (
    new Hono<BackOfficeEnv>()
      .use(async (c, next) => {
        c.header('cache-control', 'no-store');
        await next();
      })
      // Ahead of the JSON body guards, which would refuse its PDF: the invoice upload, signed in and allowed.
      .route('/', invoiceUploadRoutes({ provider, signedIn, allowed: leastRole, idleMs: bodyTimeoutMs }))
      .use(...jsonBodyGuards({ timeoutMs: bodyTimeoutMs }))
      // The sign-in, before the authentication: the one route open without a token or a session.
      .route('/', signInRoutes({ signIn, mfa, trustProxy, secureCookies, allowedOrigins }))
      .route('/', secondStepRoutes({ mfa, passkeys, sessions, store, clock, trustProxy, secureCookies, allowedOrigins, log }))
      .use(signedIn, leastRole, mfaGate({ mfa, policy: mfaRequired }), stepUpGuard({ mfa, approvalAboveCents }))
      .route('/', mfaRoutes({ mfa, passkeys, store, policy: mfaRequired }))
      .route('/', sessionRoutes({ sessions, streams, secureCookies }))
      .route('/', myAccountRoutes({ sessionList, ownPassword, streams, trustProxy, secureCookies }))
      .route('/', userRoutes({ store, clock, streams }))
      .route('/', apiKeyRoutes({ store, clock }))
      .route('/', auditRoutes({ store, clock }))
      .route('/', accountRoutes({ provider, clock }))
      .route('/', cashOutRoutes({ desk }))
      .route('/', eventRoutes({ streams, sessions }))
      // The export before the detail: `/checkouts/export.csv` would otherwise read as the checkout `export.csv`.
      .route('/', checkoutExportRoutes({ store, clock, withRefunds: viewsWithRefunds(store) }))
      .route('/', checkoutRoutes({ provider, store, clock }))
      .route('/', payerRoutes({ provider, store }))
      .route('/', refundRoutes({ store, desk, refunds }))
      .route('/', approvalRoutes({ store, approvals }))
      .route('/', foreignTransactionRoutes({ store }))
      .route('/', webhookEventRoutes({ store, clock, webhooks }))
      .route('/', webhookEndpointRoutes({ store, clock, webhooks, sealer }))
      .route('/', receiverRoutes({ provider }))
      .route('/', paymentRequestRoutes({ provider, store, desk: companyPayments, clock }))
      .route('/', invoiceRoutes({ provider }))
      .route('/', paymentLinkRoutes({ links: paymentLinks, clock }))
  );
}
