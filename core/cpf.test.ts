import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCnpj, formatCpf, isValidCnpj, isValidCpf, maskCpf, taxNumberDigits } from './cpf';

/**
 * Check digit of the Receita Federal's modulus-11 scheme, written independently of the implementation:
 * weighted sum, remainder r of 11, digit 0 when r < 2 else 11 − r.
 */
function mod11(digits: readonly number[], weights: readonly number[]): number {
  const sum = digits.reduce((acc, digit, i) => acc + digit * weights[i]!, 0);
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}
const cpfWith = (base: readonly number[]): number[] => {
  const first = mod11(base, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = mod11([...base, first], [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return [...base, first, second];
};
const cnpjWith = (base: readonly number[]): number[] => {
  const first = mod11(base, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = mod11([...base, first], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return [...base, first, second];
};

const digits = (length: number) =>
  fc
    .array(fc.integer({ min: 0, max: 9 }), { minLength: length, maxLength: length })
    // All-equal bases give the repeated-digit numbers, which are refused on purpose (tested separately).
    .filter((d) => d.some((x) => x !== d[0]));

describe('isValidCpf', () => {
  // Check digits of these computed by hand with the weights 10…2 and 11…2.
  it.each(['529.982.247-25', '52998224725', '111.444.777-35', '123.456.789-09', ' 529 982 247 25 '])('accepts %j', (cpf) => {
    expect(isValidCpf(cpf)).toBe(true);
  });

  it.each([
    ['529.982.247-24', 'second check digit wrong'],
    ['529.982.247-15', 'first check digit wrong'],
    ['529.982.248-25', 'a base digit changed'],
    ['123.456.789-00', 'both check digits wrong'],
    ['111.444.777-53', 'check digits swapped'],
    ['5299822472', 'ten digits'],
    ['529982247250', 'twelve digits'],
    ['', 'empty'],
    ['abc', 'no digits'],
  ])('refuses %j (%s)', (cpf) => {
    expect(isValidCpf(cpf)).toBe(false);
  });

  it('refuses the ten repeated-digit numbers, although their check digits add up', () => {
    for (let d = 0; d <= 9; d++) {
      const repeated = String(d).repeat(11);
      // The modulus-11 check alone would accept them: the rule under test is the explicit refusal.
      expect(cpfWith(Array(9).fill(d)).join('')).toBe(repeated);
      expect(isValidCpf(repeated)).toBe(false);
      expect(isValidCpf(formatCpf(repeated))).toBe(false);
    }
  });

  it('accepts any nine digits followed by their check digits, formatted or not (property)', () => {
    fc.assert(
      fc.property(digits(9), (base) => {
        const cpf = cpfWith(base).join('');
        expect(isValidCpf(cpf)).toBe(true);
        expect(isValidCpf(formatCpf(cpf))).toBe(true);
      }),
    );
  });

  it('refuses the number once either check digit is changed (property)', () => {
    fc.assert(
      fc.property(digits(9), fc.constantFrom(9, 10), fc.integer({ min: 1, max: 9 }), (base, position, delta) => {
        const cpf = cpfWith(base);
        cpf[position] = (cpf[position]! + delta) % 10;
        expect(isValidCpf(cpf.join(''))).toBe(false);
      }),
    );
  });
  it('refuses a wrong first check digit even when the second one is computed from it (property)', () => {
    fc.assert(
      fc.property(digits(9), fc.integer({ min: 1, max: 9 }), (base, delta) => {
        const first = (cpfWith(base)[9]! + delta) % 10;
        const second = mod11([...base, first], [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
        expect(isValidCpf([...base, first, second].join(''))).toBe(false);
      }),
    );
  });
});

describe('formatCpf', () => {
  it.each([
    ['', ''],
    ['1', '1'],
    ['123', '123'],
    ['1234', '123.4'],
    ['123456', '123.456'],
    ['1234567', '123.456.7'],
    ['123456789', '123.456.789'],
    ['1234567890', '123.456.789-0'],
    ['12345678909', '123.456.789-09'],
    // Extra digits are cut, non-digits dropped, formatted input stays as it is.
    ['123456789091234', '123.456.789-09'],
    ['123.456.789-09', '123.456.789-09'],
    ['123.4', '123.4'],
    ['12a3b4', '123.4'],
    ['abc', ''],
  ])('%j → %j', (typed, shown) => {
    expect(formatCpf(typed)).toBe(shown);
  });

  it('keeps the digits and is idempotent (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (typed) => {
        const shown = formatCpf(typed);
        expect(taxNumberDigits(shown)).toBe(taxNumberDigits(typed).slice(0, 11));
        expect(formatCpf(shown)).toBe(shown);
      }),
    );
  });
});

describe('maskCpf', () => {
  it.each([
    ['52998224725', '***.982.247-**'],
    ['529.982.247-25', '***.982.247-**'],
    [' 529 982 247 25 ', '***.982.247-**'],
    // Validity is not its business: any eleven digits are masked the same way.
    ['12345678900', '***.456.789-**'],
  ])('%j → %j', (cpf, masked) => {
    expect(maskCpf(cpf)).toBe(masked);
  });

  it.each(['', 'abc', '5299822472', '529982247250', '11.222.333/0001-81'])('shows nothing of %j, which is no CPF', (value) => {
    expect(maskCpf(value)).toBe('***');
  });

  it('never shows the first three or the two check digits (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 11, maxLength: 11 }), (d) => {
        const masked = maskCpf(formatCpf(d.join('')));
        expect(masked).toBe(`***.${d.slice(3, 6).join('')}.${d.slice(6, 9).join('')}-**`);
        expect(taxNumberDigits(masked)).toBe(d.slice(3, 9).join(''));
      }),
    );
  });
});

describe('isValidCnpj', () => {
  // Check digits of these computed by hand with the weights 5…2 9…2 and 6…2 9…2.
  it.each(['11.222.333/0001-81', '11222333000181', '12.345.678/0001-95'])('accepts %j', (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(true);
  });

  it.each([
    ['11.222.333/0001-82', 'second check digit wrong'],
    ['11.222.333/0001-71', 'first check digit wrong'],
    ['12.345.678/0002-95', 'a base digit changed'],
    ['1122233300018', 'thirteen digits'],
    ['112223330001810', 'fifteen digits'],
    ['00.000.000/0000-00', 'repeated zeros, whose check digits add up'],
    ['11111111111111', 'repeated ones'],
    ['529.982.247-25', 'a CPF'],
  ])('refuses %j (%s)', (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(false);
  });

  it('accepts any twelve digits followed by their check digits and refuses a changed check digit (property)', () => {
    fc.assert(
      fc.property(digits(12), fc.constantFrom(12, 13), fc.integer({ min: 1, max: 9 }), (base, position, delta) => {
        const cnpj = cnpjWith(base);
        expect(isValidCnpj(cnpj.join(''))).toBe(true);
        expect(isValidCnpj(formatCnpj(cnpj.join('')))).toBe(true);
        cnpj[position] = (cnpj[position]! + delta) % 10;
        expect(isValidCnpj(cnpj.join(''))).toBe(false);
      }),
    );
  });
  it('refuses a wrong first check digit even when the second one is computed from it (property)', () => {
    fc.assert(
      fc.property(digits(12), fc.integer({ min: 1, max: 9 }), (base, delta) => {
        const first = (cnpjWith(base)[12]! + delta) % 10;
        const second = mod11([...base, first], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
        expect(isValidCnpj([...base, first, second].join(''))).toBe(false);
      }),
    );
  });
});

describe('formatCnpj', () => {
  it('formats fourteen digits and leaves anything else alone', () => {
    expect(formatCnpj('11222333000181')).toBe('11.222.333/0001-81');
    expect(formatCnpj('11.222.333/0001-81')).toBe('11.222.333/0001-81');
    expect(formatCnpj('1122233300018')).toBe('1122233300018');
    expect(formatCnpj('abc')).toBe('abc');
  });
});

describe('taxNumberDigits', () => {
  it('keeps only the digits', () => {
    expect(taxNumberDigits('123.456.789-09')).toBe('12345678909');
    expect(taxNumberDigits('12.345.678/0001-95')).toBe('12345678000195');
    expect(taxNumberDigits('')).toBe('');
  });
});
