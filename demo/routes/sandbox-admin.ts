/**
 * The demo's way to the emulator's admin routes (the provider's portal stand-in), `/demo/api/sandbox-admin/*`, used by
 * the sandbox portal page (demo/pages/sandbox-portal.ts): review receivers and accounts, approve or reject payment
 * requests, complete or fail cash-outs. Only paths below the emulator's `/sandbox/admin` are reached, and the browser
 * never holds the emulator's admin key: it is added here.
 *
 * Opened by the bearer ADMIN_TOKEN (scripts, tests; an owner) or by the console's session cookie, looked up as the
 * product itself does (server/accounts/sessions.ts): a viewer may drive nothing, an operator only the portal's job and
 * an owner the rest too (./portal-rules.ts: the provider's access keys, the signing key, the company webhook). A
 * cookie-borne write must also carry the page's own `Origin`, as the back office asks; refusals are the back office's
 * envelopes (`admin_unauthorized` 401, `admin_forbidden` 403, `cross_site_write` 403).
 *
 * Every write is in the product's audit trail as the console user (or `api-token`) who made it, done, refused or
 * failed, a write refused for the role as `access.denied`. Approving a payment request moves money, so it goes the
 * product's way: only a request the back office asked for (and, above APPROVAL_ABOVE, an owner approved there) is
 * approved here; any other is refused (409 `payment_request_not_ours`).
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { getCookie } from 'hono/cookie';
import { formatCents } from '../../core/money';
import { auditRecorder } from '../../server/accounts/audit';
import { adminForbidden, adminUnauthorized, crossSiteWrite } from '../../server/accounts/errors';
import { createSessions } from '../../server/accounts/sessions';
import { hasRole, type Actor, type BackOfficeEnv } from '../../server/backoffice/actor';
import { originAllowed, SESSION_COOKIE } from '../../server/backoffice/auth';
import { auditedMovement } from '../../server/backoffice/movement-audit';
import { requestClient } from '../../server/http/client-address';
import { sendError } from '../../server/http/error-envelope';
import type { Clock } from '../../server/lib/clock';
import { safeEqual } from '../../server/lib/secrets';
import { ApiError, methodNotAllowed, paymentRequestNotOurs } from '../../server/payments/errors';
import { errorBody } from '../../server/http/error-envelope';
import { ADMIN_KEY_HEADER, type Sandbox } from '../../server/sandbox';
import type { AuditStore, SessionStore } from '../../server/store/accounts';
import type { CompanyPaymentStore } from '../../server/store/company-payments';
import { portalRoute, type PortalRoute } from '../portal-rules';

/** Largest body the portal sends to the emulator's admin routes (the emulator takes up to 64 KiB of JSON). */
const SANDBOX_ADMIN_MAX_BODY = 64 * 1024;

/** What the emulator's admin routes take, so what the proxy forwards (fetch's Request refuses TRACE and the like). */
const PROXIED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'];

const READS = ['GET', 'HEAD'];

export interface SandboxAdminOptions {
  /** The bearer token of the back office (ADMIN_TOKEN, or the one kept in DATA_DIR). */
  adminToken: string;
  /** The product's store: the console's sessions and users, its payment requests and its audit trail. */
  store: SessionStore & AuditStore & CompanyPaymentStore;
  clock: Clock;
  /** The origins a cookie-borne write may come from: the demo's own (its public address and loopback spellings). */
  allowedOrigins: readonly string[];
  /** The embedded emulator: its admin routes are reached in process, with its admin key added here. */
  sandbox: Pick<Sandbox, 'app' | 'adminKey'>;
  /** How many proxies in front add X-Forwarded-For (the BFF's `trustProxy`): the audit's address. */
  trustProxy?: number;
}

/** The URL the request is forwarded to, below the emulator's `/admin`; a 404 for anything that climbs out of it. */
function targetOf(c: Context) {
  const url = new URL(c.req.url);
  const rest = /\/sandbox-admin(\/.*)?$/.exec(url.pathname)?.[1] ?? '';
  const target = new URL(`/admin${rest}${url.search}`, 'http://sandbox.invalid');
  if (target.pathname !== '/admin' && !target.pathname.startsWith('/admin/')) throw new ApiError('not_found', 'No such route.');
  return target;
}

/** The route's rule, read from the path as the emulator routes it (percent-escapes decoded, `/` kept). */
function ruleOf(method: string, target: URL): PortalRoute {
  const below = target.pathname.slice('/admin'.length);
  let path: string;
  try {
    path = decodeURI(below);
  } catch {
    path = below;
  }
  return portalRoute(method, path);
}

/** Who calls: the bearer admin token, or the session of a console user; refuses anyone else. */
async function actorOf(
  c: Context,
  { adminToken, allowedOrigins }: SandboxAdminOptions,
  sessions: ReturnType<typeof createSessions>,
  ip: string,
) {
  const header = c.req.header('authorization');
  if (header !== undefined) {
    // A wrong token is refused, never tried as a cookie (as the back office does).
    if (!safeEqual(header.startsWith('Bearer ') ? header.slice(7) : undefined, adminToken)) throw adminUnauthorized();
    return { kind: 'token', id: 'api-token', name: 'api-token', role: 'owner', ip } satisfies Actor;
  }
  const live = await sessions.resolve(getCookie(c, SESSION_COOKIE));
  if (!live) throw adminUnauthorized();
  if (!READS.includes(c.req.method) && !originAllowed(c.req.header('origin'), allowedOrigins)) throw crossSiteWrite();
  const { user } = live;
  return { kind: 'user', id: user.id, name: user.email, role: user.role, ip } satisfies Actor;
}

/** Sets the actor and its audit recorder, then lets through only the roles the route's rule allows. */
function portalAccess(options: SandboxAdminOptions): MiddlewareHandler<BackOfficeEnv> {
  const { store, clock, trustProxy = 0 } = options;
  const sessions = createSessions({ store, clock });
  return async (c, next) => {
    const actor = await actorOf(c, options, sessions, requestClient(c, trustProxy));
    c.set('actor', actor);
    c.set('audit', auditRecorder({ store, clock, who: { actor: actor.name, role: actor.role, ip: actor.ip } }));
    // A viewer drives nothing, reads included.
    const target = targetOf(c);
    const needed = hasRole(actor.role, 'operator') ? ruleOf(c.req.method, target).role : 'operator';
    if (!hasRole(actor.role, needed)) {
      if (!READS.includes(c.req.method)) {
        const details = { code: 'admin_forbidden', needed, method: c.req.method };
        await c.get('audit')({ action: 'access.denied', target: `/sandbox${target.pathname}`, outcome: 'refused', details });
      }
      throw adminForbidden(needed);
    }
    await next();
  };
}

/** The emulator's refusal code of an answer (its reason, else its name), for the audit line. */
async function refusalOf(answer: Response): Promise<string | null> {
  const body = (await answer
    .clone()
    .json()
    .catch(() => null)) as { error?: { name?: string; details?: { reason?: unknown } } } | null;
  const reason = body?.error?.details?.reason;
  return typeof reason === 'string' ? reason : (body?.error?.name ?? null);
}

/** Forwards the request below `/admin` of the emulator, with its admin key, and answers what it answers (not cached). */
async function forward(c: Context, sandbox: SandboxAdminOptions['sandbox'], target: URL) {
  const method = c.req.method;
  const headers: Record<string, string> = { [ADMIN_KEY_HEADER]: sandbox.adminKey };
  for (const name of ['content-type', 'accept']) {
    const value = c.req.header(name);
    if (value !== undefined) headers[name] = value;
  }
  const body = READS.includes(method) ? undefined : await c.req.arrayBuffer();
  const answer = await sandbox.app.request(target.pathname + target.search, { method, headers, body });
  const forwarded = new Headers(answer.headers);
  forwarded.set('cache-control', 'no-store');
  return new Response(answer.body, { status: answer.status, headers: forwarded });
}

/** The audit details of a payment request the portal is asked to approve: the product's own, or a refusal. */
async function approvalDetails(store: CompanyPaymentStore, requestId: string) {
  const ours = await store.findCompanyPaymentByRequest(requestId);
  if (!ours) throw paymentRequestNotOurs();
  return {
    idempotencyKey: ours.idempotencyKey,
    amount: formatCents(ours.amountCents),
    requestedBy: ours.requestedBy,
    decidedBy: ours.decidedBy,
  };
}

/** The proxy's routes; mount at `/demo/api`, after the demo's same-origin write guard and body deadline. */
export function sandboxAdminProxy(options: SandboxAdminOptions) {
  const { store, sandbox } = options;
  return new Hono<BackOfficeEnv>()
    .onError((error, c) => {
      if (error instanceof ApiError) return sendError(c, error);
      throw error;
    })
    .all(
      '/sandbox-admin/*',
      portalAccess(options),
      async (c, next) => {
        if (PROXIED_METHODS.includes(c.req.method)) return next();
        c.header('allow', PROXIED_METHODS.join(', '));
        return sendError(c, methodNotAllowed());
      },
      bodyLimit({
        maxSize: SANDBOX_ADMIN_MAX_BODY,
        onError: (c) => c.json(errorBody('PayloadTooLarge', 'payload_too_large', 'The request body is too large.'), 413),
      }),
      async (c) => {
        const target = targetOf(c);
        if (READS.includes(c.req.method)) return forward(c, sandbox, target);
        const rule = ruleOf(c.req.method, target);
        const details = { method: c.req.method, ...(rule.action === 'portal.other' && { path: target.pathname }) };
        return auditedMovement(
          c,
          { action: rule.action, target: rule.target, details },
          async () => {
            const approval = rule.approves === undefined ? {} : await approvalDetails(store, rule.approves);
            const answer = await forward(c, sandbox, target);
            return { answer, approval, code: answer.status >= 400 ? await refusalOf(answer) : null };
          },
          ({ answer, approval, code }) => ({
            outcome: answer.status < 400 ? 'ok' : answer.status < 500 ? 'refused' : 'failed',
            details: { ...approval, status: answer.status, ...(code !== null && { code }) },
          }),
        ).then(({ answer }) => answer);
      },
    );
}
