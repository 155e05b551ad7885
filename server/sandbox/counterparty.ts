/**
 * The checks the provider's counterparty (the banks) makes on tax numbers and PIX keys. Magic CPFs from
 * `MAGIC_CPFS` let integrators provoke the refusals on purpose.
 */
import { taxNumberDigits, isValidCpf } from '../../core/cpf';
import type { PixKeyType } from '../provider/schemas';
import { MAGIC_CPFS } from './defaults';
import { operationError } from './errors';
import { formatError } from './request';

/**
 * Throws the provider's 409 for an invalid, restricted or refused CPF. The request keeps the value as sent (the
 * record's `payment` is "the request as made"); only the effective participants carry the digits.
 */
export function checkCpf(value: string): void {
  const digits = taxNumberDigits(value);
  if (!isValidCpf(value) || (MAGIC_CPFS.restricted as readonly string[]).includes(digits))
    throw operationError('CounterpartyTaxNumberInvalid', `The tax number ${value} is invalid or restricted`, { taxNumber: value });
  if ((MAGIC_CPFS.serviceError as readonly string[]).includes(digits))
    throw operationError('CounterpartyServiceError', `The counterparty service refused the tax number ${value}`, { taxNumber: value });
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;
const PHONE = /^\+55\d{10,11}$/;
const EVP = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A key value that cannot be a key of its type is a malformed request (400 at /payment/key/value). A key that fits
 * is kept in the record as sent (`111.444.777-35` stays so): nothing in the sandbox looks a key up, so no
 * normalised copy is needed.
 */
export function checkPixKey(type: PixKeyType, value: string): void {
  const bad = (what: string) => formatError('/payment/key/value', `must be ${what} for key type ${type}`, 'format', { keyType: type });
  switch (type) {
    case 'CPF':
      if (!isValidCpf(value)) throw bad('a valid CPF');
      return;
    case 'EMAIL':
      if (value.length > 77 || !EMAIL.test(value)) throw bad('an e-mail address');
      return;
    case 'PHONE':
      if (!PHONE.test(value)) throw bad('+55 followed by 10 or 11 digits');
      return;
    case 'EVP':
      if (!EVP.test(value)) throw bad('a random key (UUID)');
      return;
  }
}

/** How the record spells each key type. */
export const recordKeyType: Record<PixKeyType, string> = { CPF: 'CPF', EMAIL: 'E-mail', PHONE: 'Phone', EVP: 'EVP' };
