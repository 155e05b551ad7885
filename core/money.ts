/**
 * Exact money, in one place for the BFF, the emulator, the element and the demo. Amounts travel as decimal strings.
 * Inside, an amount of cents is a `number` that is a safe integer: that is what JSON and the database drivers give,
 * and every real amount is far below 2^53 cents. It is checked where it enters (`parseCents`, `centsOf` refuse a
 * count beyond it) and where it is written out (`formatCents` throws on anything but a safe integer). bigint holds
 * only the arithmetic that can pass 2^53: decimals of any size and scale (`parseDecimal`, `formatDecimal`), the
 * provider's six-decimal micro-units and the rate math on them (`rescale`, `mulDiv`); `microsOf` is the one step from
 * cents into them. No binary float ever holds an amount.
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

/** Decimals of the provider's amounts in its responses, of its charges and of the balance: millionths of a real. */
export const MICRO_SCALE = 6;

const MAX_CENTS = BigInt(Number.MAX_SAFE_INTEGER);

/** The number form of a bigint count of cents; undefined beyond ±(2^53 − 1), where a number would no longer be exact. */
const safeCents = (cents: bigint): number | undefined => (cents <= MAX_CENTS && cents >= -MAX_CENTS ? Number(cents) : undefined);

/** A count of cents as bigint; throws on a number that is not a safe integer, which is a bug upstream, not an input. */
function exactCents(cents: number): bigint {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`An amount of cents must be a safe integer, not ${cents}`);
  return BigInt(cents);
}

/**
 * Cents from a non-negative decimal string with at most two significant decimals ("10.5" → 1050); undefined when it
 * is none, or when its cents are beyond a safe integer, so the caller answers its usual 4xx rather than crash or round.
 */
export function parseCents(text: string): number | undefined {
  const cents = parseDecimal(text, 2);
  return cents === undefined ? undefined : safeCents(cents);
}

/**
 * Cents of an amount this system wrote itself (a stored record, the demo server's answer), with at most two
 * significant decimals; throws when it is none, since that is corrupt data and an error beats a wrong amount
 * (or a silent R$ 0,00).
 */
export function requireCents(amount: string): number {
  const cents = parseCents(amount);
  if (cents === undefined) throw new RangeError(`Not an amount of cents: ${JSON.stringify(amount)}`);
  return cents;
}

/** The wire form with two decimals ("10.50" from 1050): our API's amounts, the provider's requests, the CSV export. */
export const formatCents = (cents: number): string => formatDecimal(exactCents(cents), 2);

/**
 * Millionths of a real from cents (1050 → 10_500_000n): the one step from cents into the provider's precision, to
 * add or compare an amount with charges and balances, whose sums may pass 2^53.
 */
export const microsOf = (cents: number): bigint => rescale(exactCents(cents), 2, MICRO_SCALE);

/** The provider's wire form in responses, six decimals ("10.500000" from 1050): what the emulator answers. */
export const formatAmount6 = (cents: number): string => formatDecimal(microsOf(cents), MICRO_SCALE);

/** Cents of a decimal of up to six decimals, possibly negative, rounded half away from zero, of any size. */
function roundedCents(amount: string): bigint | undefined {
  const micros = parseDecimal(amount, MICRO_SCALE, { signed: true });
  return micros === undefined ? undefined : rescale(micros, MICRO_SCALE, 2);
}

/**
 * Cents of any amount a provider or our API returns, at up to six decimals and possibly negative, rounded half away
 * from zero ("1234.505000" → 123451); undefined when the text is no decimal number or its cents are beyond a safe
 * integer.
 */
export function centsOf(amount: string): number | undefined {
  const cents = roundedCents(amount);
  return cents === undefined ? undefined : safeCents(cents);
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

/** The one implementation of a display amount: exact digits of any size, never a float. */
function display(cents: bigint, { locale = 'pt-BR', currency = 'BRL' }: MoneyFormat): string {
  const style = currency === 'BRL' ? BRL_STYLES[locale] : undefined;
  if (style) return formatBrl(cents, style);
  const decimal = formatDecimal(cents, 2);
  // Intl formats a decimal string exactly (ECMA-402 "Intl.NumberFormat v3"); the type still says number | bigint.
  return formatter(locale, currency)?.format(decimal as unknown as number) ?? `${currency} ${decimal}`;
}

function formatBrl(cents: bigint, style: { prefix: string; group: string; decimal: string }): string {
  const negative = cents < 0n;
  const digits = (negative ? -cents : cents).toString().padStart(3, '0');
  const whole = digits.slice(0, -2).replace(/\B(?=(\d{3})+$)/g, style.group);
  return `${negative ? '-' : ''}${style.prefix}${whole}${style.decimal}${digits.slice(-2)}`;
}

/**
 * Display for people, from integer cents: "R$ 1.234,50" (pt-BR, the default, with a no-break space) or "R$1,234.50"
 * (en). Reais in pt-BR and en are written directly; any other locale or currency goes to Intl with the exact decimal
 * string, never a float, so the locale decides symbol, grouping and separators and the digits stay exact. Throws on
 * a number that is not a safe integer.
 */
export const formatMoneyCents = (cents: number, options: MoneyFormat = {}): string => display(exactCents(cents), options);

/**
 * The same display from a decimal string of our API or the provider's six-decimal responses, rounded half away from
 * zero to cents and exact at any size ("1234.505000" → "R$ 1.234,51"). Text that is no decimal number is returned
 * as it is, so a bad amount shows as what it is and never as a made-up R$ 0,00.
 */
export function formatMoney(amount: string, options: MoneyFormat = {}): string {
  const cents = roundedCents(amount);
  return cents === undefined ? amount : display(cents, options);
}

/**
 * An amount typed by a person, pt-BR or plain ("R$ 1.234,5", "1234.50"), as the decimal string the API takes
 * ("1234.50"); undefined when it is not a positive amount with at most two decimals (and a safe count of cents).
 */
export function parseTypedAmount(text: string): string | undefined {
  let value = text.trim().replace(/^R\$\s*/, '');
  // pt-BR: dots group thousands and the comma separates the decimals.
  if (value.includes(',')) value = value.replace(/\./g, '').replace(',', '.');
  if (!/^\d+(\.\d{1,2})?$/.test(value)) return undefined;
  const cents = parseCents(value);
  return cents !== undefined && cents > 0 ? formatCents(cents) : undefined;
}
