/**
 * The audit line of a back-office request that moves money or decides a movement (a refund, a cash-out, an approval
 * or a rejection): recorded through the request's recorder (`c.get('audit')`, see ./actor.ts) once the outcome is
 * known: `ok`, `pending_approval`, `refused` (a 4xx of ours, its code in the details) or `failed`. The details are
 * the route's (an amount, a checkout id, the idempotency key), never a full CPF.
 */
import type { Context } from 'hono';
import { ApiError } from '../payments/errors';
import type { BackOfficeEnv, AuditRecord } from './actor';

/** What a route says of its movement before it runs. */
export interface MovementAudit {
  action: string;
  target: string | null;
  details: Record<string, unknown>;
}

/**
 * Runs `work` and records its audit line: `outcomeOf` (and `detailsOf`) read a success, a thrown refusal is recorded
 * `refused` (a 4xx) or `failed` with its code, then thrown on.
 */
export async function auditedMovement<T>(
  c: Context<BackOfficeEnv>,
  { action, target, details }: MovementAudit,
  work: () => Promise<T>,
  outcomeOf: (result: T) => { outcome: AuditRecord['outcome']; details?: Record<string, unknown> },
): Promise<T> {
  const audit = c.get('audit');
  let result: T;
  try {
    result = await work();
  } catch (error) {
    const refused = error instanceof ApiError && error.status < 500;
    const code = error instanceof ApiError ? error.code : 'internal_error';
    // The refusal is what the caller must get: a recorder failing now is not allowed to hide it.
    await audit({ action, target, outcome: refused ? 'refused' : 'failed', details: { ...details, code } }).catch(() => undefined);
    throw error;
  }
  const done = outcomeOf(result);
  await audit({ action, target, outcome: done.outcome, details: { ...details, ...done.details } });
  return result;
}
