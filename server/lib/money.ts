/**
 * Exact money arithmetic. Amounts travel as decimal strings and are held as bigint counts of a fixed
 * fraction (cents: scale 2; the provider's response precision: scale 6). No binary floats anywhere.
 */

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** Parses a non-negative decimal string into an integer count of 10^-scale units; undefined when not exact. */
export function parseDecimal(text: string, scale: number): bigint | undefined {
  const match = DECIMAL.exec(text.trim());
  if (!match) return undefined;
  const [, whole = '0', fraction = ''] = match;
  const extra = fraction.slice(scale);
  if (/[1-9]/.test(extra)) return undefined;
  return BigInt(whole + fraction.slice(0, scale).padEnd(scale, '0'));
}

/** Formats an integer count of 10^-scale units as a decimal string with exactly `scale` digits. */
export function formatDecimal(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}

/** Converts between scales, rounding half away from zero when precision is lost. */
export function rescale(units: bigint, from: number, to: number): bigint {
  if (to >= from) return units * 10n ** BigInt(to - from);
  const divisor = 10n ** BigInt(from - to);
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const rounded = (abs + divisor / 2n) / divisor;
  return negative ? -rounded : rounded;
}

/** `units * numerator / denominator`, rounded half away from zero. */
export function mulDiv(units: bigint, numerator: bigint, denominator: bigint): bigint {
  const product = units * numerator;
  const negative = product < 0n !== denominator < 0n;
  const abs = (product < 0n ? -product : product);
  const den = denominator < 0n ? -denominator : denominator;
  const rounded = (abs + den / 2n) / den;
  return negative ? -rounded : rounded;
}

/** Cents from a decimal string with at most two decimals (for example "10.5" → 1050n). */
export const parseCents = (text: string) => parseDecimal(text, 2);
/** "10.50" from 1050n. */
export const formatCents = (cents: bigint) => formatDecimal(cents, 2);
/** "10.500000": the six-decimal form the provider uses in responses. */
export const formatAmount6 = (cents: bigint) => formatDecimal(rescale(cents, 2, 6), 6);
