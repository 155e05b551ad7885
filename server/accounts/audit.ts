/**
 * The audit trail's recorder: what the back office's routes and the CLI call to add one entry (who, when, from
 * where are filled in here; what, to what and how it ended come from the caller). Append-only: the store has no way to
 * change or delete an entry. A failure to record is logged and never thrown into the request that was recorded.
 */
import type { Clock } from '../lib/clock';
import type { AuditOutcome, AuditStore, UserRole } from '../store/accounts';

/** One line of the audit trail as a caller records it (the same shape as `AuditRecord` of server/backoffice/actor.ts). */
export interface AuditRecord {
  /** Dotted: `session.sign_in`, `user.add`, `webhook_endpoint.rotate`, `refund.create`… */
  action: string;
  /** What it was done to (an e-mail, an endpoint id, a checkout id); null when nothing. */
  target: string | null;
  outcome: AuditOutcome;
  /** A few facts worth keeping; keys that name a secret are dropped on the way in. */
  details?: Record<string, unknown>;
}

export type AuditRecorder = (record: AuditRecord) => Promise<void>;

/** Who did it: an e-mail, `api-token`, `cli`, or the e-mail tried on a sign-in; the role held; the address. */
export interface AuditWho {
  actor: string;
  role: UserRole | null;
  ip: string | null;
}

export interface AuditRecorderOptions {
  store: AuditStore;
  clock: Clock;
  who: AuditWho;
  log?: { error(...args: unknown[]): void };
}

/** Keys whose value is never kept, whatever a caller passes. */
const SECRET_KEY = /pass(word)?|secret|token|hash|authorization|cookie/i;
const MAX_DEPTH = 4;

/** A text as both databases can keep it: PostgreSQL refuses the NUL character, so it becomes U+FFFD. */
const keptText = (text: string): string => text.replaceAll('\u0000', '\uFFFD');

/** `details` made safe to keep: secret-named keys dropped, bigints as strings, nothing deeper than a few levels. */
export function keptDetails(value: unknown, depth = 0): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return keptText(value);
  if (value === null || typeof value !== 'object') return typeof value === 'function' || typeof value === 'symbol' ? null : value;
  if (depth >= MAX_DEPTH) return null;
  if (Array.isArray(value)) return value.map((item) => keptDetails(item, depth + 1));
  const entries = Object.entries(value as Record<string, unknown>).filter(([key]) => !SECRET_KEY.test(key));
  return Object.fromEntries(entries.map(([key, item]) => [keptText(key), keptDetails(item, depth + 1)]));
}

/** A recorder writing to the store as `who`, at the clock's time; it resolves even when the write fails (logged). */
export function auditRecorder({ store, clock, who, log = console }: AuditRecorderOptions): AuditRecorder {
  return async ({ action, target, outcome, details = {} }) => {
    try {
      await store.appendAudit({
        at: clock.now().toISOString(),
        ...who,
        actor: keptText(who.actor),
        action,
        target: target === null ? null : keptText(target),
        outcome,
        details: keptDetails(details) as Record<string, unknown>,
      });
    } catch (error) {
      log.error(`audit: could not record ${action} by ${who.actor}:`, error instanceof Error ? error.message : error);
    }
  };
}

/**
 * Runs `work` and records its outcome as `action` on `target`: `ok` with the details `work` gives, `refused` with the
 * code of an `ApiError`-like refusal (a 4xx of ours), `failed` otherwise. The refusal or failure is thrown on.
 */
export async function recorded<T>(
  audit: AuditRecorder,
  action: string,
  target: string | null,
  work: () => Promise<{ result: T; details?: Record<string, unknown> }>,
): Promise<T> {
  try {
    const { result, details } = await work();
    await audit({ action, target, outcome: 'ok', ...(details ? { details } : {}) });
    return result;
  } catch (error) {
    const refusal = error as { status?: unknown; code?: unknown };
    const refused = typeof refusal.status === 'number' && refusal.status < 500 && typeof refusal.code === 'string';
    await audit({ action, target, outcome: refused ? 'refused' : 'failed', details: refused ? { code: refusal.code } : {} });
    throw error;
  }
}
