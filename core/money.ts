/**
 * Exact money, in one place for the BFF, the emulator, the element and the demo. Amounts travel as decimal strings
 * and are held as bigint counts of a fixed fraction (cents: scale 2; the provider's response precision: scale 6).
 * No binary float ever holds an amount.
 */

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

/** Parses a decimal string into an integer count of 10^-scale units; undefined when it is no number or not exact at that scale. */
export function parseDecimal(text: string, scale: number, { signed = false } = {}): bigint | undefined {
  const match = DECIMAL.exec(text.trim());
  if (!match || (match[1] && !signed)) return undefined;
  const [, minus, whole = '0', fraction = ''] = match;
  if (/[1-9]/.test(fraction.slice(scale))) return undefined;
  const units = BigInt(whole + fraction.slice(0, scale).padEnd(scale, '0'));
  return minus ? -units : units;
}

/** Formats an integer count of 10^-scale units as a decimal string with exactly `scale` digits. */
export function formatDecimal(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}

const roundHalfAway = (numerator: bigint, denominator: bigint): bigint => {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const rounded = (n + d / 2n) / d;
  return negative ? -rounded : rounded;
};

/** Converts between scales, rounding half away from zero when precision is lost. */
export function rescale(units: bigint, from: number, to: number): bigint {
  if (to >= from) return units * 10n ** BigInt(to - from);
  return roundHalfAway(units, 10n ** BigInt(from - to));
}

/** `units * numerator / denominator`, rounded half away from zero. */
export function mulDiv(units: bigint, numerator: bigint, denominator: bigint): bigint {
  return roundHalfAway(units * numerator, denominator);
}

/** Cents from a non-negative decimal string with at most two decimals ("10.5" → 1050n); undefined otherwise. */
export const parseCents = (text: string) => parseDecimal(text, 2);
/** "10.50" from 1050n. */
export const formatCents = (cents: bigint) => formatDecimal(cents, 2);
/** "10.500000": the six-decimal form the provider uses in responses. */
export const formatAmount6 = (cents: bigint) => formatDecimal(rescale(cents, 2, 6), 6);

/**
 * Cents of any amount a provider or our API returns, at up to six decimals and possibly negative, rounded half away
 * from zero ("1234.505000" → 123451n); undefined when the text is no decimal number.
 */
export function centsOf(amount: string): bigint | undefined {
  const micros = parseDecimal(amount, 6, { signed: true });
  return micros === undefined ? undefined : rescale(micros, 6, 2);
}

export interface MoneyFormat {
  /** BCP 47 locale; default `pt-BR`. */
  locale?: string;
  /** ISO 4217 code; default `BRL`. */
  currency?: string;
}

const formatters = new Map<string, Intl.NumberFormat>();
function formatter(locale: string, currency: string): Intl.NumberFormat | undefined {
  const key = `${locale}|${currency}`;
  let format = formatters.get(key);
  if (!format) {
    try {
      format = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 });
    } catch {
      // An unknown currency code or locale makes Intl throw; the caller falls back to the plain form.
      return undefined;
    }
    formatters.set(key, format);
  }
  return format;
}

/**
 * Reais in the element's two locales, written out as Intl writes them (a unit test holds the two together): the
 * first screen then shows the amount without waiting for Intl's locale data, which costs tens of milliseconds the
 * first time on a phone.
 */
const BRL_STYLES: Record<string, { prefix: string; group: string; decimal: string }> = {
  'pt-BR': { prefix: 'R$\u00a0', group: '.', decimal: ',' },
  en: { prefix: 'R$', group: ',', decimal: '.' },
  'en-US': { prefix: 'R$', group: ',', decimal: '.' },
};

function formatBrl(cents: bigint, style: { prefix: string; group: string; decimal: string }): string {
  const negative = cents < 0n;
  const digits = (negative ? -cents : cents).toString().padStart(3, '0');
  const whole = digits.slice(0, -2).replace(/\B(?=(\d{3})+$)/g, style.group);
  return `${negative ? '-' : ''}${style.prefix}${whole}${style.decimal}${digits.slice(-2)}`;
}

/**
 * "R$ 1.234,50" (pt-BR) or "R$1,234.50" (en) from integer cents. Reais in pt-BR and en are written directly; any
 * other locale or currency goes to Intl with the exact decimal string, never a float, so the locale decides symbol,
 * grouping and separators and the digits stay exact.
 */
export function formatMoneyCents(cents: bigint, { locale = 'pt-BR', currency = 'BRL' }: MoneyFormat = {}): string {
  const style = currency === 'BRL' ? BRL_STYLES[locale] : undefined;
  if (style) return formatBrl(cents, style);
  const decimal = formatCents(cents);
  // Intl formats a decimal string exactly (ECMA-402 "Intl.NumberFormat v3"); the type still says number | bigint.
  return formatter(locale, currency)?.format(decimal as unknown as number) ?? `${currency} ${decimal}`;
}

/** The same display from a decimal string of up to six decimals ("1234.505000" → "R$ 1.234,51"); the text itself when it is no number. */
export function formatMoney(amount: string, options: MoneyFormat = {}): string {
  const cents = centsOf(amount);
  return cents === undefined ? amount : formatMoneyCents(cents, options);
}

/**
 * An amount typed by a person, pt-BR or plain ("R$ 1.234,5", "1234.50"), as the decimal string the API takes
 * ("1234.50"); undefined when it is not a positive amount with at most two decimals.
 */
export function parseTypedAmount(text: string): string | undefined {
  let value = text.trim().replace(/^R\$\s*/, '');
  // pt-BR: dots group thousands and the comma separates the decimals.
  if (value.includes(',')) value = value.replace(/\./g, '').replace(',', '.');
  if (!/^\d+(\.\d{1,2})?$/.test(value)) return undefined;
  const cents = parseCents(value);
  return cents !== undefined && cents > 0n ? formatCents(cents) : undefined;
}
