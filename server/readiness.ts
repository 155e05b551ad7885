/**
 * `GET /readyz`, what a load balancer asks before it sends traffic: 200 only when the store answers with the schema
 * this code needs and the process is not draining (server/shutdown.ts); else 503 with the reason in the envelope
 * (`draining`, `store_unreachable`, `schema_behind`). `/healthz` stays the liveness check: it never asks the store.
 */
import type { Context } from 'hono';
import { errorBody } from './http/error-envelope';
import type { ReadinessStore } from './store/readiness';

/** A store that does not answer within this is not ready (a PostgreSQL pool waiting for a connection never would). */
const STORE_CHECK_MS = 2_000;

const REASONS = {
  draining: 'This instance is shutting down.',
  store_unreachable: 'The store does not answer.',
  schema_behind: "The store's schema is older than this code.",
} as const;

export function readiness({ store, draining }: { store: ReadinessStore; draining: () => boolean }) {
  const why = async (): Promise<keyof typeof REASONS | undefined> => {
    if (draining()) return 'draining';
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'store_unreachable'>((resolve) => (timer = setTimeout(() => resolve('store_unreachable'), STORE_CHECK_MS)));
    const checked = store.notReady().catch(() => 'store_unreachable' as const);
    try {
      return (await Promise.race([checked, late])) ?? (draining() ? 'draining' : undefined);
    } finally {
      clearTimeout(timer);
    }
  };
  return async (c: Context) => {
    const reason = await why();
    c.header('cache-control', 'no-store');
    if (!reason) return c.json({ status: 'ready' });
    return c.json(errorBody('Unavailable', reason, REASONS[reason]), 503);
  };
}
