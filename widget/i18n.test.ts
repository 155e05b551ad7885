import { expect } from '@open-wc/testing';
import { formatMoney } from '../core/money.js';
import { loadStrings, stringsFor, toLocale } from './i18n.js';
import { loadScreens } from './screens-chunk.js';

describe('i18n', () => {
  // The element shows amounts through core's formatMoney; this checks it in the browser's own Intl.
  describe('formatMoney in the browser', () => {
    const cases: [string, string, string][] = [
      ['10.50', 'pt-BR', 'R$\u00a010,50'],
      ['10.5', 'en', 'R$10.50'],
      ['0.10', 'pt-BR', 'R$\u00a00,10'],
      ['1234567.89', 'pt-BR', 'R$\u00a01.234.567,89'],
      ['1234.500000', 'en', 'R$1,234.50'],
      // Beyond 2^53 cents: a float would already have lost the last digit.
      ['90071992547409.93', 'en', 'R$90,071,992,547,409.93'],
    ];
    for (const [amount, locale, shown] of cases) {
      it(`shows ${amount} in ${locale} as ${shown}`, () => {
        expect(formatMoney(amount, { locale, currency: 'BRL' })).to.equal(shown);
      });
    }

    it('shows an amount it cannot parse as given', () => {
      expect(formatMoney('abc', { locale: 'pt-BR', currency: 'BRL' })).to.equal('abc');
    });
  });

  it('picks English for en-*, Spanish for es-*, else Portuguese (Brazil)', () => {
    expect(['en', 'en-US', 'EN', 'pt-BR', 'pt', 'es', 'es-419', 'ES', 'es_AR', 'eng', 'fr', '', undefined].map(toLocale)).to.deep.equal([
      'en',
      'en',
      'en',
      'pt-BR',
      'pt-BR',
      'es',
      'es',
      'es',
      'es',
      'pt-BR',
      'pt-BR',
      'pt-BR',
      'pt-BR',
    ]);
  });

  it('has every string in every language', async () => {
    // Portuguese is whole once the screens' chunk came with the rest of its strings.
    await loadScreens();
    const pt = stringsFor('pt-BR')!;
    for (const other of [await loadStrings('en'), await loadStrings('es')]) {
      expect(Object.keys(other).sort()).to.deep.equal(Object.keys(pt).sort());
      for (const value of Object.values(other)) expect(value).to.be.a('string').and.not.empty;
    }
    for (const value of Object.values(pt)) expect(value).to.be.a('string').and.not.empty;
  });
});
