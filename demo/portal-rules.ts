/**
 * What each of the emulator's admin routes is to the demo's portal proxy (./sandbox-admin.ts): the least role that
 * may reach it, and the audit action of a write. An operator gets the portal's job only, as the provider's side of
 * what the console does: the overview, receivers and their accounts and reviews, the decision of payment requests,
 * the bank's outcome of cash-outs. Everything else (the provider's access keys, whose loss stops every checkout, the
 * webhook signing key, the company webhook, and any route not listed) is an owner's, so a route added to the
 * emulator later is never an operator's by default.
 */
import type { Role } from '../server/backoffice/actor';

export interface PortalRoute {
  /** The least console role that may reach it (the bearer ADMIN_TOKEN is an owner). */
  role: Role;
  /** The audit action of a write (reads are not audited); what it was done to, from the path. */
  action: string;
  target: string | null;
  /** The payment request this write approves at the provider: it moves money, so only one of the product's passes. */
  approves?: string;
}

const OPERATOR_READS = [/^\/?$/, /^\/company-webhook$/, /^\/documents\/[^/]+\/content$/];

/** The operator's writes: the portal's job, each with its audit action (`$1` is the target). */
const OPERATOR_WRITES: [method: string, path: RegExp, action: (m: RegExpExecArray) => string][] = [
  ['POST', /^\/receivers$/, () => 'portal.receiver.add'],
  ['POST', /^\/receivers\/([^/]+)\/accounts$/, () => 'portal.receiver.add_account'],
  ['POST', /^\/receivers\/([^/]+)\/(approve|reject)$/, (m) => `portal.receiver.${m[2]}`],
  ['POST', /^\/transaction-requests\/([^/]+)\/(approve|reject)$/, (m) => `portal.payment_request.${m[2]}`],
  ['POST', /^\/cashouts\/([^/]+)\/(complete|error|cancel)$/, (m) => `portal.cashout.${m[2]}`],
];

/** The owner's writes with an action of their own; any other write is `portal.other`. */
const OWNER_WRITES: [path: RegExp, action: string][] = [
  [/^\/access-keys(\/([^/]+))?$/, 'portal.access_key'],
  [/^\/webhook-signing-key$/, 'portal.webhook_signing_key'],
  [/^\/company-webhook$/, 'portal.company_webhook'],
];

const decoded = (segment: string | undefined) => {
  if (segment === undefined) return null;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** The rule of `method` on `path` (the part below the emulator's `/admin`, as the proxy forwards it). */
export function portalRoute(method: string, path: string): PortalRoute {
  if (method === 'GET' || method === 'HEAD') {
    const role = OPERATOR_READS.some((r) => r.test(path)) ? 'operator' : 'owner';
    return { role, action: 'portal.read', target: null };
  }
  for (const [verb, pattern, action] of OPERATOR_WRITES) {
    const m = method === verb ? pattern.exec(path) : null;
    if (!m) continue;
    const target = decoded(m[1]);
    const approves = m[0].startsWith('/transaction-requests/') && m[2] === 'approve' ? (target ?? undefined) : undefined;
    return { role: 'operator', action: action(m), target, ...(approves !== undefined && { approves }) };
  }
  for (const [pattern, action] of OWNER_WRITES) {
    const m = pattern.exec(path);
    if (m) return { role: 'owner', action: `${action}.${method.toLowerCase()}`, target: decoded(m[2]) };
  }
  return { role: 'owner', action: 'portal.other', target: path };
}
