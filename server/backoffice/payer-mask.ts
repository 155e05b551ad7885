/**
 * The provider's records as the back office passes them on (`GET /checkouts/:id/provider`, `GET /transactions`):
 * every document masked and every bank account's numbers left out, for every role. The full CPF of a checkout's
 * payer is read only through the reveal (routes/payer.ts), which the audit trail records.
 *
 * The fields are the partner API's (its contract's "Resources" and webhook payloads): `transaction.payer` and
 * `transaction.recipient` hold `taxNumber`, `accountAgency`, `accountNumber`, `accountDigit`; `transaction` the
 * merchant's own `accountNumber`; `payment.payer`, `payment.receiver` and `payment.recipient` hold `cpf` or `cnpj`;
 * a cash-out's `payment.key.value` may be a CPF. A valid CPF or CNPJ in any other string is masked too, so
 * a field the provider adds is not a leak.
 */
import { isValidCnpj, isValidCpf, maskCpf, taxNumberDigits } from '../../core/cpf';

/** Keys (lower case) whose value is a person's or a company's document number. */
const DOCUMENT_FIELDS = new Set(['cpf', 'cnpj', 'taxnumber', 'accountownerdocnumber', 'document', 'documentnumber']);
/** Keys (lower case) whose value is a bank account's agency, number or check digit: left out. */
const ACCOUNT_FIELDS = new Set(['accountagency', 'accountnumber', 'accountdigit', 'agency', 'branch', 'branchcode']);

/** A CPF or a CNPJ, formatted or not, anywhere in a text (a description, a note). */
const DOCUMENT_IN_TEXT = /(?<![\d./-])(?:\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2}|\d{3}\.?\d{3}\.?\d{3}-?\d{2})(?![\d./-]*\d)/g;

/** "***.456.789-**" for a CPF, "**.345.678/****-**" for a CNPJ, "***" for anything else. */
export function maskTaxNumber(value: string): string {
  const d = taxNumberDigits(value);
  if (d.length === 11) return maskCpf(d);
  if (d.length === 14) return `**.${d.slice(2, 5)}.${d.slice(5, 8)}/****-**`;
  return '***';
}

const maskDocumentsIn = (text: string) =>
  text.replace(DOCUMENT_IN_TEXT, (found) => (isValidCpf(found) || isValidCnpj(found) ? maskTaxNumber(found) : found));

function masked(value: unknown, key: string | undefined): unknown {
  if (typeof value === 'string') {
    if (key !== undefined && DOCUMENT_FIELDS.has(key.toLowerCase())) return value === '' ? value : maskTaxNumber(value);
    return maskDocumentsIn(value);
  }
  if (Array.isArray(value)) return value.map((item) => masked(item, undefined));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(value)) {
      if (ACCOUNT_FIELDS.has(name.toLowerCase())) continue;
      out[name] = masked(field, name);
    }
    return out;
  }
  return value;
}

/** A copy of `record` with its documents masked and its bank accounts' numbers left out (see above). */
export function maskPayerData<T>(record: T): T {
  return masked(record, undefined) as T;
}
