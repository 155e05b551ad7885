import { expect } from '@open-wc/testing';
import { isCheckout, parseMethods, webUrl } from './api.js';

describe('api', () => {
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
});
