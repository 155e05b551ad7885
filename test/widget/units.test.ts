import { render } from 'lit';
import { expect, fixture, html } from '@open-wc/testing';
import { formatMoney } from '../../core/money.js';
import { isCheckout, parseMethods, webUrl } from '../../widget/api.js';
import { maskCpfInput } from '../../widget/cpf-input.js';
import { stringsFor, toLocale } from '../../widget/i18n.js';
import { qrSvg } from '../../widget/qr.js';

describe('widget helpers', () => {
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

  it('picks English only for en-* languages', () => {
    expect(['en', 'en-US', 'EN', 'pt-BR', 'pt', 'es', '', undefined].map(toLocale)).to.deep.equal([
      'en',
      'en',
      'en',
      'pt-BR',
      'pt-BR',
      'pt-BR',
      'pt-BR',
      'pt-BR',
    ]);
  });

  it('has every string in both languages', () => {
    const pt = stringsFor('pt-BR');
    const en = stringsFor('en');
    expect(Object.keys(en).sort()).to.deep.equal(Object.keys(pt).sort());
    for (const value of [...Object.values(pt), ...Object.values(en)]) expect(value).to.be.a('string').and.not.empty;
  });

  it('keeps the caret after the same digit when a CPF is edited in the middle', async () => {
    const input = await fixture<HTMLInputElement>(html`<input />`);
    input.value = '529.98224725';
    input.setSelectionRange(6, 6);
    expect(maskCpfInput(input)).to.equal('529.982.247-25');
    expect(input.selectionStart).to.equal(6);
  });

  it('reads the methods attribute, defaulting to PIX', () => {
    expect(['pix', 'openfinance', 'pix openfinance', 'OpenFinance,PIX', 'boleto', ''].map(parseMethods)).to.deep.equal([
      ['pix'],
      ['openfinance'],
      ['pix', 'openfinance'],
      ['pix', 'openfinance'],
      ['pix'],
      ['pix'],
    ]);
  });

  it('accepts only checkouts of a method and state it knows', () => {
    const checkout = { id: 'c1', orderId: 'A-1', method: 'pix', state: 'Registered', amount: '10.50' };
    expect(isCheckout(checkout)).to.equal(true);
    expect(isCheckout({ ...checkout, method: 'boleto' })).to.equal(false);
    expect(isCheckout({ ...checkout, method: undefined })).to.equal(false);
    expect(isCheckout({ ...checkout, state: 'Creating' })).to.equal(false);
    expect(isCheckout({ ...checkout, state: 'Refunded' })).to.equal(false);
  });

  it('only follows http(s) checkout URLs', () => {
    expect(webUrl('https://bank.example/authorize?x=1')).to.equal('https://bank.example/authorize?x=1');
    expect(webUrl('/sandbox/bank/1')).to.equal('/sandbox/bank/1');
    expect(webUrl('javascript:alert(1)')).to.equal(undefined);
    expect(webUrl('data:text/html,hi')).to.equal(undefined);
    expect(webUrl(undefined)).to.equal(undefined);
  });

  it('types its events for addEventListener through GlobalEventHandlersEventMap', () => {
    const el = document.createElement('pix-checkout');
    let seen = '';
    el.addEventListener('pix-checkout-completed', (event) => {
      seen = `${event.detail.checkoutId} ${event.detail.state} ${event.detail.amount}`;
    });
    const detail = { checkoutId: 'c1', orderId: 'A-1', state: 'Completed', amount: '10.50' } as const;
    el.dispatchEvent(new CustomEvent('pix-checkout-completed', { detail }));
    expect(seen).to.equal('c1 Completed 10.50');
  });

  describe('qrSvg', () => {
    const matrix = (size: number, dark: number[], length = Math.ceil((size * size) / 8)) => {
      const bytes = new Uint8Array(length);
      for (const i of dark) bytes[i >> 3]! |= 0x80 >> (i & 7);
      return { size, modules: btoa(String.fromCharCode(...bytes)) };
    };
    const pathOf = (result: ReturnType<typeof qrSvg>) => {
      const host = document.createElement('div');
      render(result, host);
      return host.querySelector('path')!.getAttribute('d');
    };

    it('draws one rectangle per run of dark modules, inside a 2-module quiet zone', () => {
      // Row 0: columns 0 to 2; row 1: column 5.
      const svg = qrSvg(matrix(21, [0, 1, 2, 21 + 5]), 'QR');
      expect(pathOf(svg)).to.equal('M2 2h3v1h-3zM7 3h1v1h-1z');
    });

    it('draws nothing from a malformed symbol', () => {
      expect(qrSvg(undefined, 'QR')).to.equal(undefined);
      for (const size of [0, 20, 22, 181, 21.5]) expect(qrSvg(matrix(size, []), 'QR'), `size ${size}`).to.equal(undefined);
      expect(qrSvg(matrix(21, [], 10), 'QR')).to.equal(undefined);
      expect(qrSvg({ size: 21, modules: '%%%not base64%%%' }, 'QR')).to.equal(undefined);
      expect(qrSvg({ size: 21, modules: 42 } as unknown as { size: number; modules: string }, 'QR')).to.equal(undefined);
    });
  });
});
