/** The CPF mask as the payer types, keeping the caret after the same digit it followed. */
import { cpfDigits, formatCpf } from '../server/lib/cpf.js';

/** Reformats `input.value` in place ("12345678909" → "123.456.789-09") and returns the new value. */
export function maskCpfInput(input: HTMLInputElement): string {
  const caret = input.selectionStart ?? input.value.length;
  const digitsBeforeCaret = cpfDigits(input.value.slice(0, caret)).length;
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
