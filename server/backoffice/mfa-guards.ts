/**
 * The second factor's two checks in front of the back office's routes (index.ts puts them after the least role):
 * `mfaGate` keeps a user whose role MFA_REQUIRED names, and who has no factor yet, to the enrolment (403
 * `mfa_enrolment_required` elsewhere); `stepUpGuard` asks a user with a factor to prove it again (403
 * `step_up_required`, with the methods) before a guarded action when the session's last proof is over 5 minutes old.
 * Guarded: approvals, refunds and cash-outs above APPROVAL_ABOVE (a refund without an amount, the whole rest, is
 * guarded too), and every change of users, API keys and webhook endpoints. Bearer callers (the ADMIN_TOKEN, API keys:
 * scripts, no person to ask) are asked neither.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { parseCents } from '../../core/money';
import { mfaEnrolmentRequired, stepUpRequired } from '../accounts/errors';
import { mfaRequiredFor, type Mfa, type MfaPolicy } from '../accounts/mfa';
import type { BackOfficeEnv } from './actor';

const pathOf = (c: Context) => c.req.path.replace(/^.*?\/admin(?=\/|$)/, '');
const isRead = (method: string) => method === 'GET' || method === 'HEAD';

/** What a user without the factor it must have may still do: see and end its session, enrol. */
const ENROLMENT_OPEN = [/^\/session$/, /^\/me\/mfa(\/|$)/];

export function mfaGate({ mfa, policy }: { mfa: Mfa; policy: MfaPolicy }): MiddlewareHandler<BackOfficeEnv> {
  return async (c, next) => {
    const actor = c.get('actor');
    if (actor.kind === 'user' && mfaRequiredFor(policy, actor.role) && !ENROLMENT_OPEN.some((r) => r.test(pathOf(c)))) {
      if ((await mfa.methods(actor.id)).length === 0) throw mfaEnrolmentRequired();
    }
    await next();
  };
}

const ALWAYS_GUARDED = [/^\/approvals\/.*\/approve$/, /^\/users(\/|$)/, /^\/api-keys(\/|$)/, /^\/webhook-endpoints(\/|$)/];
const MONEY = [/^\/checkouts\/[^/]+\/refunds?$/, /^\/cashouts$/];

/** The amount in cents a body asks for; undefined when it names none (a refund of the rest) or cannot be read. */
async function amountOf(c: Context): Promise<number | undefined> {
  try {
    const body = JSON.parse((await c.req.text()) || '{}') as { amount?: unknown };
    return typeof body.amount === 'string' ? parseCents(body.amount) : undefined;
  } catch {
    return undefined;
  }
}

async function guarded(c: Context, approvalAboveCents: number): Promise<boolean> {
  const path = pathOf(c);
  if (ALWAYS_GUARDED.some((r) => r.test(path))) return true;
  if (c.req.method !== 'POST' || !MONEY.some((r) => r.test(path))) return false;
  const cents = await amountOf(c);
  return cents === undefined || cents > approvalAboveCents;
}

export function stepUpGuard({ mfa, approvalAboveCents }: { mfa: Mfa; approvalAboveCents: number }): MiddlewareHandler<BackOfficeEnv> {
  return async (c, next) => {
    const actor = c.get('actor');
    if (actor.kind === 'user' && actor.session && !isRead(c.req.method) && (await guarded(c, approvalAboveCents))) {
      const methods = await mfa.methods(actor.id);
      if (methods.length > 0 && !(await mfa.proofFresh(actor.session))) {
        await c.get('audit')({ action: 'access.step_up', target: pathOf(c), outcome: 'refused', details: { code: 'step_up_required' } });
        throw stepUpRequired(methods);
      }
    }
    await next();
  };
}
