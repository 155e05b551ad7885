/**
 * Who is calling the back office, and what each role may do. The authentication middleware of `index.ts` sets the
 * actor and the audit recorder on every request (`c.get('actor')`, `c.get('audit')`); route modules built as
 * `new Hono<BackOfficeEnv>()` read them.
 *
 * Roles (core/backoffice/roles.ts), each with the rights of the one before: `viewer` reads and exports; `operator`
 * also moves money (refunds, cash-outs, payment requests, receivers); `owner` also manages users, webhook endpoints and
 * approvals and API keys. The bearer `ADMIN_TOKEN` is an owner, recorded as `api-token`; a named API key has its own
 * role, recorded as `key:<name>`. Neither is ever the second person of a movement: a token approves none
 * (server/payments/approvals.ts).
 */
import type { Context } from 'hono';
import type { Role } from '../../core/backoffice';

/** The roles are the console's too: core/backoffice/roles.ts holds them and `hasRole`. */
export { hasRole, ROLES, type Role } from '../../core/backoffice';

export interface Actor {
  /** A signed-in user (session cookie), or a bearer token (the ADMIN_TOKEN or a named API key: a script, no person). */
  kind: 'user' | 'token';
  /** The user's id, `api-token`, or the key's id (`key_…`). */
  id: string;
  /** The user's e-mail; `api-token` for the ADMIN_TOKEN; `key:<name>` for a named key. What the audit trail shows as who. */
  name: string;
  role: Role;
  /** The caller's address, as the BFF's rate limits see it. */
  ip: string;
  /** When a user's session ends at the latest (12 h after sign-in); absent for the token. */
  sessionExpiresAt?: string;
  /** The user's session (its token's stored hash), so what it opens ends with it; absent for the token. */
  session?: string;
}

/** One line of the audit trail, as a route records it; who, when and from where are added by the recorder. */
export interface AuditRecord {
  /** What was done, dotted: `refund.create`, `cashout.create`, `approval.approve`, `user.add`, `session.sign_in`… */
  action: string;
  /** What it was done to: a checkout id, an idempotency key, an e-mail, an endpoint id; null when nothing. */
  target: string | null;
  /** `ok`, `pending_approval`, `refused` (a 4xx of ours), `failed` (the provider or the store failed). */
  outcome: 'ok' | 'pending_approval' | 'refused' | 'failed';
  /** A few facts worth keeping (an amount, a role, an error code); never a secret or a password. */
  details?: Record<string, unknown>;
}

export type AuditRecorder = (record: AuditRecord) => Promise<void>;

export interface BackOfficeEnv {
  Variables: { actor: Actor; audit: AuditRecorder };
}

export const actorOf = (c: Context<BackOfficeEnv>) => c.get('actor');

/**
 * The least role each route needs: reads (GET, HEAD) need `viewer`; writes need `operator`, except under the paths
 * listed here, which need `owner`. Checked on the server for every route by the middleware of `index.ts`.
 */
const OWNER_WRITES = [/^\/users(\/|$)/, /^\/webhook-endpoints(\/|$)/, /^\/approvals(\/|$)/, /^\/api-keys(\/|$)/];
/** Reads that only an owner may make: the users and the API keys. (The audit trail is read by every role.) */
const OWNER_READS = [/^\/users(\/|$)/, /^\/api-keys(\/|$)/];
/**
 * Writes any signed-in role may make: signing out, proving the second factor again, and a user's own account
 * (`/me/…`: their sessions, their password, their second factor). (Signing in, `POST /session`, is answered before
 * any role exists.)
 */
const ANY_WRITES = [/^\/session$/, /^\/session\/step-up(\/|$)/, /^\/me(\/|$)/];

export function roleFor(method: string, path: string): Role {
  const read = method === 'GET' || method === 'HEAD';
  if (read) return OWNER_READS.some((r) => r.test(path)) ? 'owner' : 'viewer';
  if (ANY_WRITES.some((r) => r.test(path))) return 'viewer';
  return OWNER_WRITES.some((r) => r.test(path)) ? 'owner' : 'operator';
}
