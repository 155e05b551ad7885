import { expect } from '@open-wc/testing';
import './events.js';

describe('events', () => {
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
});
