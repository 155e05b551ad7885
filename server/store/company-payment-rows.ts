/** Row ↔ record mapping of company payments (./company-payments), as ./rows.ts does for cash-outs. */
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

/** The insert's columns, written from a parsed draft. */
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

/** A parsed draft's parameters, one per `COMPANY_PAYMENT_COLUMNS` (named as the column), taken in `state`. */
export const companyPaymentParams = (
  d: z.output<typeof NewCompanyPaymentSchema>,
  state: string,
): Record<(typeof COMPANY_PAYMENT_COLUMNS)[number], unknown> => ({
  idempotency_key: d.idempotencyKey,
  fingerprint: d.fingerprint,
  state,
  amount_cents: d.amountCents,
  description: d.description,
  receiver_id: d.receiverId,
  account_id: d.accountId,
  receiver_name: d.receiverName,
  receiver_cnpj: d.receiverCnpj,
  bank_name: d.bankName,
  account_agency: d.accountAgency,
  account_number: d.accountNumber,
  requested_by: d.requestedBy,
  created_at: d.createdAt,
  updated_at: d.createdAt,
});
