import { expect } from '@open-wc/testing';
import { pollDelay } from '../../widget/status-stream.js';
import {
  $,
  backendLog,
  eventNames,
  liveRegion,
  mountCheckout,
  newOrderId,
  setBackendState,
  sleep,
  visibleText,
  waitForSelector,
  waitForText,
} from './helpers.js';

describe('<pix-checkout> status updates', () => {
  afterEach(() => sessionStorage.clear());

  it('follows the checkout over Server-Sent Events, one status event per change', async () => {
    const orderId = newOrderId();
    const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': orderId });
    await waitForSelector(el, 'svg[part="qr"]');
    const { checkoutId } = events[0]!.detail;
    await setBackendState(checkoutId, 'Registered');
    await setBackendState(checkoutId, 'Completed');
    await waitForText(el, 'Pagamento confirmado');
    expect(eventNames(events)).to.deep.equal([
      'pix-checkout-created',
      'pix-checkout-status',
      'pix-checkout-status',
      'pix-checkout-completed',
    ]);
    const log = await backendLog(orderId);
    // One method and no payer form: the element posts at once (no order lookup), then follows the stream.
    expect(log.requests.map((r) => r.path)).to.deep.equal(['/api/checkouts', `/api/checkouts/${checkoutId}/events`]);
  });

  it('falls back to polling GET /checkouts/:id when the event stream fails', async () => {
    const orderId = newOrderId('nosse');
    const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': orderId });
    await waitForSelector(el, 'svg[part="qr"]');
    await setBackendState(events[0]!.detail.checkoutId, 'Completed');
    await waitForText(el, 'Pagamento confirmado', 5000);
    expect(events.filter((event) => event.type === 'pix-checkout-completed')).to.have.length(1);
    expect((await backendLog(orderId)).gets).to.be.at.least(1);
    await expect(el).to.be.accessible();
  });

  it('keeps waiting through failed polls, one request at a time, and never shows a false failure', async () => {
    const orderId = newOrderId('blip');
    const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, lang: 'en' });
    await waitForSelector(el, 'svg[part="qr"]');
    await setBackendState(events[0]!.detail.checkoutId, 'Completed');
    // Poll 1 (at ~2 s) hangs 2.5 s then answers 502; poll 2 loses its connection; poll 3 sees Completed.
    for (let waited = 0; waited < 5000; waited += 250) {
      await sleep(250);
      expect(visibleText(el)).to.contain('Waiting for your payment');
      expect($(el, '[part="result"]')).to.equal(null);
    }
    await waitForText(el, 'Payment confirmed', 8000);
    const log = await backendLog(orderId);
    expect(log.gets).to.equal(3);
    expect(log.maxInFlight).to.equal(1);
    expect(eventNames(events).filter((name) => name !== 'pix-checkout-status')).to.deep.equal([
      'pix-checkout-created',
      'pix-checkout-completed',
    ]);
    expect(liveRegion(el).textContent.trim()).to.equal('Payment confirmed');
  });

  it('polls every 2 s during the first minute, then every 10 s', () => {
    expect([0, 30_000, 59_999, 60_000, 600_000].map(pollDelay)).to.deep.equal([2000, 2000, 2000, 10_000, 10_000]);
  });
});
