/**
 * Row ↔ record mapping shared by both stores. Rows arrive with snake_case columns; SQLite gives JSON as text and dates
 * as text, `pg` gives jsonb already parsed, timestamptz as ISO text (pg-types.ts) or, in another session zone, a Date
 * and bigint as string. Everything is normalised here, so both stores return exactly the same shapes.
 *
 * Checkouts, their events and the merchant's events are not validated again on the way out: they are on the status path
 * (each change reads and returns several) and on the merchant's (a backlog reads thousands a second), every one was
 * validated by its schema on the way in, and the tables hold them under STRICT types, CHECKs and NOT NULLs
 * (tests/server/store check that what is read back equals its schema). The back office's rarer records still are.
 */
import {
  CashOutSchema,
  CheckoutWebhookSchema,
  ForeignTransactionSchema,
  type CashOut,
  type CheckoutWebhook,
  type ForeignTransaction,
} from './back-office';
import type { MerchantEvent } from './merchant-events';
import type { Checkout, CheckoutEvent } from './types';

export type Row = Record<string, unknown>;

const date = (value: unknown) => (value instanceof Date ? value.toISOString() : value);
/** A PostgreSQL bigint arrives as a string: as a number, which the schema then checks is a safe integer of cents. */
const integer = (value: unknown) => (typeof value === 'string' ? Number(value) : value);

/** Stored text is JSON in SQLite; `pg` already parsed jsonb, where a JSON string comes back as a JS string. */
export type JsonColumns = 'text' | 'parsed';
const json = (value: unknown, columns: JsonColumns): unknown => (columns === 'text' ? (JSON.parse(value as string) as unknown) : value);

/** `undefined` has no JSON form; it is stored as null like JSON.stringify does inside objects. */
export const toJson = (value: unknown) => JSON.stringify(value ?? null);

export function checkoutFromRow(row: Row, columns: JsonColumns): Checkout {
  return {
    id: row.id,
    orderId: row.order_id,
    method: row.method,
    state: row.state,
    amountCents: integer(row.amount_cents),
    currency: row.currency,
    description: row.description,
    transactionId: row.transaction_id,
    payerCpf: row.payer_cpf,
    payerName: row.payer_name,
    details: json(row.details, columns),
    duplicateOf: row.duplicate_of ?? null,
    seq: row.seq,
    expiresAt: date(row.expires_at ?? null),
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
    lastWebhookAt: date(row.last_webhook_at ?? null),
    lastCheckedAt: date(row.last_checked_at ?? null),
  } as Checkout;
}

export function eventFromRow(row: Row, columns: JsonColumns): CheckoutEvent {
  return {
    checkoutId: row.checkout_id,
    seq: integer(row.seq),
    state: row.state,
    source: row.source,
    at: date(row.at),
    data: json(row.data, columns),
  } as CheckoutEvent;
}

export function cashOutFromRow(row: Row): CashOut {
  return CashOutSchema.parse({
    idempotencyKey: row.idempotency_key,
    fingerprint: row.fingerprint,
    orderId: row.order_id,
    transactionId: row.transaction_id ?? null,
    state: row.state,
    amountCents: integer(row.amount_cents),
    recipientName: row.recipient_name,
    recipientCpf: row.recipient_cpf,
    keyType: row.key_type,
    keyValue: row.key_value,
    description: row.description ?? null,
    refundOf: row.refund_of ?? null,
    charges: row.charges ?? null,
    requestedBy: row.requested_by ?? null,
    decidedBy: row.decided_by ?? null,
    decidedAt: row.decided_at ? date(row.decided_at) : null,
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
  });
}

export function webhookFromRow(row: Row): CheckoutWebhook {
  return CheckoutWebhookSchema.parse({
    checkoutId: row.checkout_id,
    transactionId: row.transaction_id,
    state: row.state ?? null,
    outcome: row.outcome,
    receivedAt: date(row.received_at),
  });
}

export function foreignFromRow(row: Row): ForeignTransaction {
  return ForeignTransactionSchema.parse({
    transactionId: row.transaction_id,
    orderId: row.order_id,
    method: row.method ?? null,
    amount: row.amount,
    state: row.state,
    reason: row.reason,
    seenAt: date(row.seen_at),
  });
}

export function merchantEventFromRow(row: Row, columns: JsonColumns): MerchantEvent {
  return {
    id: row.id,
    seq: integer(row.seq),
    type: row.type,
    createdAt: date(row.created_at),
    data: json(row.data, columns),
  } as MerchantEvent;
}
