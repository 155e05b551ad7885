import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import type { PixCheckout } from '../../widget/index.js';
import {
  $,
  backendLog,
  eventNames,
  liveRegion,
  mountCheckout,
  newOrderId,
  setBackendState,
  waitForSelector,
  waitForText,
} from './helpers.js';

describe('<pix-checkout> PIX', () => {
  afterEach(() => sessionStorage.clear());

  it('creates a PIX checkout on connect and shows the amount, QR and copy-and-paste code', async () => {
    const orderId = newOrderId();
    const el = await fixture<PixCheckout>(html`<pix-checkout endpoint="/api" order-id=${orderId}></pix-checkout>`);
    const { detail } = await oneEvent(el, 'pix-checkout-created');
    expect(detail).to.include({ orderId, state: 'Registered', amount: '1234.50' });
    const qr = await waitForSelector(el, 'svg[part="qr"]');
    expect(qr.getAttribute('role')).to.equal('img');
    expect(qr.querySelector('path')!.getAttribute('d')).to.match(/^M\d+ \d+h\d+v1h-\d+z/);
    expect(($(el, 'textarea[part="code"]') as HTMLTextAreaElement).value).to.match(/^000201/);
    expect($(el, '[part="amount"]')!.textContent).to.contain('R$\u00a01.234,50');
    const log = await backendLog(orderId);
    expect(log.requests[0]!.body).to.deep.equal({ orderId, method: 'pix' });
    await expect(el).to.be.accessible();
  });

  it('announces the completed state once, in events and in the live region', async () => {
    const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId() });
    await waitForSelector(el, 'svg[part="qr"]');
    const checkoutId = events[0]!.detail.checkoutId;
    await setBackendState(checkoutId, 'Completed');
    await waitForText(el, 'Pagamento confirmado');
    expect(eventNames(events)).to.deep.equal([
      'pix-checkout-created',
      'pix-checkout-status',
      'pix-checkout-status',
      'pix-checkout-completed',
    ]);
    expect(events[3]!.detail).to.deep.equal({ checkoutId, orderId: el.orderId, state: 'Completed', amount: '1234.50' });
    expect(events[3]!.bubbles && events[3]!.composed).to.equal(true);
    expect(liveRegion(el).textContent!.trim()).to.equal('Pagamento confirmado');
    await expect(el).to.be.accessible();
  });
});
