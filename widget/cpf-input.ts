/**
 * The payer form's CPF: the mask as the payer types, and the check before anything is sent. In the lazy chunk with the
 * form (views/screens.ts), so it imports nothing the entry holds (the method's CPF rule comes as an argument).
 */
import { taxNumberDigits, formatCpf, isValidCpf } from '../core/cpf.js';

export type CpfProblem = 'cpfInvalid' | 'cpfRequired' | 'cpfNeededForName' | 'cpfRefusedBefore';

export interface PayerCheck {
  problem?: CpfProblem;
  /** What to send: digits-only CPF, trimmed name; absent for an anonymous PIX. */
  payer?: { cpf: string; name?: string };
}

/**
 * Checks the payer form before anything is sent: a method whose CPF is `required` (`PAYER_CPF`: OpenFinance) needs a
 * valid CPF, the others (PIX) may go without one; a CPF the BFF already refused for this order is not sent again.
 */
export function checkPayer(required: boolean, cpfText: string, nameText: string, refused: ReadonlySet<string> = new Set()): PayerCheck {
  const cpf = taxNumberDigits(cpfText);
  const name = nameText.trim();
  if (!cpf && required) return { problem: 'cpfRequired' };
  if (!cpf && name) return { problem: 'cpfNeededForName' };
  if (!cpf) return {};
  if (!isValidCpf(cpf)) return { problem: 'cpfInvalid' };
  if (refused.has(cpf)) return { problem: 'cpfRefusedBefore' };
  return { payer: name ? { cpf, name } : { cpf } };
}

/** Flags a wrong or already refused CPF as soon as all 11 digits are there, not while the payer is still typing. */
export function typedCpfProblem(cpfText: string, refused: ReadonlySet<string> = new Set()): CpfProblem | undefined {
  const cpf = taxNumberDigits(cpfText);
  if (cpf.length !== 11) return undefined;
  if (!isValidCpf(cpf)) return 'cpfInvalid';
  return refused.has(cpf) ? 'cpfRefusedBefore' : undefined;
}

/** Keeps the caret after the same digit it followed. Reformats `input.value` in place ("12345678909" → "123.456.789-09") and returns the new value. */
export function maskCpfInput(input: HTMLInputElement): string {
  const caret = input.selectionStart ?? input.value.length;
  const digitsBeforeCaret = taxNumberDigits(input.value.slice(0, caret)).length;
  const formatted = formatCpf(input.value);
  if (formatted === input.value) return formatted;
  input.value = formatted;
  let position = 0;
  for (let seen = 0; position < formatted.length && seen < digitsBeforeCaret; position++) {
    if (/\d/.test(formatted[position]!)) seen++;
  }
  input.setSelectionRange(position, position);
  return formatted;
}
