/** Brazilian tax numbers: CPF (people) and CNPJ (companies). Pure, for the browser and Node alike. */

/** Keeps only the digits of a typed or formatted number. */
export function taxNumberDigits(value: string): string {
  return value.replace(/\D/g, '');
}

/** True when the value has 11 digits, valid check digits, and is not one of the ten repeated-digit numbers. */
export function isValidCpf(value: string): boolean {
  const digits = taxNumberDigits(value);
  if (digits.length !== 11 || /^(\d)\1{10}$/.test(digits)) return false;
  const numbers = [...digits].map(Number);
  const check = (length: number) => {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += numbers[i]! * (length + 1 - i);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  return check(9) === numbers[9] && check(10) === numbers[10];
}

/** "123.456.789-09" from any partial or complete input; used as the user types. */
export function formatCpf(value: string): string {
  const d = taxNumberDigits(value).slice(0, 11);
  if (d.length <= 3) return d;
  if (d.length <= 6) return `${d.slice(0, 3)}.${d.slice(3)}`;
  if (d.length <= 9) return `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6)}`;
  return `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`;
}

/**
 * "***.982.247-**": the middle six digits of an 11-digit CPF, formatted or not, as Brazilian banks and receipts show
 * a CPF, so one on a screen, a receipt or in the back-office is not one leaked; "***" for anything else.
 */
export function maskCpf(value: string): string {
  const d = taxNumberDigits(value);
  return d.length === 11 ? `***.${d.slice(3, 6)}.${d.slice(6, 9)}-**` : '***';
}

/** True for a CNPJ with 14 digits and valid check digits. */
export function isValidCnpj(value: string): boolean {
  const digits = taxNumberDigits(value);
  if (digits.length !== 14 || /^(\d)\1{13}$/.test(digits)) return false;
  const numbers = [...digits].map(Number);
  const check = (length: number) => {
    const weights = length === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    const sum = weights.reduce((acc, w, i) => acc + w * numbers[i]!, 0);
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  return check(12) === numbers[12] && check(13) === numbers[13];
}

/** "12.345.678/0001-95" for 14 digits; anything else unchanged. */
export function formatCnpj(value: string): string {
  const d = taxNumberDigits(value);
  return d.length === 14 ? `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-${d.slice(12)}` : value;
}
