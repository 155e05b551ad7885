/** Row ↔ record mapping of company payments (./company-payments), shared by both stores, as ./rows.ts does for cash-outs. */
import type { z } from 'zod';
import { CompanyPaymentSchema, NewCompanyPaymentSchema, type CompanyPayment } from './company-payments';
import type { Row } from './rows';

const date = (value: unknown) => (value instanceof Date ? value.toISOString() : value);
/** A PostgreSQL bigint arrives as a string: as a number, which the schema then checks is a safe integer of cents. */
const integer = (value: unknown) => (typeof value === 'string' ? Number(value) : value);

export function companyPaymentFromRow(row: Row): CompanyPayment {
  return CompanyPaymentSchema.parse({
    idempotencyKey: row.idempotency_key,
    fingerprint: row.fingerprint,
    state: row.state,
    amountCents: integer(row.amount_cents),
    description: row.description,
    receiverId: row.receiver_id,
    accountId: row.account_id,
    receiverName: row.receiver_name ?? null,
    receiverCnpj: row.receiver_cnpj ?? null,
    bankName: row.bank_name ?? null,
    accountAgency: row.account_agency ?? null,
    accountNumber: row.account_number ?? null,
    requestId: row.request_id ?? null,
    requestedBy: row.requested_by,
    decidedBy: row.decided_by ?? null,
    decidedAt: row.decided_at ? date(row.decided_at) : null,
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
  });
}

/** The insert's columns, in order: both stores write them from a parsed draft. */
export const COMPANY_PAYMENT_COLUMNS = [
  'idempotency_key',
  'fingerprint',
  'state',
  'amount_cents',
  'description',
  'receiver_id',
  'account_id',
  'receiver_name',
  'receiver_cnpj',
  'bank_name',
  'account_agency',
  'account_number',
  'requested_by',
  'created_at',
  'updated_at',
] as const;

/** A parsed draft's values in the order of `COMPANY_PAYMENT_COLUMNS`, taken in `state`. */
export const companyPaymentValues = (d: z.output<typeof NewCompanyPaymentSchema>, state: string): unknown[] => [
  d.idempotencyKey,
  d.fingerprint,
  state,
  d.amountCents,
  d.description,
  d.receiverId,
  d.accountId,
  d.receiverName,
  d.receiverCnpj,
  d.bankName,
  d.accountAgency,
  d.accountNumber,
  d.requestedBy,
  d.createdAt,
  d.createdAt,
];
