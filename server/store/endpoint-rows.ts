/**
 * Rows of the endpoints and their delivery log as records (./endpoints), for both stores: SQLite gives dates and JSON
 * as text, `pg` gives timestamptz as ISO text (pg-types.ts) or, in another session zone, a Date, jsonb parsed and
 * bigint as a string.
 */
import type { EventAttempt, EventDelivery, StoredWebhookEndpoint } from './endpoints';
import type { JsonColumns, Row } from './rows';

const instant = (value: unknown) => (value instanceof Date ? value.toISOString() : ((value as string | null) ?? null));
const count = (value: unknown) => (value === null || value === undefined ? null : Number(value));

export function endpointFromRow(row: Row, columns: JsonColumns): StoredWebhookEndpoint {
  return {
    id: row.id as string,
    url: row.url as string,
    types: (columns === 'text' ? JSON.parse(row.types as string) : row.types) as string[],
    secret: row.secret as string,
    secretHint: (row.secret_hint as string | null) ?? null,
    previousSecret: (row.previous_secret as string | null) ?? null,
    previousSecretHint: (row.previous_secret_hint as string | null) ?? null,
    previousUntil: instant(row.previous_until),
    disabled: row.disabled_reason ? { reason: row.disabled_reason as 'owner' | 'failing', since: instant(row.disabled_at)! } : null,
    failingSince: instant(row.failing_since),
    createdAt: instant(row.created_at)!,
  };
}

export function eventDeliveryFromRow(row: Row): EventDelivery {
  const state = row.state as EventDelivery['state'];
  return {
    eventSeq: Number(row.event_seq),
    endpointId: row.endpoint_id as string,
    state,
    attempts: Number(row.attempts),
    lastStatus: count(row.last_status),
    nextAt: state === 'pending' ? instant(row.next_at) : null,
    deliveredAt: instant(row.delivered_at),
  };
}

export function eventAttemptFromRow(row: Row): EventAttempt {
  return {
    endpointId: row.endpoint_id as string,
    at: instant(row.at)!,
    status: count(row.status),
    durationMs: Number(row.duration_ms),
    error: (row.error as string | null) ?? null,
  };
}
