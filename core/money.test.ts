import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  centsOf,
  formatAmount6,
  formatCents,
  formatDecimal,
  formatMoney,
  formatMoneyCents,
  MICRO_SCALE,
  microsOf,
  mulDiv,
  parseCents,
  parseDecimal,
  parseTypedAmount,
  requireCents,
  rescale,
} from './money';

/** pt-BR puts a no-break space between the symbol and the digits. */
const NBSP = '\u00a0';

/** Canonical text of `whole.fraction` at `scale`, built by hand: no leading zeros, exactly `scale` decimals. */
function canonical(negative: boolean, whole: string, fraction: string, scale: number): string {
  const w = whole.replace(/^0+(?=\d)/, '');
  const f = fraction.padEnd(scale, '0').slice(0, scale);
  const isZero = /^0*$/.test(w + f);
  return `${negative && !isZero ? '-' : ''}${w}${scale > 0 ? `.${f}` : ''}`;
}

const digitString = (minLength: number, maxLength: number) =>
  fc.array(fc.constantFrom(...'0123456789'), { minLength, maxLength }).map((d) => d.join(''));

describe('parseDecimal / formatDecimal', () => {
  it('round-trips every integer count at every scale (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 12 }), (units, scale) => {
        const text = formatDecimal(units, scale);
        expect(parseDecimal(text, scale, { signed: true })).toBe(units);
        // Exactly `scale` decimals, no superfluous leading zero, a sign only for negatives.
        expect(text).toMatch(scale > 0 ? new RegExp(`^-?(0|[1-9]\\d*)\\.\\d{${scale}}$`) : /^-?(0|[1-9]\d*)$/);
        expect(text.startsWith('-')).toBe(units < 0n);
      }),
    );
  });

  it('reads any decimal with at most `scale` significant decimals and writes it back in canonical form (property)', () => {
    const scaleAndFraction = fc.integer({ min: 0, max: 8 }).chain((scale) => fc.tuple(fc.constant(scale), digitString(0, scale)));
    fc.assert(
      fc.property(
        fc.boolean(),
        digitString(1, 25),
        scaleAndFraction,
        fc.integer({ min: 0, max: 4 }),
        (negative, whole, [scale, fraction], trailingZeros) => {
          const fractionText = fraction + '0'.repeat(trailingZeros);
          const text = `${negative ? '-' : ''}${whole}${fractionText ? `.${fractionText}` : ''}`;
          const units = parseDecimal(text, scale, { signed: true });
          expect(units).toBeDefined();
          expect(formatDecimal(units!, scale)).toBe(canonical(negative, whole, fractionText, scale));
        },
      ),
    );
  });

  it('refuses a decimal with a non-zero digit beyond the scale (property)', () => {
    fc.assert(
      fc.property(
        digitString(1, 10),
        fc.integer({ min: 0, max: 6 }),
        digitString(0, 6),
        fc.constantFrom(...'123456789'),
        (whole, scale, extra, nonZero) => {
          const fraction = `${'5'.repeat(scale)}${extra}${nonZero}`;
          expect(parseDecimal(`${whole}.${fraction}`, scale, { signed: true })).toBeUndefined();
        },
      ),
    );
  });

  it('keeps negatives out unless signed is asked for', () => {
    expect(parseDecimal('-1.5', 2)).toBeUndefined();
    expect(parseDecimal('-1.5', 2, { signed: true })).toBe(-150n);
    expect(parseDecimal('-0.000001', 6, { signed: true })).toBe(-1n);
  });

  it('formats small and zero counts with a leading zero', () => {
    expect(formatDecimal(0n, 2)).toBe('0.00');
    expect(formatDecimal(5n, 2)).toBe('0.05');
    expect(formatDecimal(-5n, 2)).toBe('-0.05');
    expect(formatDecimal(-123456n, 6)).toBe('-0.123456');
    expect(formatDecimal(42n, 0)).toBe('42');
  });
});

describe('parseCents', () => {
  it.each([
    ['10', 1000],
    ['10.5', 1050],
    ['10.50', 1050],
    ['0.01', 1],
    ['0', 0],
    ['007.5', 750],
    // Zeros beyond the second decimal are not significant.
    ['10.500000', 1050],
    ['1234.5000', 123450],
    [' 10.5 ', 1050],
    // The largest count of cents a number holds exactly: 2^53 − 1.
    ['90071992547409.91', Number.MAX_SAFE_INTEGER],
  ])('%j → %s', (text, cents) => {
    expect(parseCents(text)).toBe(cents);
  });

  it.each([
    // One cent more than a number holds exactly, where 2^53 + 1 would read as 2^53.
    '90071992547409.92',
    '90071992547409.93',
    '123456789012345678901234567890.99',
  ])('refuses %j, an exact amount whose cents are beyond a safe integer', (text) => {
    expect(parseDecimal(text, 2)).toBeDefined();
    expect(parseCents(text)).toBeUndefined();
  });

  it('reads back every safe count of cents formatCents writes (property)', () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), (cents) => {
        expect(parseCents(formatCents(cents))).toBe(cents);
        expect(parseCents(formatAmount6(cents))).toBe(cents);
      }),
    );
  });

  it.each([
    // more than two significant decimals
    '10.501',
    '10.005',
    '0.001',
    '1234.505000',
    // negatives
    '-1',
    '-0.01',
    '-10.50',
    // garbage
    '',
    ' ',
    'abc',
    '10,50',
    '1.234,50',
    '1e3',
    '+1',
    '.5',
    '5.',
    '1.2.3',
    '0x10',
    'R$ 10',
    'NaN',
    'Infinity',
    '10 50',
    '١٠',
  ])('refuses %j', (text) => {
    expect(parseCents(text)).toBeUndefined();
  });

  it('formatCents and formatAmount6 write cents back with two and six decimals', () => {
    expect(formatCents(1050)).toBe('10.50');
    expect(formatCents(1)).toBe('0.01');
    expect(formatCents(Number.MAX_SAFE_INTEGER)).toBe('90071992547409.91');
    expect(formatAmount6(123451)).toBe('1234.510000');
    expect(formatAmount6(0)).toBe('0.000000');
  });

  it.each([10.5, 0.1, Number.MAX_SAFE_INTEGER + 1, 2 ** 60, NaN, Infinity])(
    'formatters of cents throw on %s, which is no safe count of cents',
    (cents) => {
      expect(() => formatCents(cents)).toThrow(RangeError);
      expect(() => formatAmount6(cents)).toThrow(RangeError);
      expect(() => formatMoneyCents(cents)).toThrow(RangeError);
      expect(() => microsOf(cents)).toThrow(RangeError);
    },
  );
});

describe('requireCents', () => {
  it('reads an amount the system wrote itself', () => {
    expect(requireCents('10.50')).toBe(1050);
    expect(requireCents('1234.560000')).toBe(123456);
  });

  it.each(['', 'abc', '1234.505000', '-1.00', '90071992547409.92'])('throws on %j rather than guess', (amount) => {
    expect(() => requireCents(amount)).toThrow(RangeError);
  });
});

describe('microsOf', () => {
  it('steps cents into the provider precision, where sums beyond 2^53 stay exact', () => {
    expect(MICRO_SCALE).toBe(6);
    expect(microsOf(1050)).toBe(10_500_000n);
    expect(microsOf(0)).toBe(0n);
    expect(microsOf(-1)).toBe(-10_000n);
    // The largest safe count of cents is beyond 2^53 in micro-units, and still exact.
    expect(microsOf(Number.MAX_SAFE_INTEGER)).toBe(BigInt(Number.MAX_SAFE_INTEGER) * 10_000n);
  });
});

describe('rounding half away from zero', () => {
  it.each([
    // [units, from, to, expected] — checked by hand
    [5n, 3, 2, 1n], // 0.005 → 0.01
    [-5n, 3, 2, -1n], // -0.005 → -0.01
    [4n, 3, 2, 0n],
    [-4n, 3, 2, 0n],
    [6n, 3, 2, 1n],
    [-6n, 3, 2, -1n],
    [15n, 1, 0, 2n], // 1.5 → 2
    [25n, 1, 0, 3n], // 2.5 → 3, not the banker's 2
    [-25n, 1, 0, -3n],
    [149n, 2, 0, 1n],
    [150n, 2, 0, 2n],
    [-149n, 2, 0, -1n],
    [-150n, 2, 0, -2n],
    [1234505000n, 6, 2, 123451n], // 1234.505000 → 1234.51
    [-1234505000n, 6, 2, -123451n],
    [1234504999n, 6, 2, 123450n],
    [1234_500_000n, 6, 2, 123450n], // exact: no rounding
    [123n, 2, 6, 1230000n], // upscaling multiplies
    [-123n, 2, 6, -1230000n],
    [77n, 2, 2, 77n],
  ])('rescale(%s, %i → %i) = %s', (units, from, to, expected) => {
    expect(rescale(units, from, to)).toBe(expected);
  });

  it.each([
    // [units, numerator, denominator, expected] — checked by hand
    [10n, 1n, 4n, 3n], // 2.5 → 3
    [-10n, 1n, 4n, -3n],
    [10n, -1n, 4n, -3n],
    [10n, 1n, -4n, -3n],
    [-10n, 1n, -4n, 3n],
    [-10n, -1n, 4n, 3n],
    [9n, 1n, 4n, 2n], // 2.25 → 2
    [-9n, 1n, 4n, -2n],
    [11n, 1n, 4n, 3n], // 2.75 → 3
    [-11n, 1n, 4n, -3n],
    [1n, 1n, 2n, 1n], // 0.5 → 1
    [-1n, 1n, 2n, -1n],
    [1n, 1n, 3n, 0n], // 0.33 → 0
    [2n, 1n, 3n, 1n], // 0.67 → 1
    [-2n, 1n, 3n, -1n],
    [1999n, 15n, 1000n, 30n], // 29.985 → 30
    [1999n, 5n, 1000n, 10n], // 9.995 → 10
    [-1999n, 5n, 1000n, -10n],
    [1000n, 333n, 1000n, 333n], // exact
    [0n, 7n, 3n, 0n],
  ])('mulDiv(%s, %s, %s) = %s', (units, numerator, denominator, expected) => {
    expect(mulDiv(units, numerator, denominator)).toBe(expected);
  });

  it('mulDiv is the nearest integer, ties away from zero (property)', () => {
    const nonZero = fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }).filter((d) => d !== 0n);
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        fc.bigInt({ min: -(10n ** 6n), max: 10n ** 6n }),
        nonZero,
        (units, numerator, denominator) => {
          const exact = units * numerator; // the result should be exact / denominator
          const result = mulDiv(units, numerator, denominator);
          const abs = (x: bigint) => (x < 0n ? -x : x);
          // |result·d − exact| ≤ |d|/2: nothing is nearer.
          const error = abs(result * denominator - exact);
          expect(2n * error <= abs(denominator)).toBe(true);
          // On a tie the result is the one farther from zero.
          if (2n * error === abs(denominator)) expect(abs(result * denominator) > abs(exact)).toBe(true);
          // The sign follows the exact quotient (or the result is zero).
          if (result !== 0n) expect(result < 0n).toBe(exact < 0n !== denominator < 0n);
        },
      ),
    );
  });
});

describe('centsOf', () => {
  it.each([
    ['1234.505000', 123451],
    ['1234.504999', 123450],
    ['-1234.505000', -123451],
    ['10.50', 1050],
    ['10', 1000],
    ['0.004999', 0],
    ['0.005', 1],
    ['-0.005', -1],
    ['90071992547409.914999', Number.MAX_SAFE_INTEGER],
    ['-90071992547409.91', -Number.MAX_SAFE_INTEGER],
  ])('%j → %s', (amount, cents) => {
    expect(centsOf(amount)).toBe(cents);
  });

  it.each(['', 'abc', '10,50', '1.0000001', '1e2'])('%j is no amount', (amount) => {
    expect(centsOf(amount)).toBeUndefined();
  });

  it.each(['90071992547409.915', '-90071992547409.92', '1000000000000000000.00'])(
    '%j rounds to cents beyond a safe integer: refused',
    (amount) => {
      expect(centsOf(amount)).toBeUndefined();
    },
  );
});

describe('formatMoney', () => {
  it('rounds the provider amount to cents and lets the locale format it', () => {
    expect(formatMoney('1234.505000')).toBe(`R$${NBSP}1.234,51`);
    expect(formatMoney('1234.505000', { locale: 'pt-BR' })).toBe(`R$${NBSP}1.234,51`);
    expect(formatMoney('1234.505000', { locale: 'en' })).toBe('R$1,234.51');
    expect(formatMoney('0.5')).toBe(`R$${NBSP}0,50`);
  });

  it('gives back text that is no amount unchanged, never a made-up R$ 0,00', () => {
    expect(formatMoney('n/a')).toBe('n/a');
    expect(formatMoney('')).toBe('');
    expect(formatMoney('10,50')).toBe('10,50');
    expect(formatMoney('1.0000001')).toBe('1.0000001');
  });

  it('falls back to "<code> <decimal>" when Intl refuses the currency', () => {
    expect(formatMoneyCents(1050, { currency: 'not a currency' })).toBe('not a currency 10.50');
  });

  it('formats huge amounts exactly from their decimal string, where a float would lose digits', () => {
    // 10^20 cents = R$ 10^18, far beyond a safe count of cents: only the text form reaches it.
    expect(formatMoney('1000000000000000000.00')).toBe(`R$${NBSP}1.000.000.000.000.000.000,00`);
    expect(formatMoney('1000000000000000000.01')).toBe(`R$${NBSP}1.000.000.000.000.000.000,01`);
    expect(formatMoney('1000000000000000000.010000', { locale: 'en' })).toBe('R$1,000,000,000,000,000,000.01');
    // A float cannot tell these apart, so a float-based formatter would print the same text for both.
    expect(Number('1000000000000000000.01')).toBe(Number('1000000000000000000.00'));
    expect(formatMoney('123456789012345678.91')).toBe(`R$${NBSP}123.456.789.012.345.678,91`);
  });

  it('formats integer cents in pt-BR by default, up to the largest safe count', () => {
    expect(formatMoneyCents(123450)).toBe(`R$${NBSP}1.234,50`);
    expect(formatMoneyCents(1)).toBe(`R$${NBSP}0,01`);
    expect(formatMoneyCents(-5)).toBe(`-R$${NBSP}0,05`);
    expect(formatMoneyCents(Number.MAX_SAFE_INTEGER)).toBe(`R$${NBSP}90.071.992.547.409,91`);
  });

  it('gives the same text from cents and from their wire forms (property)', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (cents) => {
        expect(formatMoney(formatCents(cents))).toBe(formatMoneyCents(cents));
        expect(formatMoney(formatAmount6(cents), { locale: 'en' })).toBe(formatMoneyCents(cents, { locale: 'en' }));
      }),
    );
  });
});

describe('display without Intl', () => {
  const decimalOf = (cents: bigint) =>
    `${cents < 0n ? '-' : ''}${(cents < 0n ? -cents : cents) / 100n}.${String((cents < 0n ? -cents : cents) % 100n).padStart(2, '0')}`;

  it.each(['pt-BR', 'en', 'en-US'])('writes reais in %s exactly as Intl does, for any amount', (locale) => {
    const intl = new Intl.NumberFormat(locale, { style: 'currency', currency: 'BRL', minimumFractionDigits: 2, maximumFractionDigits: 2 });
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), (cents) => {
        const decimal = decimalOf(cents);
        expect(formatMoney(decimal, { locale })).toBe(intl.format(decimal as unknown as number));
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.maxSafeInteger(), (cents) => {
        expect(formatMoneyCents(cents, { locale })).toBe(intl.format(decimalOf(BigInt(cents)) as unknown as number));
      }),
      { numRuns: 200 },
    );
  });
});

describe('parseTypedAmount', () => {
  it.each([
    ['R$ 1.234,5', '1234.50'],
    ['R$1.234,56', '1234.56'],
    ['1.234.567,89', '1234567.89'],
    ['10,5', '10.50'],
    ['0,01', '0.01'],
    ['1234.50', '1234.50'],
    ['1234.5', '1234.50'],
    ['1234', '1234.00'],
    ['  7  ', '7.00'],
  ])('%j → %j', (typed, decimal) => {
    expect(parseTypedAmount(typed)).toBe(decimal);
  });

  it('reads back what formatMoneyCents displays, so a pasted amount keeps its value (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (cents) => {
        expect(parseTypedAmount(formatMoneyCents(cents))).toBe(formatCents(cents));
      }),
    );
  });

  it.each([
    '0',
    '0,00',
    '0.00',
    '-1',
    'R$ -1',
    // An English-grouped amount: read as pt-BR it would be 1.2345, so it is refused rather than guessed.
    '1,234.5',
    // pt-BR thousands without decimals would be read as three decimals: refused.
    '1.234',
    '12,345',
    '1,2,3',
    '',
    'R$ ',
    'abc',
    '1e3',
    // Exact, but more cents than a number holds exactly.
    '90.071.992.547.409,92',
  ])('refuses %j', (typed) => {
    expect(parseTypedAmount(typed)).toBeUndefined();
  });
});
