/**
 * The sandbox emulator of the provider's partner API: stateful, persisted in SQLite, with real webhooks, BR Codes
 * and a simulated bank page. Mount `app` at `/sandbox`; the partner API is then at `/sandbox/v1/partners-int`.
 */
import { randomBytes } from 'node:crypto';
import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { systemClock, type Clock } from '../lib/clock';
import { sendVia } from '../lib/http-client';
import {
  clientLeft,
  clientLeftAnswer,
  hasBody,
  nodeIncoming,
  preloadText,
  readableIncoming,
  readIncoming,
  streamWithDeadline,
  type BodyDeadline,
} from '../lib/node-body';
import { checkpointInBackground } from '../lib/wal-checkpointer';
import { parseCents } from '../../core/money';
import { webhookConfig, type WebhookConfig } from '../provider/schemas';
import { createAccessKeys } from './access-keys';
import { createAddresses } from './addresses';
import { createTokenIssuer, newSigningKey } from './auth';
import { billingCalculator } from './billing';
import { checkWebhook } from './checks';
import { createCompanyPayments } from './company';
import { companyAdminRoutes } from './company/routes/admin';
import { cashOutControlRoutes } from './routes/cashout-controls';
import { uploadRoutes } from './company/routes/uploads';
import type { SandboxContext } from './context';
import { openDatabase, setting } from './db';
import * as defaults from './defaults';
import { EmulatorError, notFound } from './errors';
import { createLifecycle } from './lifecycle';
import { availableMicros } from './routes/balance';
import { bankPageRoutes } from './routes/bank-page';
import { partnerApi } from './routes/partner-api';
import { createWebhookSigning, portalRoutes } from './routes/portal';
import { systemRoutes } from './routes/system';
import { guardAddress } from './request';
import { createTransactionStore, type TransactionStore } from './store';
import { createWebhookDispatcher } from './webhooks';

export interface SandboxOptions {
  /** Folder of `sandbox.sqlite` (created if missing); `':memory:'` for a throw-away database. Default `data`. */
  dataDir?: string;
  clock?: Clock;
  /** Address the emulator is reachable at from browsers and payer apps, such as http://127.0.0.1:3000. */
  publicBaseUrl: string;
  accessKey?: string;
  secret?: string;
  /** Background webhook retries after a failed delivery (jitter makes each 50–100 % of the value). */
  webhookRetry?: { delaysMs: number[] };
  /** A webhook receiver slower than this fails the delivery. Default 5 s. */
  webhookTimeoutMs?: number;
  /** Delay before a new cash-out moves from Created to Registered. Default 1 s. */
  registerDelayMs?: number;
  billing?: defaults.BillingPlan;
  /** What the account holds before any transaction, such as "100000.00". */
  openingBalance?: string;
  /** Delivers the webhooks instead of Node's `http` (tests that make a receiver fail). */
  fetch?: typeof fetch;
  /** Where the transactions of approved company payments send their webhooks (the admin route can change it). */
  companyWebhook?: WebhookConfig;
  /** Delays of an approved company payment: Created → Registered, then Registered → Completed. Default 1 s, 2 s. */
  companyPaymentDelaysMs?: { register?: number; complete?: number };
  /**
   * The portal's webhook signing key: every delivery then carries `X-Webhook-Signature` (the provider's public docs).
   * `PUT /admin/webhook-signing-key` replaces it and `DELETE` turns signing off (kept in the database). At least
   * MIN_WEBHOOK_SIGNING_KEY_LENGTH characters.
   */
  webhookSigningKey?: string;
  /**
   * The key every admin route (`/admin/...`) requires in the `x-sandbox-admin-key` header, at least
   * MIN_ADMIN_KEY_LENGTH characters. Without it a random key is made for this instance (read it from `Sandbox.adminKey`).
   */
  adminKey?: string;
  /**
   * A request's body must arrive within this, or the request gets 408 `RequestTimeoutError` and its connection is
   * closed (the BFF's `BODY_TIMEOUT_MS`, which the demo passes). Without it only Node's request timeout bounds a body.
   */
  bodyTimeoutMs?: number;
}

export interface Sandbox {
  app: Hono;
  store: TransactionStore;
  /** The key of the admin routes: the `adminKey` option, or the one generated for this instance. */
  readonly adminKey: string;
  /** Stops timers and retries and closes the database. */
  close(): void;
}

const namedError = (status: ContentfulStatusCode, name: string, message: string) =>
  new EmulatorError(status, { name, message, code: name, details: { reason: name } });

export function createSandbox(options: SandboxOptions): Sandbox {
  const clock = options.clock ?? systemClock;
  const adminKey = options.adminKey ?? randomBytes(32).toString('base64url');
  if (adminKey.length < defaults.MIN_ADMIN_KEY_LENGTH)
    throw new Error(`adminKey must be at least ${defaults.MIN_ADMIN_KEY_LENGTH} characters`);
  const openingBalanceCents = parseCents(options.openingBalance ?? defaults.DEFAULT_OPENING_BALANCE);
  if (openingBalanceCents === undefined)
    throw new Error('openingBalance must be a non-negative decimal string with at most 2 decimals and a safe count of cents');
  if (options.companyWebhook) {
    try {
      webhookConfig.parse(options.companyWebhook);
      checkWebhook(options.companyWebhook);
    } catch {
      throw new Error('companyWebhook must have an absolute http(s) url and, if any, a sendable custom header');
    }
  }
  const addresses = createAddresses(options.publicBaseUrl);
  const chargesOf = billingCalculator(options.billing ?? defaults.DEFAULT_BILLING);
  const db = openDatabase(options.dataDir ?? 'data');
  const releaseCheckpoints = checkpointInBackground(db);
  const store = createTransactionStore(db);
  const signingKey = setting(db, 'token-signing-key', newSigningKey);
  const accessKeys = createAccessKeys({
    db,
    clock,
    macKey: signingKey,
    accessKey: options.accessKey ?? defaults.SANDBOX_ACCESS_KEY,
    secret: options.secret ?? defaults.SANDBOX_SECRET,
  });
  const tokens = createTokenIssuer({ signingKey, clock, keys: accessKeys });
  if (options.webhookSigningKey !== undefined && options.webhookSigningKey.length < defaults.MIN_WEBHOOK_SIGNING_KEY_LENGTH)
    throw new Error(`webhookSigningKey must be at least ${defaults.MIN_WEBHOOK_SIGNING_KEY_LENGTH} characters`);
  const webhookSigning = createWebhookSigning(db, options.webhookSigningKey);
  const webhooks = createWebhookDispatcher({
    store,
    clock,
    send: sendVia(options.fetch),
    timeoutMs: options.webhookTimeoutMs ?? defaults.DEFAULT_WEBHOOK_TIMEOUT_MS,
    delaysMs: options.webhookRetry?.delaysMs ?? defaults.DEFAULT_RETRY_DELAYS_MS,
    signingKey: webhookSigning.get,
  });
  const lifecycle = createLifecycle({
    store,
    clock,
    webhooks,
    addresses,
    chargesOf,
    registerDelayMs: options.registerDelayMs ?? defaults.DEFAULT_REGISTER_DELAY_MS,
  });
  const company = createCompanyPayments({
    db,
    publicBaseUrl: options.publicBaseUrl,
    clock,
    transactions: store,
    lifecycle,
    webhooks,
    chargesOf,
    availableMicros: () => availableMicros(ctx),
    webhook: options.companyWebhook,
    registerDelayMs: options.companyPaymentDelaysMs?.register ?? defaults.DEFAULT_COMPANY_REGISTER_DELAY_MS,
    completeDelayMs: options.companyPaymentDelaysMs?.complete ?? defaults.DEFAULT_COMPANY_COMPLETE_DELAY_MS,
    adminKey,
  });
  const ctx: SandboxContext = { store, clock, tokens, lifecycle, addresses, chargesOf, openingBalanceCents, webhooks, company };
  const portal = { accessKeys, webhookSigning, adminKey };

  const app = new Hono();
  app.use('*', guardAddress);
  // Before the JSON body limit: Hono runs handlers in registration order and the upload answers first, under its own limit.
  app.route('/v1/uploads', uploadRoutes(ctx, { idleMs: options.bodyTimeoutMs }));
  const tooLarge = () => namedError(413, 'PayloadTooLargeError', `The request body is larger than ${defaults.MAX_BODY_BYTES} bytes`);
  const limitBody = bodyLimit({
    maxSize: defaults.MAX_BODY_BYTES,
    onError: () => {
      throw tooLarge();
    },
  });
  // A body of a declared length within the limit is read straight from Node's request (no Web stream); a chunked
  // body, or one under `app.request`, goes through Hono's limit, which counts it as it comes. With `bodyTimeoutMs`
  // either must be in by then: past it the read fails with 408 and the connection is closed after the answer.
  const readBody: MiddlewareHandler = async (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || (nodeIncoming(c) && !hasBody(c))) return next();
    if (Number(c.req.header('content-length')) > defaults.MAX_BODY_BYTES) throw tooLarge();
    let expired = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline: BodyDeadline | undefined =
      options.bodyTimeoutMs === undefined
        ? undefined
        : {
            ms: options.bodyTimeoutMs,
            onTimeout: () => {
              expired = true;
              return namedError(408, 'RequestTimeoutError', 'The request body did not arrive in time');
            },
            setTimer: (t) => (timer = t),
          };
    const incoming = readableIncoming(c, defaults.MAX_BODY_BYTES);
    try {
      if (incoming) {
        preloadText(c, readIncoming(incoming, deadline));
        await next();
      } else {
        if (deadline) streamWithDeadline(c, deadline);
        await limitBody(c, next);
      }
    } catch (error) {
      // Hono's limit reads a streamed body itself, so its deadline error comes out here rather than from a route.
      if (!(expired && error instanceof EmulatorError)) throw error;
      c.res = c.json(error.envelope(), error.status);
    } finally {
      clearTimeout(timer);
    }
    // The rest of the body may still be on its way: don't keep the connection for it.
    if (expired) c.res.headers.set('connection', 'close');
  };
  app.use('*', readBody);
  app.route('/v1/partners-int', partnerApi(ctx));
  app.route('/v1/system/checkout', bankPageRoutes(ctx));
  app.route('/v1', systemRoutes(ctx));
  app.route('/admin', companyAdminRoutes(ctx));
  app.route('/admin/cashouts', cashOutControlRoutes(ctx));
  // After the company admin routes, whose `/admin/*` admin-key check then guards these too.
  app.route('/admin', portalRoutes(portal));
  app.notFound(() => {
    throw notFound('No operation at this address');
  });
  app.onError((error, c) => {
    if (error instanceof EmulatorError) return c.json(error.envelope(), error.status);
    // A client that left mid-body (the BFF giving up an upload, say): nothing went wrong here, nobody reads an answer.
    if (clientLeft(c, error)) return clientLeftAnswer(c);
    // Hono's own refusals (for example a malformed form body) keep their 4xx status in our envelope.
    if (error instanceof HTTPException && error.status < 500)
      return c.json(namedError(error.status, 'InvalidRequestError', 'The request could not be read').envelope(), error.status);
    console.error('sandbox: unexpected error on', c.req.method, c.req.path, error);
    return c.json(namedError(500, 'InternalServerError', 'Unexpected error in the sandbox').envelope(), 500);
  });

  lifecycle.resume();
  company.resume();
  return {
    app,
    store,
    adminKey,
    close() {
      lifecycle.close();
      company.close();
      webhooks.close();
      db.close();
      releaseCheckpoints();
    },
  };
}

export { IN_MEMORY } from './db';
export { decodeBrCode, encodeBrCode, crc16 } from './brcode';
export { MOUNT_PATH } from './addresses';
export { ADMIN_KEY_HEADER } from './company/routes/admin';
export {
  DEFAULT_BILLING,
  DEFAULT_OPENING_BALANCE,
  MAGIC_CPFS,
  SANDBOX_ACCESS_KEY,
  SANDBOX_PAYER,
  SANDBOX_SECRET,
  TOKEN_TTL_SECONDS,
} from './defaults';
